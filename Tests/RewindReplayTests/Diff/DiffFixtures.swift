import RewindJSON
import RewindTestSupport

/// Builders for JSON values in the diff tests, and a seeded generator of random documents and
/// random edits of them. Namespaced so as not to collide with other suites in this target.
enum DiffFixtures {
  static func number(_ value: Int) -> JSONValue { .number(String(value)) }

  static func object(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONMember($0.0, $0.1) })
  }

  static func todo(_ id: Int, _ title: String, done: Bool = false) -> JSONValue {
    object(("id", number(id)), ("title", .string(title)), ("done", .bool(done)))
  }

  static func todoState(_ todos: [JSONValue], filter: String = "all") -> JSONValue {
    object(("todos", .array(todos)), ("filter", .string(filter)))
  }

  static func numbers(_ values: some Sequence<Int>) -> JSONValue {
    .array(values.map(number))
  }

  /// Random documents and random edits of them, drawn from small pools so that equal elements,
  /// awkward keys and kind changes are common.
  struct RandomJSON {
    var generator: SplitMix64

    private static let keys = ["id", "title", "done", "a/b", "m~n", "", "2", "weird key", "x"]
    private static let numbers = ["0", "1", "-2", "3.5", "1e3", "42"]
    private static let strings = ["", "a", "b", "Buy milk", "x/y", "~1", "ü", "line\nbreak"]

    init(seed: UInt64) {
      generator = SplitMix64(seed: seed)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
      Int.random(in: range, using: &generator)
    }

    mutating func chance(_ percent: Int) -> Bool {
      int(1...100) <= percent
    }

    mutating func scalar() -> JSONValue {
      switch int(0...3) {
      case 0: return .null
      case 1: return .bool(chance(50))
      case 2: return .number(Self.numbers[int(0...Self.numbers.count - 1)])
      default: return .string(Self.strings[int(0...Self.strings.count - 1)])
      }
    }

    mutating func value(depth: Int) -> JSONValue {
      guard depth > 0, chance(60) else { return scalar() }
      if chance(50) {
        return .array((0..<int(0...6)).map { _ in value(depth: depth - 1) })
      }
      return .object(members(count: int(0...5), depth: depth - 1))
    }

    mutating func members(count: Int, depth: Int) -> [JSONMember] {
      var keys = Self.keys
      keys.shuffle(using: &generator)
      return keys.prefix(count).map { JSONMember($0, value(depth: depth)) }
    }

    mutating func freshKey(notIn members: [JSONMember]) -> String? {
      Self.keys.shuffled(using: &generator).first { key in !members.contains { $0.key == key } }
    }

    /// `value` after one random edit somewhere inside it.
    mutating func edited(_ value: JSONValue, depth: Int = 3) -> JSONValue {
      switch value {
      case .array(var elements):
        if !elements.isEmpty, chance(40) {
          let index = int(0...elements.count - 1)
          elements[index] = edited(elements[index], depth: depth - 1)
          return .array(elements)
        }
        switch int(0...4) {
        case 0:
          elements.insert(self.value(depth: depth - 1), at: int(0...elements.count))
        case 1 where !elements.isEmpty:
          elements.remove(at: int(0...elements.count - 1))
        case 2 where !elements.isEmpty:
          let moved = elements.remove(at: int(0...elements.count - 1))
          elements.insert(moved, at: int(0...elements.count))
        case 3 where !elements.isEmpty:
          elements.insert(elements[int(0...elements.count - 1)], at: int(0...elements.count))
        default:
          return self.value(depth: depth)
        }
        return .array(elements)
      case .object(var members):
        if !members.isEmpty, chance(40) {
          let index = int(0...members.count - 1)
          members[index].value = edited(members[index].value, depth: depth - 1)
          return .object(members)
        }
        switch int(0...3) {
        case 0:
          guard let key = freshKey(notIn: members) else { return .object([]) }
          members.insert(JSONMember(key, self.value(depth: depth - 1)), at: int(0...members.count))
        case 1 where !members.isEmpty:
          members.remove(at: int(0...members.count - 1))
        case 2:
          members.shuffle(using: &generator)
        default:
          return self.value(depth: depth)
        }
        return .object(members)
      default:
        return chance(80) ? scalar() : self.value(depth: depth)
      }
    }

    /// A todo list of `count` todos with ids from 1.
    mutating func todos(count: Int) -> [JSONValue] {
      (1...max(1, count)).prefix(count).map { id in
        todo(id, Self.strings[int(0...Self.strings.count - 1)], done: chance(30))
      }
    }

    /// `todos` after a random edit of the kind an app makes.
    mutating func editedTodos(_ todos: [JSONValue]) -> [JSONValue] {
      var todos = todos
      let nextID = 1000 + int(0...999)
      switch int(0...4) {
      case 0:
        todos.insert(todo(nextID, "new"), at: int(0...todos.count))
      case 1 where !todos.isEmpty:
        todos.remove(at: int(0...todos.count - 1))
      case 2 where !todos.isEmpty:
        let index = int(0...todos.count - 1)
        if case .object(var members) = todos[index],
          let done = members.firstIndex(where: {
            $0.key == "done"
          })
        {
          members[done].value = .bool(!(members[done].value.boolValue ?? false))
          todos[index] = .object(members)
        }
      case 3 where !todos.isEmpty:
        let moved = todos.remove(at: int(0...todos.count - 1))
        todos.insert(moved, at: int(0...todos.count))
      default:
        todos.append(todo(nextID, "appended", done: true))
      }
      return todos
    }
  }
}

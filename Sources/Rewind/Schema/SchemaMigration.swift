import RewindJSON

/// How a log recorded with schema version ``from`` becomes one of schema `from + 1`: steps on
/// the JSON of each action and of each state (the header's and the checkpoints'), applied before
/// they are decoded with today's types. A replay binary registers its app's migrations
/// (`ReplayApp(name:reducer:build:migrations:)`), and they chain: a log of schema 1 read by an
/// app of schema 3 goes through the migrations from 1 and from 2.
///
/// ```swift
/// let todoMigrations = [
///   SchemaMigration(
///     from: 1,
///     actions: [.renameKey("text", to: "title", in: "add"), .renameCase("archive", to: "remove")],
///     states: [.renameKey("text", to: "title", in: "todos[]")])
/// ]
/// ```
public struct SchemaMigration: Sendable {
  /// The schema version it migrates from (to `from + 1`).
  public let from: Int
  /// The steps for each action's JSON (`{"add":{"title":"Buy milk"}}`), in order.
  public let actions: [MigrationStep]
  /// The steps for each state's JSON, in order.
  public let states: [MigrationStep]

  /// A migration from schema `from` to `from + 1`.
  public init(from: Int, actions: [MigrationStep] = [], states: [MigrationStep] = []) {
    self.from = from
    self.actions = actions
    self.states = states
  }
}

/// One change to a JSON value: rename a key, rename an enum case, insert a default, drop a
/// member, or anything else as a closure. Keyed steps act on every object that `path` reaches
/// and leave the value alone where it reaches nothing (an action of another case).
///
/// A path is keys separated by dots, with `[]` for "each element of the array":
/// `""` (the value itself), `"add"` (the payload of an `add` action), `"todos[]"` (each todo of
/// the state), `"settings.sort"`.
public struct MigrationStep: Sendable {
  /// What the step does, for messages (`rename key text → title in add`).
  public let name: String
  private let body: @Sendable (inout JSONValue) throws -> Void

  /// A step named `name` that runs `body` on the value.
  public init(_ name: String, _ body: @escaping @Sendable (inout JSONValue) throws -> Void) {
    self.name = name
    self.body = body
  }

  /// Runs the step on `value`.
  /// - Throws: What the step's closure throws.
  public func apply(to value: inout JSONValue) throws {
    try body(&value)
  }

  /// Renames the member `old` to `new` (keeping its place) in each object at `path`; a member
  /// already named `new` there is replaced by it.
  public static func renameKey(_ old: String, to new: String, in path: String = "")
    -> MigrationStep
  {
    MigrationStep("rename key \(old) → \(new)\(Self.place(path))") { value in
      JSONPathWalk.objects(at: path, in: &value) { members in
        guard let index = members.firstIndex(where: { $0.key == old }) else { return }
        members[index] = JSONMember(new, members[index].value)
        members = members.enumerated().filter { $0.offset == index || $0.element.key != new }
          .map(\.element)
      }
    }
  }

  /// Renames the enum case `old` to `new` in the value at `path`: the key of a one-member
  /// object (`{"archive":{…}}`, a case with a payload as synthesized `Codable` writes it) or a
  /// string (`"archive"`, a raw-value enum).
  public static func renameCase(_ old: String, to new: String, in path: String = "")
    -> MigrationStep
  {
    MigrationStep("rename case \(old) → \(new)\(Self.place(path))") { value in
      JSONPathWalk.values(at: path, in: &value) { value in
        switch value {
        case .object(let members) where members.count == 1 && members[0].key == old:
          value = .object([JSONMember(new, members[0].value)])
        case .string(old):
          value = .string(new)
        default:
          break
        }
      }
    }
  }

  /// Adds the member `key` with `value` to each object at `path` that lacks it (a field added
  /// since, whose decoding has no default).
  public static func insertDefault(_ key: String, _ value: JSONValue, in path: String = "")
    -> MigrationStep
  {
    MigrationStep("insert default \(key)\(Self.place(path))") { root in
      JSONPathWalk.objects(at: path, in: &root) { members in
        if !members.contains(where: { $0.key == key }) { members.append(JSONMember(key, value)) }
      }
    }
  }

  /// Removes the member `key` from each object at `path` (a field removed since, that a strict
  /// decoder would refuse).
  public static func dropKey(_ key: String, in path: String = "") -> MigrationStep {
    MigrationStep("drop key \(key)\(Self.place(path))") { value in
      JSONPathWalk.objects(at: path, in: &value) { members in
        members.removeAll { $0.key == key }
      }
    }
  }

  private static func place(_ path: String) -> String {
    path.isEmpty ? "" : " in \(path)"
  }
}

/// Walks a migration path (`todos[].title`) through a JSON value, in place.
enum JSONPathWalk {
  /// One step of a path.
  private enum Component {
    case key(String)
    case each
  }

  private static func components(_ path: String) -> [Component] {
    var result: [Component] = []
    for part in path.split(separator: ".", omittingEmptySubsequences: true) {
      var name = Substring(part)
      var each = 0
      while name.hasSuffix("[]") {
        name = name.dropLast(2)
        each += 1
      }
      if !name.isEmpty { result.append(.key(String(name))) }
      result += Array(repeating: .each, count: each)
    }
    return result
  }

  /// Calls `body` with every value `path` reaches in `value`.
  static func values(
    at path: String, in value: inout JSONValue, _ body: (inout JSONValue) throws -> Void
  ) rethrows {
    try walk(components(path)[...], &value, body)
  }

  /// Calls `body` with the members of every object `path` reaches in `value`.
  static func objects(
    at path: String, in value: inout JSONValue, _ body: (inout [JSONMember]) throws -> Void
  ) rethrows {
    try values(at: path, in: &value) { value in
      guard case .object(var members) = value else { return }
      value = .null  // so that `members` is the only reference and is changed in place
      try body(&members)
      value = .object(members)
    }
  }

  private static func walk(
    _ path: ArraySlice<Component>, _ value: inout JSONValue,
    _ body: (inout JSONValue) throws -> Void
  ) rethrows {
    guard let first = path.first else { return try body(&value) }
    let rest = path.dropFirst()
    switch (first, value) {
    case (.key(let name), .object(var members)):
      guard let index = members.firstIndex(where: { $0.key == name }) else { return }
      value = .null
      var inner = members[index].value
      members[index] = JSONMember(name, .null)
      try walk(rest, &inner, body)
      members[index] = JSONMember(name, inner)
      value = .object(members)
    case (.each, .array(var elements)):
      value = .null
      for index in elements.indices {
        var inner = elements[index]
        elements[index] = .null
        try walk(rest, &inner, body)
        elements[index] = inner
      }
      value = .array(elements)
    default:
      return
    }
  }
}

import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// ``JSONProjection`` (what `history` uses to encode only the value at a path) against the full
/// encoding cut at the path, for every path of a set of values of many shapes.
@Suite struct JSONProjectionTests {
  struct Item: Codable, Equatable {
    var id: Int
    var name: String
    var score: Double
    var tags: [String]
    var note: String?
  }

  enum Event: Codable, Equatable {
    case opened
    case moved(from: Int, to: Int)
    case renamed(String)
  }

  struct Wrapper: Codable, Equatable {
    var value: Int
    init(_ value: Int) { self.value = value }
    init(from decoder: any Decoder) throws {
      value = try decoder.singleValueContainer().decode(Int.self)
    }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  struct Nested: Encodable {
    var inner: [String: Int]
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyKey.self)
      var deep = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("deep"))
      try deep.encode(inner.count, forKey: AnyKey("size"))
      var list = deep.nestedUnkeyedContainer(forKey: AnyKey("list"))
      for key in inner.keys.sorted() { try list.encode(key) }
      try container.encodeNil(forKey: AnyKey("nothing"))
      try container.encode(1, forKey: AnyKey("count"))
    }
  }

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  struct Shapes: Encodable {
    var items: [Item]
    var events: [Event]
    var byName: [String: Item]
    var byNumber: [Int: String]
    var labels: Set<String>
    var wrapped: [Wrapper]
    var when: Date
    var matrix: [[Int]]
    var nested: Nested
    var optional: Int?
  }

  static let shapes = Shapes(
    items: [
      Item(id: 7, name: "seven", score: 0.5, tags: ["a", "b"], note: nil),
      Item(id: 3, name: "three \"quoted\"", score: -1e-7, tags: [], note: "n"),
      Item(id: 42, name: "Zoë", score: 12, tags: ["x"], note: nil),
    ],
    events: [.opened, .moved(from: 1, to: 2), .renamed("r")],
    byName: ["b": Item(id: 1, name: "one", score: 1, tags: [], note: nil)],
    byNumber: [10: "ten", 2: "two"],
    labels: ["z", "a", "m"],
    wrapped: [Wrapper(5), Wrapper(6)],
    when: Date(timeIntervalSinceReferenceDate: 12.25),
    matrix: [[1, 2], [], [3]],
    nested: Nested(inner: ["k": 1, "j": 2]),
    optional: nil)

  /// Every path in `value` (keys, indices, `count`, and an identity step on each scalar member
  /// of each object element of an array), with the path leading nowhere one step further.
  static func paths(in value: JSONValue, under path: JSONPath = .root) -> [JSONPath] {
    var paths = [path, path.appending(.key("count")), path.appending(.key("missing"))]
    switch value {
    case .object(let members):
      for member in members {
        paths += Self.paths(in: member.value, under: path.appending(.key(member.key)))
      }
    case .array(let elements):
      paths.append(path.appending(.index(elements.count)))
      for (index, element) in elements.enumerated() {
        paths += Self.paths(in: element, under: path.appending(.index(index)))
        guard case .object(let members) = element else { continue }
        for member in members {
          switch member.value {
          case .array, .object: continue
          default:
            let step = JSONPath.Component.matching(key: member.key, value: member.value.jsonText)
            paths += Self.paths(in: element, under: path.appending(step))
          }
        }
        paths.append(path.appending(.matching(key: "id", value: "12345")))
      }
    default: break
    }
    return paths
  }

  /// Checks every path of `value`, returning how many the projection left to the full encoding.
  static func check<T: Encodable>(_ value: T, _ name: String) throws -> (checked: Int, left: Int) {
    var full: [UInt8] = []
    try JSONStreamEncoder().encode(value, into: &full)
    var checked = 0
    var left = 0
    for path in Self.paths(in: try JSONParser.parse(full)) {
      let expected = try? Array(path.text(inText: full))
      switch JSONProjection.text(of: value, at: path.projectionSteps) {
      case .found(let text):
        #expect(text == expected, "\(name): \(path)")
      case .nowhere:
        #expect(
          expected == nil,
          "\(name): \(path) leads to \(expected.map { String(decoding: $0, as: UTF8.self) } ?? "")")
      case .unsupported:
        left += 1
      }
      checked += 1
    }
    return (checked, left)
  }

  @Test func everyPathOfManyShapesIsTheFullEncodingsOrLeftToIt() throws {
    let (checked, left) = try Self.check(Self.shapes, "shapes")
    #expect(checked > 300)
    // Left to the full encoding: paths into the set (sorted there), through a date, and those
    // ending at a nested container.
    #expect(left < checked / 4, "\(left) of \(checked) left to the full encoding")
  }

  @Test func everyPathOfTodoStatesIsFoundWithoutTheFullEncoding() throws {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    var workload = TodoWorkload(seed: 9)
    for step in 0..<200 {
      store.dispatch(workload.next(for: store.state))
      guard step % 40 == 39 else { continue }
      let (checked, left) = try Self.check(store.state, "todo state after \(step + 1)")
      #expect(checked > 20)
      #expect(left == 0)
    }
  }
}

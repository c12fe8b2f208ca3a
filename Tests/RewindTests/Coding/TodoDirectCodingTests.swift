import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

/// An action whose direct encoding is wrong in one of two ways; the recorder must write what
/// `encode(to:)` gives instead.
enum Flawed: Codable, Equatable, Sendable, JSONDirectEncodable {
  /// `encodeJSON` leaves the object open.
  case unclosed(Int)
  /// `encodeJSON` throws.
  case throwing(Int)

  func encodeJSON(to json: inout JSONDirectWriter) throws {
    switch self {
    case .unclosed(let value):
      json.beginObject()
      json.key("unclosed")
      json.integer(value)
    case .throwing:
      throw JSONDirectWriterError(reason: "not today")
    }
  }
}

/// The todo app's direct path (`Todo+DirectCoding.swift`) against its synthesized `Codable`.
@Suite struct TodoDirectCodingTests {
  /// Actions with the awkward values: escapes, control characters, non-ASCII, extreme ids.
  private static let edgeActions: [TodoAction] = [
    .add(title: ""), .add(title: "quote \" backslash \\ slash / tab \t nl \n bell \u{7}"),
    .add(title: "Zoë 🌱 日本語"), .toggle(id: Int.min), .toggle(id: Int.max), .remove(id: 0),
    .rename(id: -1, title: "\u{0}"), .move(from: -5, to: 1 << 40), .setFilter(.all),
    .setFilter(.active), .setFilter(.completed), .clearCompleted,
  ]

  @Test func workloadActionsAndStatesWriteAndReadTheirCodableJSON() throws {
    var workload = TodoWorkload(seed: 77)
    var state = TodoState(todos: [Todo(id: 1, title: "seed \"quoted\"", done: true)], nextID: 2)
    var actions = Self.edgeActions
    var states = [state, TodoState()]
    for step in 0..<3_000 {
      let action = workload.next(for: state)
      actions.append(action)
      if case .move(let from, let to) = action,
        !state.todos.indices.contains(from) || !state.todos.indices.contains(to)
      {
        continue  // the example's deliberate crash
      }
      todoReducer.reduce(&state, action)
      if step % 100 == 0 { states.append(state) }
    }
    try JSONDirectCoding.verify(actions)
    try JSONDirectCoding.verify(states)
  }

  /// JSON the direct path may refuse, but must never read differently from `init(from:)`.
  private static let variants = [
    #"{"add":{"title":"x"}}"#, #"{"add":{"title":"x","extra":1}}"#, #"{"add":{}}"#,
    #"{"add":{"title":1}}"#, #"{"add":{"title":null}}"#, #"{"add":"x"}"#, #"{"add":[]}"#,
    #"{"toggle":{"id":1.0}}"#, #"{"toggle":{"id":1e2}}"#, #"{"toggle":{"id":-0}}"#,
    #"{"toggle":{"id":99999999999999999999}}"#, #"{"toggle":{"id":"1"}}"#,
    #"{"rename":{"title":"t","id":3}}"#, #"{"move":{"from":1}}"#,
    #"{"setFilter":{"_0":"all"}}"#, #"{"setFilter":{"_0":"none"}}"#, #"{"setFilter":"all"}"#,
    #"{"clearCompleted":{}}"#, #"{"clearCompleted":{"x":1}}"#, #"{"clearCompleted":null}"#,
    #"{"clearCompleted":[]}"#, #"{"unknown":{}}"#, #"{}"#,
    #"{"add":{"title":"x"},"toggle":{"id":1}}"#,
    #"{"add":{"title":"x"},"zzz":1}"#, #"["add"]"#, #""add""#, "null",
    #"{"\u0061dd":{"title":"e"}}"#,
  ]

  @Test func directDecodingNeverDisagreesWithInitFromDecoder() throws {
    let direct = try #require(JSONDirectCoding.decoder(for: TodoAction.self))
    let document = JSONTapeDocument()
    var directlyRead = 0
    for text in Self.variants {
      let bytes = Array(text.utf8)
      let codable = Result { try RewindJSONDecoder().decode(TodoAction.self, from: bytes) }
      let fast = bytes.withUnsafeBytes { buffer -> TodoAction? in
        #expect(document.load(buffer), "\(text)")
        return try? direct(document, document.root)
      }
      guard let fast else { continue }
      directlyRead += 1
      #expect(try codable.get() == fast, "\(text)")
    }
    // The plain forms take the direct path; the test means nothing otherwise.
    #expect(directlyRead >= 8)
  }

  @Test(arguments: [Flawed.unclosed(7), .throwing(8)])
  func theRecorderWritesCodableBytesWhenTheDirectPathFails(action: Flawed) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("flawed.jsonl")
    let recorder = try Recorder<Int, Flawed>(path: path, app: "flawed", initialState: 0)
    recorder.willReduce(action)
    recorder.didReduce(1)
    recorder.close()
    #expect(recorder.status.isClosed)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let json = String(decoding: try RewindJSONEncoder().encode(action), as: UTF8.self)
    #expect(text.contains(#","action":\#(json)}"#), "\(text)")
  }
}

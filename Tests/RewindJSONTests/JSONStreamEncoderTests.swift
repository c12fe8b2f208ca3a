import Foundation
import Testing

@testable import RewindJSON

/// The streaming encoder against the `JSONValue` path it stands in for: the same bytes, the same
/// errors, and a fallback wherever a stream cannot write what the tree would.
@Suite struct JSONStreamEncoderTests {
  /// The stream's own bytes, or `nil` when it gave up.
  func streamed<T: Encodable>(_ value: T) -> [UInt8]? {
    var output: [UInt8] = []
    let encoder = JSONStreamValueEncoder(userInfo: [:])
    return encoder.encodeTopLevel(value, into: &output) == nil ? nil : output
  }

  func tree<T: Encodable>(_ value: T) throws -> [UInt8] {
    try RewindJSONEncoder().encodeValue(value).serializedBytes
  }

  @Test func writesSeededSnapshotsLikeTheTree() throws {
    for seed in FoundationDifferentialTests.seeds {
      let value = FoundationDifferentialTests.snapshot(seed: seed)
      #expect(streamed(value) == (try tree(value)), "seed \(seed)")
    }
  }

  @Test func writesActionsWithoutFallingBack() throws {
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    let actions: [TodoAction] = [
      .add(title: "Buy \"milk\" \u{1} é"), .toggle(id: id), .rename(id: id, title: ""),
      .setNote(nil), .setNote("x"), .move(from: -1, to: Int.max), .clear,
      .batch([.clear, .add(title: "a")]),
    ]
    for action in actions {
      let bytes = try #require(streamed(action), "\(action)")
      #expect(bytes == (try tree(action)), "\(action)")
    }
    #expect(
      streamed(
        IntegerWidths(
          int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint: .max, uint8: .max,
          uint16: .max, uint32: .max, uint64: .max)) != nil)
  }

  @Test func namesTheTopLevelLikeTheTree() throws {
    let encoder = JSONStreamEncoder()
    var output: [UInt8] = []
    #expect(try encoder.encode(TodoAction.clear, into: &output) == .singleKeyObject("clear"))
    #expect(try encoder.encode(Color.red, into: &output) == .string("red"))
    #expect(try encoder.encode([1, 2], into: &output) == .other)
    #expect(try encoder.encode(["only": 1], into: &output) == .singleKeyObject("only"))
    #expect(try encoder.encode(Empty(), into: &output) == .other)
    #expect(String(decoding: output, as: UTF8.self) == #"{"clear":{}}"red"[1,2]{"only":1}{}"#)
  }

  struct Twice: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONKey.self)
      try container.encode(1, forKey: JSONKey(stringValue: "a"))
      try container.encode(2, forKey: JSONKey(stringValue: "b"))
      try container.encode(3, forKey: JSONKey(stringValue: "a"))
    }
  }

  struct LateWrite: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONKey.self)
      var inner = container.nestedContainer(
        keyedBy: JSONKey.self, forKey: JSONKey(stringValue: "x"))
      try container.encode(1, forKey: JSONKey(stringValue: "y"))
      try inner.encode(2, forKey: JSONKey(stringValue: "z"))
    }
  }

  struct Swallowed: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONKey.self)
      try container.encode(1, forKey: JSONKey(stringValue: "a"))
      // A value that catches the stream's fallback must not hide it.
      try? container.encode(2, forKey: JSONKey(stringValue: "a"))
    }
  }

  struct Canonical: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONKey.self)
      try container.encode(1, forKey: JSONKey(stringValue: "é"))
      try container.encode(2, forKey: JSONKey(stringValue: "e\u{301}"))
    }
  }

  @Test func fallsBackWhereAStreamCannotWriteWhatTheTreeWould() throws {
    #expect(streamed(Twice()) == nil)
    #expect(streamed(LateWrite()) == nil)
    #expect(streamed(Swallowed()) == nil)
    #expect(streamed(Canonical()) == nil)
    for (bytes, expected) in [
      (try RewindJSONEncoder().encode(Twice()), #"{"a":3,"b":2}"#),
      (try RewindJSONEncoder().encode(LateWrite()), #"{"x":{"z":2},"y":1}"#),
      (try RewindJSONEncoder().encode(Swallowed()), #"{"a":2}"#),
      (try RewindJSONEncoder().encode(Canonical()), #"{"é":2}"#),
    ] {
      #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
  }

  @Test func throwsTheTreesErrors() {
    struct Price: Encodable { var value: Double }
    var output: [UInt8] = Array("kept".utf8)
    #expect(throws: EncodingError.self) {
      try JSONStreamEncoder().encode([Price(value: .nan)], into: &output)
    }
    #expect(output == Array("kept".utf8))
    let summary = { (error: any Error) -> String in
      guard case EncodingError.invalidValue(_, let context) = error else { return "\(error)" }
      return CodingPathText.describe(context.codingPath) + ": " + context.debugDescription
    }
    var streamError = ""
    var treeError = ""
    do { _ = try JSONStreamEncoder().encode([Price(value: .infinity)], into: &output) } catch {
      streamError = summary(error)
    }
    do { _ = try RewindJSONEncoder().encodeValue([Price(value: .infinity)]) } catch {
      treeError = summary(error)
    }
    #expect(streamError == treeError)
    #expect(streamError.hasPrefix("[0].value"))
  }
}

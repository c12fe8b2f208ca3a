import Foundation
import Testing

@testable import RewindJSON

/// The encoder's single pass against its buffered mode, which writes each container apart and
/// puts them together at the end: the same bytes, the same errors, and the buffered mode wherever
/// a single pass cannot write a value.
@Suite struct JSONStreamEncoderTests {
  /// The single pass's bytes, or `nil` when it gave up.
  func streamed<T: Encodable>(_ value: T) -> [UInt8]? {
    var output: [UInt8] = []
    let encoder = JSONStreamValueEncoder(userInfo: [:])
    return (try? encoder.encodeInOnePass(value, into: &output)) == nil ? nil : output
  }

  /// The buffered mode's bytes.
  func tree<T: Encodable>(_ value: T) throws -> [UInt8] {
    var output: [UInt8] = []
    _ = try JSONStreamValueEncoder(userInfo: [:]).encodeBuffered(
      value, order: .written, into: &output)
    return output
  }

  @Test func writesSeededSnapshotsLikeTheBufferedMode() throws {
    for seed in FoundationDifferentialTests.seeds {
      let value = FoundationDifferentialTests.snapshot(seed: seed)
      #expect(streamed(value) == (try tree(value)), "seed \(seed)")
      #expect(
        try RewindJSONEncoder().encodeValue(value)
          == JSONParser.parse(try RewindJSONEncoder().encode(value)), "seed \(seed)")
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

  @Test func namesTheTopLevel() throws {
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

  @Test func usesTheBufferedModeWhereASinglePassCannotWrite() throws {
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

  @Test func throwsTheSameErrorsInBothModes() {
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
    var bufferedError = ""
    do { _ = try JSONStreamEncoder().encode([Price(value: .infinity)], into: &output) } catch {
      streamError = summary(error)
    }
    do { _ = try tree([Price(value: .infinity)]) } catch {
      bufferedError = summary(error)
    }
    #expect(streamError == bufferedError)
    #expect(
      streamError
        == "[0].value: Double.infinity cannot be encoded: JSON has no NaN or infinity")
  }

  struct Rewritten: Encodable {
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(1)
      try single.encode("two")
    }
  }

  struct ScalarThenObject: Encodable {
    func encode(to encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode(1)
      var object = encoder.container(keyedBy: JSONKey.self)
      try object.encode(["b": 2, "a": 1], forKey: JSONKey(stringValue: "map"))
    }
  }

  struct LateSuper: Encodable {
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: JSONKey.self)
      let base = container.superEncoder()
      try container.encode(Set([3, 1, 2]), forKey: JSONKey(stringValue: "set"))
      var inner = base.container(keyedBy: JSONKey.self)
      try inner.encode(JSONValue.number("1.50"), forKey: JSONKey(stringValue: "exact"))
      // Asking the same super encoder again replaces what it wrote, in its place.
      var again = base.unkeyedContainer()
      try again.encode(["z": [2: "b", 1: "a"]])
    }
  }

  /// Encodes the raw value by hand, as some `encode(to:)`s do.
  struct Raw: Encodable {
    var value: JSONValue
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
  }

  @Test func theBufferedModeReplacesValuesInPlaceAndSortsWhatItEncodes() throws {
    for (value, expected) in [
      (try RewindJSONEncoder().encode(Rewritten()), #""two""#),
      (try RewindJSONEncoder().encode([Rewritten()]), #"["two"]"#),
      (try RewindJSONEncoder().encode(ScalarThenObject()), #"{"map":{"a":1,"b":2}}"#),
      (
        try RewindJSONEncoder().encode(LateSuper()),
        #"{"super":[{"z":{"1":"a","2":"b"}}],"set":[1,2,3]}"#
      ),
      (
        try RewindJSONEncoder().encode(["k": LateSuper()]),
        #"{"k":{"super":[{"z":{"1":"a","2":"b"}}],"set":[1,2,3]}}"#
      ),
      (try RewindJSONEncoder().encode(Raw(value: .number("1.50"))), "1.50"),
      (try RewindJSONEncoder().encode([Raw(value: .number("1e400"))]), "[1e400]"),
    ] {
      #expect(String(decoding: value, as: UTF8.self) == expected)
    }
    #expect(streamed(Rewritten()) == nil)
    #expect(streamed(LateSuper()) == nil)
    var output: [UInt8] = []
    #expect(try JSONStreamEncoder().encode(Rewritten(), into: &output) == .string("two"))
    #expect(try JSONStreamEncoder().encode(LateSuper(), into: &output) == .other)
    #expect(
      try JSONStreamEncoder().encode(ScalarThenObject(), into: &output) == .singleKeyObject("map"))
  }
}

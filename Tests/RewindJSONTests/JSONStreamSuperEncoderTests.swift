import Foundation
import Testing

@testable import RewindJSON

/// Super encoders and nested containers in the stream encoder's single pass: used in the order
/// the bytes go, they stay in the pass and write what the buffered mode writes; used out of that
/// order, the value is encoded again in the buffered mode — the same bytes — and
/// ``JSONStreamFallbackCounter`` counts it.
@Suite struct JSONStreamSuperEncoderTests {
  /// A value that writes with `write`.
  struct Custom: Encodable {
    let write: @Sendable (any Encoder) throws -> Void
    func encode(to encoder: any Encoder) throws { try write(encoder) }
  }

  struct Point: Encodable {
    var x: Int
    var y: Int
  }

  private static func key(_ name: String) -> JSONKey { JSONKey(stringValue: name) }

  /// The single pass's bytes, or `nil` when it gave up.
  private func streamed(_ value: some Encodable) -> String? {
    var output: [UInt8] = []
    let encoder = JSONStreamValueEncoder(userInfo: [:])
    guard (try? encoder.encodeInOnePass(value, into: &output)) != nil else { return nil }
    return String(decoding: output, as: UTF8.self)
  }

  /// The buffered mode's bytes.
  private func buffered(_ value: some Encodable) throws -> String {
    var output: [UInt8] = []
    _ = try JSONStreamValueEncoder(userInfo: [:]).encodeBuffered(
      value, order: .written, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// What the encoder gives, and how many values fell back to the buffered mode meanwhile.
  private func encodedCountingFallbacks(_ value: some Encodable) throws -> (String, Int) {
    let counter = JSONStreamFallbackCounter()
    let bytes = try JSONStreamFallbackCounter.$current.withValue(counter) {
      try RewindJSONEncoder().encode(value)
    }
    return (String(decoding: bytes, as: UTF8.self), counter.total)
  }

  /// Values whose super encoders and nested containers write in order, and their JSON.
  static let inOrder: [(String, Custom)] = [
    (
      #"{"id":1,"meta":{"x":1,"y":2},"tail":"t"}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode(1, forKey: key("id"))
        try Point(x: 1, y: 2).encode(to: container.superEncoder(forKey: key("meta")))
        try container.encode("t", forKey: key("tail"))
      }
    ),
    (
      #"{"super":{"x":3,"y":4},"name":"n"}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        try Point(x: 3, y: 4).encode(to: container.superEncoder())
        try container.encode("n", forKey: key("name"))
      }
    ),
    (
      #"{"name":"n","super":"s"}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encode("n", forKey: key("name"))
        var single = container.superEncoder().singleValueContainer()
        try single.encode("s")
      }
    ),
    (
      #"{"list":[1,[2,3]],"after":{"n":null}}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        var list = container.superEncoder(forKey: key("list")).unkeyedContainer()
        try list.encode(1)
        var inner = list.nestedUnkeyedContainer()
        try inner.encode(2)
        try inner.encode(3)
        var after = container.nestedContainer(keyedBy: JSONKey.self, forKey: key("after"))
        try after.encodeNil(forKey: key("n"))
      }
    ),
    (
      // Never used: `{}`, whether the container moves on or ends.
      #"{"unused":{},"b":2,"last":{}}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        _ = container.superEncoder(forKey: key("unused"))
        try container.encode(2, forKey: key("b"))
        _ = container.superEncoder(forKey: key("last"))
      }
    ),
    (
      #"[{"x":5,"y":6},7,{},8]"#,
      Custom { encoder in
        var list = encoder.unkeyedContainer()
        try Point(x: 5, y: 6).encode(to: list.superEncoder())
        var single = list.superEncoder().singleValueContainer()
        try single.encode(7)
        _ = list.superEncoder()
        try list.encode(8)
      }
    ),
    (
      // Super encoders inside a super encoder's value and inside nested containers.
      #"{"outer":{"inner":{"deep":{"x":1,"y":1}},"k":true},"n":{"s":{"x":2,"y":2}}}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        var outer = container.superEncoder(forKey: key("outer")).container(keyedBy: JSONKey.self)
        var inner = outer.superEncoder(forKey: key("inner")).container(keyedBy: JSONKey.self)
        try Point(x: 1, y: 1).encode(to: inner.superEncoder(forKey: key("deep")))
        try outer.encode(true, forKey: key("k"))
        var nested = container.nestedContainer(keyedBy: JSONKey.self, forKey: key("n"))
        try Point(x: 2, y: 2).encode(to: nested.superEncoder(forKey: key("s")))
      }
    ),
    (
      // A dictionary through a super encoder is sorted, as everywhere.
      #"{"map":{"a":1,"b":2}}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        var single = container.superEncoder(forKey: key("map")).singleValueContainer()
        try single.encode(["b": 2, "a": 1])
      }
    ),
  ]

  /// Values that use a super encoder or a nested container after the bytes moved on, and their
  /// JSON (the buffered mode's).
  static let outOfOrder: [(String, Custom)] = [
    (
      #"{"late":{"x":1,"y":2},"b":2}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        let late = container.superEncoder(forKey: key("late"))
        try container.encode(2, forKey: key("b"))
        try Point(x: 1, y: 2).encode(to: late)
      }
    ),
    (
      // Used twice: the second use replaces the first.
      #"{"twice":2}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        let twice = container.superEncoder(forKey: key("twice"))
        var first = twice.singleValueContainer()
        try first.encode(1)
        var second = twice.singleValueContainer()
        try second.encode(2)
      }
    ),
    (
      #"{"a":{"x":1,"y":3},"b":2}"#,
      Custom { encoder in
        var container = encoder.container(keyedBy: JSONKey.self)
        var a = container.nestedContainer(keyedBy: JSONKey.self, forKey: key("a"))
        try a.encode(1, forKey: key("x"))
        try container.encode(2, forKey: key("b"))
        try a.encode(3, forKey: key("y"))
      }
    ),
    (
      #"[{"x":0,"y":0},1]"#,
      Custom { encoder in
        var list = encoder.unkeyedContainer()
        let first = list.superEncoder()
        try list.encode(1)
        try Point(x: 0, y: 0).encode(to: first)
      }
    ),
  ]

  @Test(arguments: 0..<inOrder.count)
  func superEncodersUsedInOrderStayInOnePass(_ index: Int) throws {
    let (expected, value) = Self.inOrder[index]
    #expect(streamed(value) == expected)
    #expect(try buffered(value) == expected)
    let (encoded, fallbacks) = try encodedCountingFallbacks(value)
    #expect(encoded == expected)
    #expect(fallbacks == 0)
  }

  @Test(arguments: 0..<outOfOrder.count)
  func superEncodersUsedOutOfOrderFallBackToTheSameBytes(_ index: Int) throws {
    let (expected, value) = Self.outOfOrder[index]
    #expect(streamed(value) == nil)
    #expect(try buffered(value) == expected)
    let (encoded, fallbacks) = try encodedCountingFallbacks(value)
    #expect(encoded == expected)
    #expect(fallbacks == 1)
  }

  @Test func theCounterNamesTheTypeThatFellBackAndIgnoresSorting() throws {
    let counter = JSONStreamFallbackCounter()
    try JSONStreamFallbackCounter.$current.withValue(counter) {
      _ = try RewindJSONEncoder().encode(Self.outOfOrder[0].1)
      _ = try RewindJSONEncoder().encode([Self.outOfOrder[0].1, Self.inOrder[0].1])
      // Dictionaries and sets are sorted in the buffered mode of a second encoder: no fallback.
      _ = try RewindJSONEncoder().encode(["b": Set([2, 1]), "a": [3]])
    }
    #expect(
      counter.byType == [
        String(reflecting: Custom.self): 1, String(reflecting: [Custom].self): 1,
      ])
    #expect(counter.total == 2)
    // No counter, nothing counted: outside `withValue`, the encoder counts nowhere.
    _ = try RewindJSONEncoder().encode(Self.outOfOrder[0].1)
    #expect(counter.total == 2)
  }
}

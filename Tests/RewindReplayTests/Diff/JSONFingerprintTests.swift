import RewindJSON
import Testing

@testable import RewindReplay

/// Fingerprints read from text agree with text equality: equal values written differently
/// (escapes, member order) have one fingerprint; values that differ almost always differ.
@Suite struct JSONFingerprintTests {
  /// The text fingerprint of `text`.
  static func fingerprint(_ text: String) -> Int {
    Array(text.utf8).withUnsafeBytes { JSONFingerprint.of(textAt: 0, in: $0) }
  }

  /// Whether the two texts are equal values, as the text diff compares them.
  static func isEqual(_ a: String, _ b: String) -> Bool {
    let first = Array(a.utf8)
    let second = Array(b.utf8)
    return first.withUnsafeBytes { x in
      second.withUnsafeBytes { y in
        JSONTextNode(document: x, range: 0..<x.count)
          .isEqual(to: JSONTextNode(document: y, range: 0..<y.count))
      }
    }
  }

  @Test(arguments: [
    (#"{"a":1,"b":[true,null,"x"]}"#, #"{"b":[true,null,"x"],"a":1}"#),
    (#""caf\u00e9""#, #""café""#),
    (#"{"k\u0065y":"v"}"#, #"{"key":"v"}"#),
    (#"["\n",{"x":{}}]"#, #"["\u000a",{"x":{}}]"#),
    ("[]", "[]"),
  ])
  func equalValuesWrittenDifferentlyShareAFingerprint(a: String, b: String) {
    #expect(Self.isEqual(a, b))
    #expect(Self.fingerprint(a) == Self.fingerprint(b))
  }

  @Test(arguments: [
    (#"{"a":1}"#, #"{"a":2}"#), (#"[1,2]"#, #"[2,1]"#), (#""ab""#, #""ba""#),
    (#"{"a":"b"}"#, #"{"b":"a"}"#), ("1", "1.0"), ("true", "false"), ("[]", "{}"),
    (#"[[1],[]]"#, #"[[],[1]]"#), ("null", #""null""#),
  ])
  func differentValuesHaveDifferentFingerprints(a: String, b: String) {
    #expect(!Self.isEqual(a, b))
    #expect(Self.fingerprint(a) != Self.fingerprint(b))
  }
}

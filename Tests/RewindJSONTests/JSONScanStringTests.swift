import Testing

@testable import RewindJSON

/// ``JSONScan/afterString(in:at:)`` — how the open steps over the recorder's `type` to find an
/// action's bytes — stops past the closing quote, whatever the escapes before it, eight bytes at
/// a time or in the tail; and past the end, without reading beyond it, when there is none.
@Suite struct JSONScanStringTests {
  @Test(arguments: [
    (#""add",1"#, 5),
    (#""a\"d\\",1"#, 8),
    (#""a very long type name, with commas",1"#, 36),
    (#""\\\\\\\"\\""#, 12),
    (#""unclosed"#, 10),
    (#""ends in a backslash\"#, 23),
  ])
  func afterStringIsPastTheClosingQuote(_ text: String, _ expected: Int) {
    let bytes = Array(text.utf8)
    let found = bytes.withUnsafeBytes { JSONScan.afterString(in: $0, at: 0) }
    #expect(found == expected, "\(text)")
    if found <= bytes.count { #expect(bytes[found - 1] == UInt8(ascii: "\"")) }
  }

  @Test func afterStringStartsAtTheQuoteItIsGiven() {
    let bytes = Array(#"{"type":"a\"b","action":1}"#.utf8)
    let found = bytes.withUnsafeBytes { JSONScan.afterString(in: $0, at: 8) }
    #expect(found == 14)
    #expect(Array(bytes[found...].prefix(10)) == Array(#","action":"#.utf8))
  }
}

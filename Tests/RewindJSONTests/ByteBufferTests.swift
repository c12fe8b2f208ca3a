import RewindTestSupport
import Testing

@testable import RewindJSON

/// The recorder assembles its lines with these: they must write exactly what `String(value)` and
/// ``JSONWriter`` write.
@Suite struct ByteBufferTests {
  /// Every integer around a change in the number of digits, and a spread of others.
  private static let integers: [UInt64] = {
    var values: [UInt64] = Array(0...1_200) + [UInt64.max, UInt64.max - 1, 1 << 63]
    var power: UInt64 = 1
    for _ in 0..<19 {
      power *= 10
      values += [power - 1, power, power + 1]
    }
    var random = SplitMix64(seed: 7)
    for _ in 0..<2_000 { values.append(random.next() >> (random.next() % 64)) }
    return values
  }()

  @Test func decimalDigitsAreStringsSpelling() {
    for value in Self.integers {
      #expect(DecimalDigits.count(value) == String(value).utf8.count, "count of \(value)")
      let buffer = ByteBuffer(capacity: 1)
      buffer.append(UInt8(ascii: "<"))
      buffer.appendDecimal(value)
      buffer.append(UInt8(ascii: ">"))
      #expect(String(decoding: buffer.bytes, as: UTF8.self) == "<\(value)>")
    }
  }

  @Test func fixedWidthDigitsHaveLeadingZeros() {
    for value: UInt64 in [0, 1, 9, 10, 99, 100, 12_345, 99_999, 100_000, 999_999] {
      var digits = [UInt8](repeating: 0, count: 6)
      digits.withUnsafeMutableBytes { buffer in
        if let base = buffer.baseAddress { DecimalDigits.write(value, count: 6, to: base) }
      }
      let text = String(value)
      let expected = String(repeating: "0", count: 6 - text.count) + text
      #expect(String(decoding: digits, as: UTF8.self) == expected)
    }
  }

  /// Strings of every length up to 40, plain and with a character to escape at every position:
  /// the word-at-a-time copy must agree with ``JSONWriter`` in each case.
  @Test func jsonStringsAreEscapedAsJSONWriterEscapes() {
    let needingEscape: [Character] = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\t"]
    let plain: [Character] = ["a", "Z", "0", " ", "~", "é", "🌱", "\u{7F}", "/"]
    var random = SplitMix64(seed: 11)
    var samples: [String] = []
    for length in 0...40 {
      let base = (0..<length).map { _ in plain[Int(random.next() % UInt64(plain.count))] }
      samples.append(String(base))
      for position in 0..<length {
        var changed = base
        changed[position] = needingEscape[Int(random.next() % UInt64(needingEscape.count))]
        samples.append(String(changed))
      }
    }
    samples += [String(repeating: "x", count: 1_000), "tab\tend", "\u{2028}"]
    for text in samples {
      var expected: [UInt8] = []
      JSONWriter.appendString(text, to: &expected)
      let buffer = ByteBuffer(capacity: 1)
      buffer.appendJSONString(text)
      #expect(buffer.array == expected, "\(text.debugDescription)")
    }
  }

  /// `appendQuotedIfPlain` writes nothing — not even a partial copy — when a byte needs an
  /// escape, wherever it is.
  @Test func quotedIfPlainLeavesTheBufferAloneWhenAnEscapeIsNeeded() {
    for length in 0...40 {
      for position in -1..<length {
        var bytes = [UInt8](repeating: UInt8(ascii: "k"), count: length)
        if position >= 0 { bytes[position] = UInt8(ascii: "\"") }
        let buffer = ByteBuffer(capacity: 1)
        buffer.append(Array("{".utf8))
        // One spare byte, so that even an empty run has an address.
        let copied = (bytes + [0]).withUnsafeBufferPointer { pointer -> Bool in
          guard let base = pointer.baseAddress else { return false }
          return buffer.appendQuotedIfPlain(base, count: length)
        }
        if position >= 0 {
          #expect(!copied)
          #expect(buffer.array == Array("{".utf8), "length \(length), quote at \(position)")
        } else {
          #expect(copied)
          #expect(buffer.array == Array("{".utf8) + [0x22] + bytes + [0x22])
        }
      }
    }
  }
}

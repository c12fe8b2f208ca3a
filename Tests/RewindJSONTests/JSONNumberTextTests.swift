import RewindTestSupport
import Testing

@testable import RewindJSON

@Suite struct JSONNumberTextTests {
  @Test func fastDoubleConversionAgreesWithTheStandardLibraryBitForBit() throws {
    var random = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      let digitCount = Int(random.next() % 18) + 1
      var digits = String(random.next() % 1_000_000_000_000_000_000)
      digits = String(digits.prefix(digitCount))
      let point = Int(random.next() % UInt64(digits.count + 1))
      var text = digits
      if point < digits.count && point > 0 {
        text.insert(".", at: text.index(text.startIndex, offsetBy: point))
      }
      if random.next() % 2 == 0 {
        text += "e\(Int(random.next() % 61) - 30)"
      }
      if random.next() % 2 == 0 {
        text = "-" + text
      }
      guard JSONNumberText.isValid(text), let expected = Double(text) else { continue }
      let converted = try JSONNumberText.double(text)
      #expect(converted.bitPattern == expected.bitPattern, "\(text)")
    }
  }

  @Test func shortestDoubleTextReadsBackExactly() throws {
    var random = SplitMix64(seed: 11)
    for _ in 0..<20_000 {
      let number = Double(bitPattern: random.next())
      guard number.isFinite else { continue }
      let text = JSONNumberText.text(number)
      #expect(JSONNumberText.isValid(text), "\(text)")
      let readBack = try JSONNumberText.double(text)
      #expect(readBack.bitPattern == number.bitPattern, "\(text)")
    }
  }

  @Test func shortestFloatTextReadsBackExactly() throws {
    var random = SplitMix64(seed: 13)
    for _ in 0..<20_000 {
      let number = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      guard number.isFinite else { continue }
      let text = JSONNumberText.text(number)
      #expect(JSONNumberText.isValid(text), "\(text)")
      #expect(try JSONNumberText.float(text).bitPattern == number.bitPattern, "\(text)")
    }
  }

  @Test(arguments: [
    "0", "-0", "1", "-1", "0.5", "1e5", "1E+5", "1e-5", "-0.0e0", "123.456e-7",
  ])
  func acceptsJSONNumberLiterals(_ text: String) {
    #expect(JSONNumberText.isValid(text))
  }

  @Test(arguments: [
    "", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "0x1", "1_000", "nan", "inf", "1 ", " 1",
    "1.5.2", "--1", "1e5.5",
  ])
  func rejectsEverythingElse(_ text: String) {
    #expect(!JSONNumberText.isValid(text))
  }

  @Test func convertsWholeNumbersExactlyAndNothingElse() throws {
    #expect(
      try JSONNumberText.integer("123456789012345678e1", as: UInt64.self)
        == 1_234_567_890_123_456_780)
    #expect(try JSONNumberText.integer("0.00000e999999999999999", as: Int8.self) == 0)
    #expect(try JSONNumberText.integer("-128.000", as: Int8.self) == -128)
    #expect(throws: JSONNumberText.Failure.notWholeNumber) {
      try JSONNumberText.integer("12.5", as: Int.self)
    }
    #expect(throws: JSONNumberText.Failure.notWholeNumber) {
      try JSONNumberText.integer("5e-999999999999", as: Int.self)
    }
    #expect(throws: JSONNumberText.Failure.outOfRange) {
      try JSONNumberText.integer("1e999999999999", as: Int.self)
    }
    #expect(throws: JSONNumberText.Failure.outOfRange) {
      try JSONNumberText.integer("-1", as: UInt8.self)
    }
    #expect(throws: JSONNumberText.Failure.invalidLiteral) {
      try JSONNumberText.integer("1.", as: Int.self)
    }
  }
}

/// Exact conversions from JSON number literals to Swift numbers, shared by the decoder and the
/// encoder.
///
/// A ``JSONValue`` can be built by hand, so every conversion first checks the literal against the
/// JSON grammar; nothing here traps on any text.
enum JSONNumberText {
  /// The parts of a literal that follows the JSON number grammar.
  struct Parts {
    var isNegative = false
    /// The digits before and after the point, leading zeros removed, as one digit string.
    var significantDigits: [UInt8] = []
    /// The power of ten to multiply ``significantDigits`` by, clamped to ±1,000,000,000.
    var exponent = 0
    /// Whether the literal is a plain integer (no `.`, no exponent).
    var isPlainInteger = true
  }

  /// Why a literal does not convert.
  enum Failure: Error {
    /// The text is not a JSON number.
    case invalidLiteral
    /// The number has a fractional part.
    case notWholeNumber
    /// The number is outside the target type's range, or rounds to zero from a non-zero value.
    case outOfRange
  }

  /// Splits `text` into its parts, or returns `nil` when it is not a JSON number.
  static func parts(of text: String) -> Parts? {
    var parts = Parts()
    var utf8 = text.utf8[...]
    if utf8.first == .minus {
      parts.isNegative = true
      utf8.removeFirst()
    }
    var digitsBeforePoint = 0
    guard let first = utf8.first, isDigit(first) else { return nil }
    if first == .digitZero, let next = utf8.dropFirst().first, isDigit(next) { return nil }
    while let byte = utf8.first, isDigit(byte) {
      appendDigit(byte, to: &parts.significantDigits)
      digitsBeforePoint += 1
      utf8.removeFirst()
    }
    var fractionDigits = 0
    if utf8.first == .period {
      utf8.removeFirst()
      parts.isPlainInteger = false
      guard let byte = utf8.first, isDigit(byte) else { return nil }
      while let byte = utf8.first, isDigit(byte) {
        appendDigit(byte, to: &parts.significantDigits)
        fractionDigits += 1
        utf8.removeFirst()
      }
    }
    var exponent = 0
    if utf8.first == .lowercaseE || utf8.first == .uppercaseE {
      utf8.removeFirst()
      parts.isPlainInteger = false
      var isNegativeExponent = false
      if utf8.first == .plus || utf8.first == .minus {
        isNegativeExponent = utf8.first == .minus
        utf8.removeFirst()
      }
      guard let byte = utf8.first, isDigit(byte) else { return nil }
      while let byte = utf8.first, isDigit(byte) {
        exponent = min(exponent * 10 + Int(byte - .digitZero), 1_000_000_000)
        utf8.removeFirst()
      }
      if isNegativeExponent { exponent = -exponent }
    }
    guard utf8.isEmpty else { return nil }
    parts.exponent = exponent - fractionDigits
    return parts
  }

  /// Whether `text` is a valid JSON number literal.
  static func isValid(_ text: String) -> Bool {
    parts(of: text) != nil
  }

  /// The literal as a `T`, exactly.
  ///
  /// Accepts what Foundation's `JSONDecoder` accepts for integers: plain integers and any
  /// literal whose value is a whole number, such as `1.0`, `1e2` or `100e-2`. Unlike Foundation,
  /// the test is exact: `1.0000000000000001` is not a whole number, and `9223372036854775807.0`
  /// fits in `Int`.
  static func integer<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> Result<T, Failure> {
    if let value = plainInteger(text, as: type) {
      return .success(value)
    }
    guard var parts = parts(of: text) else { return .failure(.invalidLiteral) }
    if parts.significantDigits.isEmpty { return .success(0) }
    if parts.exponent < 0 {
      let dropped = -parts.exponent
      guard dropped < parts.significantDigits.count,
        parts.significantDigits.suffix(dropped).allSatisfy({ $0 == 0 })
      else { return .failure(.notWholeNumber) }
      parts.significantDigits.removeLast(dropped)
    } else if parts.exponent > 0 {
      guard parts.significantDigits.count + parts.exponent <= 20 else {
        return .failure(.outOfRange)
      }
      parts.significantDigits.append(contentsOf: repeatElement(0, count: parts.exponent))
    }
    var magnitude: UInt64 = 0
    for digit in parts.significantDigits {
      let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow1 && !overflow2 else { return .failure(.outOfRange) }
      magnitude = sum
    }
    guard let value = convert(magnitude: magnitude, isNegative: parts.isNegative, to: type) else {
      return .failure(.outOfRange)
    }
    return .success(value)
  }

  /// Fast path for short literals of only digits and an optional minus sign.
  @inline(__always)
  private static func plainInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
    var utf8 = text.utf8[...]
    let isNegative = utf8.first == .minus
    if isNegative { utf8.removeFirst() }
    guard let first = utf8.first, utf8.count <= 18, first != .digitZero || utf8.count == 1 else {
      return nil
    }
    var magnitude: UInt64 = 0
    for byte in utf8 {
      guard isDigit(byte) else { return nil }
      magnitude = magnitude * 10 + UInt64(byte - .digitZero)
    }
    return convert(magnitude: magnitude, isNegative: isNegative, to: type)
  }

  /// `magnitude` with the sign applied, if `T` can hold it.
  private static func convert<T: FixedWidthInteger>(
    magnitude: UInt64,
    isNegative: Bool,
    to type: T.Type
  ) -> T? {
    guard isNegative && magnitude != 0 else { return T(exactly: magnitude) }
    guard T.isSigned, let belowMagnitude = T(exactly: magnitude - 1) else { return nil }
    return 0 &- belowMagnitude &- 1
  }

  /// The literal as the nearest `Double`.
  ///
  /// Like Foundation, fails when the value overflows to infinity or a non-zero literal underflows
  /// to zero (`1e-400`); subnormal results are kept.
  static func double(_ text: String) -> Result<Double, Failure> {
    guard let parts = parts(of: text) else { return .failure(.invalidLiteral) }
    guard let value = Double(text), value.isFinite else { return .failure(.outOfRange) }
    if value == 0 && !parts.significantDigits.isEmpty { return .failure(.outOfRange) }
    return .success(value)
  }

  /// The literal as the nearest `Float`, rounded once from the decimal text.
  ///
  /// Fails like ``double(_:)`` on overflow and on underflow to zero.
  static func float(_ text: String) -> Result<Float, Failure> {
    guard let parts = parts(of: text) else { return .failure(.invalidLiteral) }
    guard let value = Float(text), value.isFinite else { return .failure(.outOfRange) }
    if value == 0 && !parts.significantDigits.isEmpty { return .failure(.outOfRange) }
    return .success(value)
  }

  /// The shortest text that reads back as `value` in JSON: Swift's `description` without a
  /// trailing `.0`. The caller rejects non-finite values first.
  static func text<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F) -> String {
    var text = value.description
    if text.hasSuffix(".0") {
      text.removeLast(2)
    }
    return text
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- .digitZero < 10
  }

  /// Appends a digit's value unless it would be a leading zero.
  @inline(__always)
  private static func appendDigit(_ byte: UInt8, to digits: inout [UInt8]) {
    if byte != .digitZero || !digits.isEmpty {
      digits.append(byte - .digitZero)
    }
  }
}

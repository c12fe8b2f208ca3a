/// Exact conversions from JSON number literals to Swift numbers, shared by the decoder and the
/// encoder.
///
/// A ``JSONValue`` can be built by hand, so every conversion first checks the literal against the
/// JSON grammar; nothing here traps or allocates, whatever the text.
enum JSONNumberText {
  /// Why a literal does not convert.
  enum Failure: Error {
    /// The text is not a JSON number.
    case invalidLiteral
    /// The number has a fractional part.
    case notWholeNumber
    /// The number is outside the target type's range, or rounds to zero from a non-zero value.
    case outOfRange
  }

  /// Where the parts of a valid literal are, as offsets into its UTF-8.
  private struct Scan {
    var isNegative = false
    var integerDigits = 0..<0
    var fractionDigits = 0..<0
    /// The written exponent, clamped to ±1,000,000,000.
    var exponent = 0

    var isPlainInteger: Bool { fractionDigits.isEmpty && exponent == 0 }
  }

  /// Splits a literal into its parts, or returns `nil` when it is not a JSON number.
  private static func scan(_ utf8: UnsafeBufferPointer<UInt8>) -> Scan? {
    var scan = Scan()
    var index = 0
    let end = utf8.count
    func skipDigits() -> Range<Int> {
      let start = index
      while index < end && isDigit(utf8[index]) { index += 1 }
      return start..<index
    }
    if index < end && utf8[index] == .minus {
      scan.isNegative = true
      index += 1
    }
    scan.integerDigits = skipDigits()
    guard !scan.integerDigits.isEmpty,
      scan.integerDigits.count == 1 || utf8[scan.integerDigits.lowerBound] != .digitZero
    else { return nil }
    if index < end && utf8[index] == .period {
      index += 1
      scan.fractionDigits = skipDigits()
      guard !scan.fractionDigits.isEmpty else { return nil }
    }
    if index < end && (utf8[index] == .lowercaseE || utf8[index] == .uppercaseE) {
      index += 1
      var isNegativeExponent = false
      if index < end && (utf8[index] == .plus || utf8[index] == .minus) {
        isNegativeExponent = utf8[index] == .minus
        index += 1
      }
      let digits = skipDigits()
      guard !digits.isEmpty else { return nil }
      for position in digits {
        scan.exponent = min(scan.exponent * 10 + Int(utf8[position] &- .digitZero), 1_000_000_000)
      }
      if isNegativeExponent { scan.exponent = -scan.exponent }
    }
    return index == end ? scan : nil
  }

  /// Runs `body` on the UTF-8 of `text`, copying only strings that are not stored contiguously.
  @inline(__always)
  private static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let result = text.utf8.withContiguousStorageIfAvailable(body) {
      return result
    }
    return Array(text.utf8).withUnsafeBufferPointer(body)
  }

  /// Whether `text` is a valid JSON number literal.
  static func isValid(_ text: String) -> Bool {
    withUTF8(text) { scan($0) != nil }
  }

  /// The literal as a `T`, exactly.
  ///
  /// Accepts what Foundation's `JSONDecoder` accepts for integers: plain integers and any
  /// literal whose value is a whole number, such as `1.0`, `1e2` or `100e-2`. Unlike Foundation,
  /// the test is exact: `1.0000000000000001` is not a whole number, and `9223372036854775807.0`
  /// fits in `Int`.
  static func integer<T: FixedWidthInteger>(
    _ text: String,
    as type: T.Type
  ) throws(Failure) -> T {
    let result = withUTF8(text) { utf8 in
      Result { () throws(Failure) in try integer(utf8: utf8, as: type) }
    }
    return try result.get()
  }

  /// ``integer(_:as:)`` on the literal's UTF-8.
  @inline(__always)
  static func integer<T: FixedWidthInteger>(
    utf8: UnsafeBufferPointer<UInt8>,
    as type: T.Type
  ) throws(Failure) -> T {
    // Plain integers of up to 18 digits, by far the most common, need no scan.
    if utf8.count > 0 && utf8.count <= 18 {
      let isNegative = utf8[0] == .minus
      var index = isNegative ? 1 : 0
      var magnitude: UInt64 = 0
      let isPlain = index < utf8.count && (utf8[index] != .digitZero || utf8.count == index + 1)
      while isPlain && index < utf8.count {
        let digit = utf8[index] &- .digitZero
        guard digit < 10 else { break }
        magnitude = magnitude &* 10 &+ UInt64(digit)
        index += 1
      }
      if isPlain && index == utf8.count {
        guard let value = signed(magnitude, isNegative: isNegative, as: type) else {
          throw .outOfRange
        }
        return value
      }
    }
    var failure = Failure.invalidLiteral
    let value: T? = {
      guard let scan = scan(utf8) else { return nil }
      guard let (isNegative, magnitude) = wholeMagnitude(utf8, scan, failure: &failure) else {
        return nil
      }
      guard let value = signed(magnitude, isNegative: isNegative, as: type) else {
        failure = .outOfRange
        return nil
      }
      return value
    }()
    guard let value else { throw failure }
    return value
  }

  /// The magnitude of a literal that is a whole number, or `nil` with the reason in `failure`.
  private static func wholeMagnitude(
    _ utf8: UnsafeBufferPointer<UInt8>,
    _ scan: Scan,
    failure: inout Failure
  ) -> (isNegative: Bool, magnitude: UInt64)? {
    // The significant digits are the integer and fraction digits without leading zeros; the
    // value is those digits times 10^exponent.
    let digitCount = scan.integerDigits.count + scan.fractionDigits.count
    func digit(_ position: Int) -> UInt8 {
      let index =
        position < scan.integerDigits.count
        ? scan.integerDigits.lowerBound + position
        : scan.fractionDigits.lowerBound + position - scan.integerDigits.count
      return utf8[index] &- .digitZero
    }
    var first = 0
    while first < digitCount && digit(first) == 0 { first += 1 }
    guard first < digitCount else { return (scan.isNegative, 0) }
    let exponent = scan.exponent - scan.fractionDigits.count
    var last = digitCount
    if exponent < 0 {
      let fractional = -exponent
      guard fractional < digitCount - first else {
        failure = .notWholeNumber
        return nil
      }
      last = digitCount - fractional
      for position in last..<digitCount where digit(position) != 0 {
        failure = .notWholeNumber
        return nil
      }
    } else if last - first + exponent > 20 {
      failure = .outOfRange
      return nil
    }
    var magnitude: UInt64 = 0
    for position in first..<last {
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = times10.addingReportingOverflow(UInt64(digit(position)))
      guard !overflow && !carry else {
        failure = .outOfRange
        return nil
      }
      magnitude = sum
    }
    for _ in 0..<max(exponent, 0) {
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else {
        failure = .outOfRange
        return nil
      }
      magnitude = times10
    }
    return (scan.isNegative, magnitude)
  }

  /// `magnitude` with the sign applied, if `T` can hold it.
  @inline(__always)
  private static func signed<T: FixedWidthInteger>(
    _ magnitude: UInt64,
    isNegative: Bool,
    as type: T.Type
  ) -> T? {
    guard isNegative && magnitude != 0 else { return T(exactly: magnitude) }
    guard T.isSigned, let belowMagnitude = T(exactly: magnitude - 1) else { return nil }
    return 0 &- belowMagnitude &- 1
  }

  /// Exact powers of ten as doubles, for the fast path of ``double(_:)``.
  private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { power, _ in power * 10 }
  }

  /// The literal as the nearest `Double`.
  ///
  /// Like Foundation, fails when the value overflows to infinity or a non-zero literal underflows
  /// to zero (`1e-400`); subnormal results are kept. Literals with at most 15 significant digits
  /// and a small exponent are converted with one exact multiplication or division (Clinger's
  /// fast path, correctly rounded); others by the standard library's parser.
  static func double(_ text: String) throws(Failure) -> Double {
    let result = withUTF8(text) { utf8 in
      Result { () throws(Failure) in try double(utf8: utf8) }
    }
    return try result.get()
  }

  /// ``double(_:)`` on the literal's UTF-8.
  static func double(utf8: UnsafeBufferPointer<UInt8>) throws(Failure) -> Double {
    enum Outcome {
      case value(Double)
      case useParser(hasNonZeroDigit: Bool)
      case invalid
    }
    let outcome: Outcome = {
      guard let scan = scan(utf8) else { return .invalid }
      var mantissa: UInt64 = 0
      var significantDigits = 0
      func accumulate(_ digits: Range<Int>) {
        for index in digits {
          let digit = utf8[index] &- .digitZero
          if significantDigits > 0 || digit != 0 {
            significantDigits += 1
            if significantDigits <= 15 {
              mantissa = mantissa * 10 + UInt64(digit)
            }
          }
        }
      }
      accumulate(scan.integerDigits)
      accumulate(scan.fractionDigits)
      let exponent = scan.exponent - scan.fractionDigits.count
      guard significantDigits <= 15, exponent >= -22, exponent <= 22 else {
        return .useParser(hasNonZeroDigit: significantDigits > 0)
      }
      let magnitude = Double(mantissa)
      let value =
        exponent >= 0
        ? magnitude * exactPowersOfTen[exponent] : magnitude / exactPowersOfTen[-exponent]
      return .value(scan.isNegative ? -value : value)
    }()
    switch outcome {
    case .invalid:
      throw .invalidLiteral
    case .value(let value):
      return value
    case .useParser(let hasNonZeroDigit):
      let text = String(decoding: utf8, as: UTF8.self)
      guard let value = Double(text), value.isFinite, value != 0 || !hasNonZeroDigit else {
        throw .outOfRange
      }
      return value
    }
  }

  /// The literal as the nearest `Float`, rounded once from the decimal text.
  ///
  /// Fails like ``double(_:)`` on overflow and on underflow to zero.
  static func float(_ text: String) throws(Failure) -> Float {
    let hasNonZeroDigit: Bool? = withUTF8(text) { utf8 in
      guard let scan = scan(utf8) else { return nil }
      return scan.integerDigits.contains { utf8[$0] != .digitZero }
        || scan.fractionDigits.contains { utf8[$0] != .digitZero }
    }
    guard let hasNonZeroDigit else { throw .invalidLiteral }
    guard let value = Float(text), value.isFinite, value != 0 || !hasNonZeroDigit else {
      throw .outOfRange
    }
    return value
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
}

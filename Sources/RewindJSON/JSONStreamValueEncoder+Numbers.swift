/// How ``JSONStreamValueEncoder`` writes literals and numbers.
extension JSONStreamValueEncoder {
  /// Appends `literal`'s bytes (`null`, `true`, `{}`).
  @inline(__always)
  func appendLiteral(_ literal: StaticString) {
    literal.withUTF8Buffer { state.pointee.output.append(contentsOf: $0) }
  }

  /// Appends the decimal digits of `value`, as `String(value)` spells them.
  func appendInteger(_ value: Int64) {
    if value < 0 { state.pointee.output.append(.minus) }
    appendInteger(value.magnitude)
  }

  /// Appends the decimal digits of `value`, as `String(value)` spells them.
  func appendInteger(_ value: UInt64) {
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let count = DecimalDigits.count(value)
    withUnsafeMutableBytes(of: &digits) { buffer in
      guard let base = buffer.baseAddress else { return }
      DecimalDigits.write(value, count: count, to: base)
      state.pointee.output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    }
  }

  @inline(__always) func appendInteger(_ value: Int) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: Int8) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: Int16) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: Int32) { appendInteger(Int64(value)) }
  @inline(__always) func appendInteger(_ value: UInt) { appendInteger(UInt64(value)) }
  @inline(__always) func appendInteger(_ value: UInt8) { appendInteger(UInt64(value)) }
  @inline(__always) func appendInteger(_ value: UInt16) { appendInteger(UInt64(value)) }
  @inline(__always) func appendInteger(_ value: UInt32) { appendInteger(UInt64(value)) }

  /// Appends a finite floating-point number as the shortest text that reads back the same.
  /// - Throws: `EncodingError.invalidValue` for NaN and infinities, which JSON cannot hold, with
  ///   the path `path()` (built only then).
  func appendFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F, path: () -> JSONLazyPath
  ) throws {
    guard value.isFinite else {
      let name = value.isNaN ? "nan" : value < 0 ? "-infinity" : "infinity"
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path().path.keys,
          debugDescription: "\(F.self).\(name) cannot be encoded: JSON has no NaN or infinity"))
    }
    state.pointee.output.append(contentsOf: JSONNumberText.text(value).utf8)
  }
}

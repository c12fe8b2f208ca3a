extension JSONReader {
  /// Reads a number literal at the cursor and returns its text.
  ///
  /// The grammar is RFC 8259's: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
  /// What follows the number is left to the caller, so `1x` fails there, naming the `x`.
  mutating func readNumber() throws(JSONParseError) -> String {
    let start = offset
    try skipNumber()
    let length = offset - start
    let text = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    return String(unsafeUninitializedCapacity: length) { buffer in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: text)
      return length
    }
  }

  /// Advances the cursor over a number literal, checking it as ``readNumber()`` does, without
  /// making its text.
  @inline(__always)
  mutating func skipNumber() throws(JSONParseError) {
    let start = offset
    if bytes[offset] == .minus {
      offset += 1
    }
    guard offset < bytes.count else {
      throw JSONParseError(offset: offset, reason: .unexpectedEnd(expected: "a digit after '-'"))
    }
    let first = bytes[offset]
    if first == .digitZero {
      offset += 1
      if offset < bytes.count && isDigit(bytes[offset]) {
        throw JSONParseError(offset: offset, reason: .invalidNumber(.leadingZero))
      }
    } else if isDigit(first) {
      skipDigits()
    } else {
      throw JSONParseError(offset: offset, reason: .invalidNumber(.missingIntegerDigits))
    }
    if offset < bytes.count && bytes[offset] == .period {
      offset += 1
      try readRequiredDigits(expected: "a digit after '.'", defect: .missingFractionDigits)
    }
    if offset < bytes.count && (bytes[offset] == .lowercaseE || bytes[offset] == .uppercaseE) {
      offset += 1
      if offset < bytes.count && (bytes[offset] == .plus || bytes[offset] == .minus) {
        offset += 1
      }
      try readRequiredDigits(expected: "a digit in the exponent", defect: .missingExponentDigits)
    }
    guard offset - start <= limits.maxNumberLength else {
      throw JSONParseError(offset: start, reason: .numberTooLong(limit: limits.maxNumberLength))
    }
  }

  /// Reads one or more digits, or throws.
  private mutating func readRequiredDigits(
    expected: String,
    defect: JSONParseError.NumberDefect
  ) throws(JSONParseError) {
    guard offset < bytes.count else {
      throw JSONParseError(offset: offset, reason: .unexpectedEnd(expected: expected))
    }
    guard isDigit(bytes[offset]) else {
      throw JSONParseError(offset: offset, reason: .invalidNumber(defect))
    }
    skipDigits()
  }

  @inline(__always)
  private mutating func skipDigits() {
    while offset < bytes.count && isDigit(bytes[offset]) {
      offset += 1
    }
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- .digitZero < 10
  }

  /// Reads `true`, `false` or `null` at the cursor.
  ///
  /// - Throws: ``JSONParseError`` at the first byte that differs, or at the end of the input.
  mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
    let expected = "'\(literal)'"
    let mismatch: Int? = literal.withUTF8Buffer { letters in
      for (index, letter) in letters.enumerated() {
        let position = offset + index
        if position >= bytes.count || bytes[position] != letter {
          return position
        }
      }
      return nil
    }
    guard let mismatch else {
      offset += literal.utf8CodeUnitCount
      return
    }
    guard mismatch < bytes.count else {
      throw JSONParseError(offset: mismatch, reason: .unexpectedEnd(expected: expected))
    }
    offset = mismatch
    throw unexpected(bytes[mismatch], expected: expected)
  }
}

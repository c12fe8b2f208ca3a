extension JSONReader {
  /// Reads a string whose opening quote is at the cursor and leaves the cursor after the closing
  /// quote.
  ///
  /// Strings without escapes, by far the most common, are scanned eight bytes at a time and
  /// copied into the `String` once; strings with escapes are assembled in ``scratch``.
  mutating func readString() throws(JSONParseError) -> String {
    let quoteOffset = offset
    offset += 1
    let start = offset
    try skipStringContent()
    guard bytes[offset] == .quote else {
      return try readEscapedString(quoteOffset: quoteOffset, start: start)
    }
    let length = offset - start
    guard length <= limits.maxStringBytes else {
      throw JSONParseError(
        offset: quoteOffset, reason: .stringTooLong(limit: limits.maxStringBytes))
    }
    let content = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    offset += 1
    return String(unsafeUninitializedCapacity: length) { buffer in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
      return length
    }
  }

  /// Reads the rest of a string that has an escape at the cursor.
  private mutating func readEscapedString(
    quoteOffset: Int,
    start: Int
  ) throws(JSONParseError) -> String {
    scratch.removeAll(keepingCapacity: true)
    var runStart = start
    while true {
      scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<offset]))
      if scratch.count > limits.maxStringBytes {
        throw JSONParseError(
          offset: quoteOffset, reason: .stringTooLong(limit: limits.maxStringBytes))
      }
      if bytes[offset] == .quote {
        break
      }
      try readEscape()
      runStart = offset
      try skipStringContent()
    }
    offset += 1
    return String(decoding: scratch, as: UTF8.self)
  }

  /// Advances the cursor over string content up to the next `"` or `\`, validating UTF-8 and
  /// rejecting raw control characters on the way.
  ///
  /// - Returns: Whether the content skipped has bytes outside ASCII.
  /// - Throws: ``JSONParseError/Reason/unexpectedEnd(expected:)`` when the input ends first.
  @inline(__always)
  @discardableResult
  mutating func skipStringContent() throws(JSONParseError) -> Bool {
    let count = bytes.count
    var isASCII = true
    while true {
      while offset &+ 8 <= count {
        let word = UInt64(
          littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        let attention = Self.attentionMask(word)
        if attention != 0 {
          // The lowest flagged byte is exactly the first that needs attention: go straight to it.
          offset &+= attention.trailingZeroBitCount &>> 3
          break
        }
        offset &+= 8
      }
      guard offset < count else {
        throw JSONParseError(
          offset: offset, reason: .unexpectedEnd(expected: "'\"' to end the string"))
      }
      let byte = bytes[offset]
      if byte == .quote || byte == .backslash {
        return !isASCII
      }
      if byte < 0x20 {
        throw JSONParseError(offset: offset, reason: .controlCharacterInString(byte))
      }
      if byte < 0x80 {
        offset &+= 1
        continue
      }
      guard let length = utf8SequenceLength(at: offset) else {
        throw invalidUTF8(at: offset)
      }
      isASCII = false
      offset &+= length
    }
  }

  /// The high bit of each of the eight bytes in `word` (read little-endian) that may be a
  /// quote, a backslash, a control character or not ASCII; zero when none is. Uses the classic
  /// "has a zero byte" and "has a byte less than n" bit tricks: they are exact about whether such
  /// a byte exists, and the lowest flag is exactly the first such byte (a false flag can only
  /// come from a borrow out of a true one below it).
  @inline(__always)
  static func attentionMask(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let belowSpace = (word &- ones &* 0x20) & ~word
    let quotes = word ^ (ones &* UInt64(UInt8.quote))
    let hasQuote = (quotes &- ones) & ~quotes
    let backslashes = word ^ (ones &* UInt64(UInt8.backslash))
    let hasBackslash = (backslashes &- ones) & ~backslashes
    return (belowSpace | hasQuote | hasBackslash | word) & highBits
  }

  /// Reads the escape sequence whose backslash is at the cursor, appending its UTF-8 to
  /// ``scratch``.
  mutating func readEscape() throws(JSONParseError) {
    let escapeOffset = offset
    guard offset + 1 < bytes.count else {
      throw JSONParseError(
        offset: bytes.count, reason: .unexpectedEnd(expected: "an escape sequence after '\\'"))
    }
    let letter = bytes[offset + 1]
    offset += 2
    switch letter {
    case .quote, .backslash, .slash: scratch.append(letter)
    case 0x62: scratch.append(0x08)  // b
    case 0x66: scratch.append(0x0C)  // f
    case 0x6E: scratch.append(0x0A)  // n
    case 0x72: scratch.append(0x0D)  // r
    case 0x74: scratch.append(0x09)  // t
    case .lowercaseU:
      let unit = try readHexQuad(escapeOffset: escapeOffset)
      var scalar = UInt32(unit)
      if unit >= 0xD800 && unit <= 0xDBFF {
        guard offset + 1 < bytes.count else {
          throw JSONParseError(
            offset: bytes.count, reason: .unexpectedEnd(expected: "a low surrogate escape"))
        }
        guard bytes[offset] == .backslash && bytes[offset + 1] == .lowercaseU else {
          throw JSONParseError(offset: escapeOffset, reason: .unpairedSurrogate(unit))
        }
        let lowOffset = offset
        offset += 2
        let low = try readHexQuad(escapeOffset: lowOffset)
        guard low >= 0xDC00 && low <= 0xDFFF else {
          throw JSONParseError(offset: escapeOffset, reason: .unpairedSurrogate(unit))
        }
        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if unit >= 0xDC00 && unit <= 0xDFFF {
        throw JSONParseError(offset: escapeOffset, reason: .unpairedSurrogate(unit))
      }
      appendUTF8(scalar)
    default:
      throw JSONParseError(offset: escapeOffset, reason: .invalidEscape)
    }
  }

  /// Reads the four hex digits of a `\u` escape at the cursor.
  private mutating func readHexQuad(escapeOffset: Int) throws(JSONParseError) -> UInt16 {
    guard offset + 4 <= bytes.count else {
      throw JSONParseError(
        offset: bytes.count, reason: .unexpectedEnd(expected: "four hex digits after '\\u'"))
    }
    var unit: UInt16 = 0
    for index in offset..<offset + 4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw JSONParseError(offset: escapeOffset, reason: .invalidEscape)
      }
      unit = unit << 4 | UInt16(digit)
    }
    offset += 4
    return unit
  }

  /// Appends the UTF-8 encoding of a scalar value that is not a surrogate.
  private mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(truncatingIfNeeded: scalar))
    case 0x80..<0x800:
      scratch.append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
      scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
      scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
      scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    default:
      scratch.append(0xF0 | UInt8(truncatingIfNeeded: scalar >> 18))
      scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
      scratch.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
      scratch.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    }
  }

  /// The length of the well-formed UTF-8 sequence whose lead byte (0x80 or above) is at `index`,
  /// or `nil` when the bytes there are not well-formed.
  ///
  /// Follows the table of well-formed sequences in the Unicode Standard (section 3.9): no
  /// overlong forms, no encoded surrogates, nothing past U+10FFFF, no cut-off sequences.
  func utf8SequenceLength(at index: Int) -> Int? {
    let count = bytes.count
    @inline(__always) func byte(_ position: Int, in range: ClosedRange<UInt8>) -> Bool {
      position < count && range.contains(bytes[position])
    }
    let continuation: ClosedRange<UInt8> = 0x80...0xBF
    switch bytes[index] {
    case 0xC2...0xDF:
      return byte(index + 1, in: continuation) ? 2 : nil
    case 0xE0:
      return byte(index + 1, in: 0xA0...0xBF) && byte(index + 2, in: continuation) ? 3 : nil
    case 0xE1...0xEC, 0xEE...0xEF:
      return byte(index + 1, in: continuation) && byte(index + 2, in: continuation) ? 3 : nil
    case 0xED:
      return byte(index + 1, in: 0x80...0x9F) && byte(index + 2, in: continuation) ? 3 : nil
    case 0xF0:
      return byte(index + 1, in: 0x90...0xBF) && byte(index + 2, in: continuation)
        && byte(index + 3, in: continuation) ? 4 : nil
    case 0xF1...0xF3:
      return byte(index + 1, in: continuation) && byte(index + 2, in: continuation)
        && byte(index + 3, in: continuation) ? 4 : nil
    case 0xF4:
      return byte(index + 1, in: 0x80...0x8F) && byte(index + 2, in: continuation)
        && byte(index + 3, in: continuation) ? 4 : nil
    default:
      return nil
    }
  }

  /// The error for malformed UTF-8 at `index`.
  private func invalidUTF8(at index: Int) -> JSONParseError {
    JSONParseError(offset: index, reason: .invalidUTF8)
  }
}

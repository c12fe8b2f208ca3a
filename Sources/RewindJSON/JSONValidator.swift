import RewindCPU

/// Checks that bytes are one JSON text as ``JSONParser`` reads it — the same grammar, UTF-8 and
/// surrogate checks and limits — without building anything: for a log reader that checks every
/// line when it opens a log and decodes only the lines it needs later.
///
/// It checks in two passes after simdjson's (`Sources/RewindCPU/JSONStructure.c`): the CPU's
/// vector instructions classify 64 bytes at a time — quotes, escapes, structural characters,
/// control characters, UTF-8 — and a state machine over the structural characters checks the
/// grammar and the limits. Only a text that pass rejects is read again byte by byte, for the
/// offset of its defect (``scalarFirstDefect(in:)``, which passes over the plain bytes of a
/// string eight at a time). Both give the same verdict on every input
/// (`JSONStructuralPassTests`, the `FuzzJSONStructure` fuzzer).
///
/// It allocates nothing per call (the stack of open containers is one bit each, in a buffer
/// made once for ``JSONLimits/maxDepth``). What it does not check is duplicate keys, which need
/// the keys kept: a document with one is reported when it is parsed.
///
/// ```swift
/// var validator = JSONValidator()
/// if let offset = validator.firstDefect(in: bytes) {
///   // Parse with JSONParser for the exact error at or before `offset`.
/// }
/// ```
package struct JSONValidator {
  /// The limits checked, as ``JSONParser`` checks them.
  package let limits: JSONLimits
  /// One bit per open container, 1 for an object, 0 for an array; `depth` bits in use.
  private var kinds: [UInt64]

  /// How the structural pass classifies bytes; ``JSONStructuralPath/automatic`` but in tests.
  package let path: JSONStructuralPath
  /// `limits` as the structural pass reads them; `nil` when one is negative (the byte-by-byte
  /// reader alone then judges).
  private let structuralLimits: rewind_json_limits?

  /// A validator for documents within `limits`, whose structural pass takes `path`.
  package init(limits: JSONLimits = .default, path: JSONStructuralPath = .automatic) {
    self.limits = limits
    self.path = path
    kinds = [UInt64](repeating: 0, count: max(1, (min(limits.maxDepth, 1 << 20) + 63) / 64))
    if limits.maxDepth >= 0, limits.maxStringBytes >= 0, limits.maxNumberLength >= 0,
      limits.elementLimit >= 0
    {
      structuralLimits = rewind_json_limits(
        max_depth: limits.maxDepth, max_string_bytes: limits.maxStringBytes,
        max_number_length: limits.maxNumberLength, max_elements: limits.elementLimit)
    } else {
      structuralLimits = nil
    }
  }

  /// Whether `bytes` are one valid JSON text.
  package mutating func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    firstDefect(in: bytes) == nil
  }

  /// `nil` when `bytes` are one valid JSON text (duplicate keys aside), else the offset of the
  /// byte where reading stopped: at or after the defect ``JSONParser`` reports.
  package mutating func firstDefect(in bytes: UnsafeRawBufferPointer) -> Int? {
    if structuralPassAccepts(bytes) { return nil }
    return scalarFirstDefect(in: bytes)
  }

  /// Whether the structural pass (`Sources/RewindCPU/JSONStructure.c`) accepts `bytes`: exactly
  /// when ``scalarFirstDefect(in:)`` finds no defect.
  package mutating func structuralPassAccepts(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard var limits = structuralLimits, let base = bytes.baseAddress,
      bytes.count <= JSONLimits.byteCeiling
    else { return false }
    let path = path.cValue
    return kinds.withUnsafeMutableBufferPointer { kinds in
      guard let words = kinds.baseAddress else { return false }
      return rewind_json_is_valid(base, bytes.count, &limits, words, kinds.count, path) != 0
    }
  }

  /// Whether every line of `bytes` — split at each `\n` — is one valid JSON text (duplicate
  /// keys aside: as ``isValid(_:)`` says of it) or blank, checked in one structural pass over
  /// all of them: for a log's lines, many at a time. `false` says only that some line is not:
  /// check them one at a time (``isValid(_:)``, ``firstDefect(in:)``) to know which, and where.
  package mutating func linesAreValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard var limits = structuralLimits, let base = bytes.baseAddress,
      bytes.count <= JSONLimits.byteCeiling
    else { return bytes.isEmpty }
    let path = path.cValue
    return kinds.withUnsafeMutableBufferPointer { kinds in
      guard let words = kinds.baseAddress else { return false }
      return rewind_json_lines_are_valid(base, bytes.count, &limits, words, kinds.count, path) != 0
    }
  }

  /// The byte-by-byte reader: `nil` when `bytes` are one valid JSON text (duplicate keys
  /// aside), else the offset of the byte where reading stopped.
  package mutating func scalarFirstDefect(in bytes: UnsafeRawBufferPointer) -> Int? {
    let end = bytes.count
    if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return 0 }
    if end > JSONLimits.byteCeiling { return 0 }
    let elementLimit = limits.elementLimit
    var i = 0
    var depth = 0
    var elements = 0
    let limits = limits
    return kinds.withUnsafeMutableBufferPointer { kinds -> Int? in
      nextValue: while true {
        // A value starts here (after the start, `[`, `:` or `,`).
        i = Self.skipWhitespace(bytes, i)
        guard i < end else { return i }
        if depth > 0 {
          elements &+= 1
          if elements > elementLimit { return i }
        }
        switch bytes[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          let isObject = bytes[i] == UInt8(ascii: "{")
          guard depth < limits.maxDepth, depth < kinds.count * 64 else { return i }
          let (word, bit) = (depth >> 6, UInt64(1) << UInt64(depth & 63))
          kinds[word] = isObject ? kinds[word] | bit : kinds[word] & ~bit
          depth += 1
          i = Self.skipWhitespace(bytes, i + 1)
          guard i < end else { return i }
          if bytes[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
            depth -= 1
            i += 1
          } else if isObject {
            guard let afterKey = Self.member(bytes, i, limits) else { return i }
            i = afterKey
            continue nextValue
          } else {
            continue nextValue
          }
        case UInt8(ascii: "\""):
          guard let after = Self.string(bytes, i, limits) else { return i }
          i = after
        case UInt8(ascii: "t"):
          guard Self.matches(bytes, i, "true") else { return i }
          i += 4
        case UInt8(ascii: "f"):
          guard Self.matches(bytes, i, "false") else { return i }
          i += 5
        case UInt8(ascii: "n"):
          guard Self.matches(bytes, i, "null") else { return i }
          i += 4
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          guard let after = Self.number(bytes, i, limits) else { return i }
          i = after
        default:
          return i
        }
        // After a value: a comma, the end of its container, or (at the top) the end.
        while true {
          i = Self.skipWhitespace(bytes, i)
          guard depth > 0 else { return i == end ? nil : i }
          guard i < end else { return i }
          let isObject = kinds[(depth - 1) >> 6] & (UInt64(1) << UInt64((depth - 1) & 63)) != 0
          switch bytes[i] {
          case UInt8(ascii: ","):
            i += 1
            if isObject {
              i = Self.skipWhitespace(bytes, i)
              guard let afterKey = Self.member(bytes, i, limits) else { return i }
              i = afterKey
            }
            continue nextValue
          case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
            depth -= 1
            i += 1
          default:
            return i
          }
        }
      }
    }
  }

  /// Reads a member's key and colon at `start`; returns where its value starts, or `nil`.
  private static func member(
    _ bytes: UnsafeRawBufferPointer, _ start: Int, _ limits: JSONLimits
  ) -> Int? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "\""),
      let afterKey = string(bytes, start, limits)
    else { return nil }
    let colon = Self.skipWhitespace(bytes, afterKey)
    guard colon < bytes.count, bytes[colon] == UInt8(ascii: ":") else { return nil }
    return colon + 1
  }

  // MARK: Tokens

  @inline(__always)
  private static func skipWhitespace(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int {
    var i = start
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x0A, 0x0D, 0x09: i += 1
      default: return i
      }
    }
    return i
  }

  @inline(__always)
  private static func matches(
    _ bytes: UnsafeRawBufferPointer, _ start: Int, _ literal: StaticString
  ) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard start + count <= bytes.count else { return false }
    let pointer = literal.utf8Start
    for k in 0..<count where bytes[start + k] != pointer[k] { return false }
    return true
  }

  // Eight copies of a byte each. Literals, not `static let`s: a stored global is reached
  // through a lazy initializer's `swift_once` on every use in unoptimized builds, which under
  // ThreadSanitizer costs a futex wake-up per word read.
  private static var highBits: UInt64 { 0x8080_8080_8080_8080 }
  private static var ones: UInt64 { 0x0101_0101_0101_0101 }
  /// `"`
  private static var quotes: UInt64 { 0x2222_2222_2222_2222 }
  /// `\`
  private static var backslashes: UInt64 { 0x5C5C_5C5C_5C5C_5C5C }
  private static var controls: UInt64 { 0x2020_2020_2020_2020 }

  /// The high bit of each of the eight bytes of `word` (read little-endian: the first byte is
  /// the lowest) that is a quote, a backslash, a control character or not ASCII — the bytes a
  /// string's fast path stops at. A borrow can also mark a byte after a marked one, never one
  /// before it: the lowest bit set is exact.
  @inline(__always)
  private static func specialBytes(_ word: UInt64) -> UInt64 {
    let quote = word ^ quotes
    let backslash = word ^ backslashes
    let zeroQuote = (quote &- ones) & ~quote
    let zeroBackslash = (backslash &- ones) & ~backslash
    let control = (word &- controls) & ~word
    return (zeroQuote | zeroBackslash | control | word) & highBits
  }

  /// Reads the string whose opening quote is at `start`; returns the offset after its closing
  /// quote, or `nil`.
  private static func string(
    _ bytes: UnsafeRawBufferPointer, _ start: Int, _ limits: JSONLimits
  ) -> Int? {
    let end = bytes.count
    var i = start + 1
    // The string's length after unescaping, checked against the limit.
    var length = 0
    while true {
      // Eight plain bytes at a time, then straight to the first special one.
      while i + 8 <= end {
        let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        let special = specialBytes(word)
        let plain = special == 0 ? 8 : special.trailingZeroBitCount >> 3
        i += plain
        length += plain
        if plain < 8 { break }
      }
      guard i < end else { return nil }
      let byte = bytes[i]
      switch byte {
      case UInt8(ascii: "\""):
        return length <= limits.maxStringBytes ? i + 1 : nil
      case UInt8(ascii: "\\"):
        guard i + 1 < end else { return nil }
        switch bytes[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          i += 2
          length += 1
        case UInt8(ascii: "u"):
          guard let unit = Self.hexUnit(bytes, i + 2) else { return nil }
          i += 6
          switch unit {
          case 0xD800...0xDBFF:
            guard i + 1 < end, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
              let low = Self.hexUnit(bytes, i + 2), (0xDC00...0xDFFF).contains(low)
            else { return nil }
            i += 6
            length += 4
          case 0xDC00...0xDFFF: return nil
          case 0..<0x80: length += 1
          case 0x80..<0x800: length += 2
          default: length += 3
          }
        default:
          return nil
        }
      case 0..<0x20:
        return nil
      case 0x80...:
        guard let after = Self.utf8Sequence(bytes, i) else { return nil }
        length += after - i
        i = after
      default:
        i += 1
        length += 1
      }
    }
  }

  /// The UTF-16 unit of the four hexadecimal digits at `start`, or `nil`.
  @inline(__always)
  private static func hexUnit(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> UInt16? {
    guard start + 4 <= bytes.count else { return nil }
    var unit: UInt16 = 0
    for k in 0..<4 {
      let byte = bytes[start + k]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      unit = unit << 4 | UInt16(digit)
    }
    return unit
  }

  /// The offset after the well-formed UTF-8 sequence (RFC 3629, table 3-7 of Unicode) whose
  /// lead byte, not ASCII, is at `start`, or `nil`.
  private static func utf8Sequence(_ bytes: UnsafeRawBufferPointer, _ start: Int) -> Int? {
    let lead = bytes[start]
    let count: Int
    var second: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: count = 2
    case 0xE0:
      count = 3
      second = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: count = 3
    case 0xED:
      count = 3
      second = 0x80...0x9F
    case 0xF0:
      count = 4
      second = 0x90...0xBF
    case 0xF1...0xF3: count = 4
    case 0xF4:
      count = 4
      second = 0x80...0x8F
    default: return nil
    }
    guard start + count <= bytes.count, second.contains(bytes[start + 1]) else { return nil }
    for k in 2..<count where bytes[start + k] & 0xC0 != 0x80 { return nil }
    return start + count
  }

  /// Reads the number at `start` (`-`, or a digit); returns the offset after it, or `nil`.
  private static func number(
    _ bytes: UnsafeRawBufferPointer, _ start: Int, _ limits: JSONLimits
  ) -> Int? {
    let end = bytes.count
    var i = start
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard i < end, Self.isDigit(bytes[i]) else { return nil }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < end, Self.isDigit(bytes[i]) { i += 1 }
    }
    if i < end, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard i < end, Self.isDigit(bytes[i]) else { return nil }
      while i < end, Self.isDigit(bytes[i]) { i += 1 }
    }
    if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < end, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard i < end, Self.isDigit(bytes[i]) else { return nil }
      while i < end, Self.isDigit(bytes[i]) { i += 1 }
    }
    return i - start <= limits.maxNumberLength ? i : nil
  }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }
}

import RewindJSON

/// One JSON text that tests give to the parser and to every command of `replay`, with what the
/// JSON standard (RFC 8259) and Rewind's limits say must happen to it.
public struct JSONSample: Sendable, CustomStringConvertible {
  /// A name that says what the sample holds.
  public var name: String
  /// The text, byte for byte.
  public var bytes: [UInt8]
  /// Whether the parser must accept it, or reject it where and why.
  public var verdict: Verdict

  /// What must happen to a sample.
  public enum Verdict: Sendable, Equatable {
    /// The text is JSON and within the default ``JSONLimits``: it parses.
    case accepted
    /// The text is not JSON, or crosses a limit: the parser rejects it at this byte, for this
    /// reason.
    case rejected(offset: Int, reason: JSONParseError.Reason)
  }

  /// Creates a sample.
  public init(_ name: String, _ bytes: [UInt8], _ verdict: Verdict) {
    self.name = name
    self.bytes = bytes
    self.verdict = verdict
  }

  /// Creates a sample from UTF-8 text.
  public init(_ name: String, _ text: String, _ verdict: Verdict) {
    self.init(name, Array(text.utf8), verdict)
  }

  /// The sample's name.
  public var description: String { name }

  /// Whether the standard or a limit makes the parser refuse it.
  public var mustBeRejected: Bool { verdict != .accepted }
}

/// Rewind's own hostile JSON, written here so that a clone without `../shared/` still tests
/// the parser and every command on it: nesting at and past the limit, numbers at the edges,
/// bad UTF-8 and surrogates, raw control characters, cut-off text, trailing commas, duplicate
/// keys, a byte order mark, NUL bytes and long strings.
public enum HostileJSON {
  /// The deepest nesting ``JSONLimits/default`` allows.
  static let depth = JSONLimits.default.maxDepth

  /// Every sample, small and large.
  public static let all: [JSONSample] =
    nesting + numbers + utf8 + surrogates + controls
    + cutOff + commas + duplicateKeys + odd + long

  /// The samples small enough (under 2 MiB) to run through every command of `replay`.
  public static let small: [JSONSample] = all.filter { $0.bytes.count < 2 << 20 }

  static let nesting: [JSONSample] = [
    JSONSample(
      "arrays nested to the limit", repeated("[", depth) + repeated("]", depth), .accepted),
    JSONSample(
      "arrays nested one past the limit", repeated("[", depth + 1) + repeated("]", depth + 1),
      .rejected(offset: depth, reason: .tooDeep(limit: depth))),
    JSONSample(
      "objects nested to the limit",
      repeated(#"{"a":"#, depth - 1) + "{}" + repeated("}", depth - 1), .accepted),
    JSONSample(
      "objects nested one past the limit",
      repeated(#"{"a":"#, depth) + "{}" + repeated("}", depth),
      .rejected(offset: 5 * depth, reason: .tooDeep(limit: depth))),
    JSONSample(
      "100,000 open arrays", repeated("[", 100_000),
      .rejected(offset: depth, reason: .tooDeep(limit: depth))),
    JSONSample(
      "arrays and objects alternating past the limit", repeated(#"[{"k":"#, depth),
      .rejected(offset: 6 * (depth / 2), reason: .tooDeep(limit: depth))),
  ]

  static let numbers: [JSONSample] = [
    JSONSample("a huge exponent", "[1e400]", .accepted),
    JSONSample("a huge negative number", "[-1.5e308000]", .accepted),
    JSONSample("a tiny number", "[4.9e-325]", .accepted),
    JSONSample("the smallest subnormal double", "[5e-324]", .accepted),
    JSONSample("minus zero", "[-0]", .accepted),
    JSONSample("minus zero with fraction and exponent", "[-0.0e-0]", .accepted),
    JSONSample("minus zero as an object member", #"{"z":-0}"#, .accepted),
    JSONSample("an integer past UInt64", "[184467440737095516160]", .accepted),
    JSONSample(
      "1,024 digits, the longest number", "[" + repeated("9", 1_024) + "]", .accepted),
    JSONSample(
      "1,025 digits, one past the limit", "[" + repeated("9", 1_025) + "]",
      .rejected(offset: 1, reason: .numberTooLong(limit: 1_024))),
    JSONSample(
      "100,000 digits", repeated("7", 100_000),
      .rejected(offset: 0, reason: .numberTooLong(limit: 1_024))),
    JSONSample(
      "leading zeros", "[00]", .rejected(offset: 2, reason: .invalidNumber(.leadingZero))),
    JSONSample(
      "minus zero with leading zeros", "[-01]",
      .rejected(offset: 3, reason: .invalidNumber(.leadingZero))),
    JSONSample(
      "a bare minus", "[-]", .rejected(offset: 2, reason: .invalidNumber(.missingIntegerDigits))),
    JSONSample(
      "a dot without digits", "[1.]",
      .rejected(offset: 3, reason: .invalidNumber(.missingFractionDigits))),
    JSONSample(
      "an exponent without digits", "[1e+]",
      .rejected(offset: 4, reason: .invalidNumber(.missingExponentDigits))),
    JSONSample(
      "a plus sign", "[+1]", .rejected(offset: 1, reason: .unexpectedByte(0x2B, expected: value))),
    JSONSample(
      "Infinity", "[Infinity]",
      .rejected(offset: 1, reason: .unexpectedByte(0x49, expected: value))),
    JSONSample(
      "NaN", "[NaN]", .rejected(offset: 1, reason: .unexpectedByte(0x4E, expected: value))),
  ]

  static let utf8: [JSONSample] = [
    JSONSample("a lone continuation byte", quoted([0x80]), badUTF8),
    JSONSample(
      "0xFF in a string", quoted([0x61, 0xFF]), .rejected(offset: 2, reason: .invalidUTF8)),
    JSONSample("an overlong slash (C0 AF)", quoted([0xC0, 0xAF]), badUTF8),
    JSONSample("an overlong NUL (C0 80)", quoted([0xC0, 0x80]), badUTF8),
    JSONSample("a three-byte overlong slash", quoted([0xE0, 0x80, 0xAF]), badUTF8),
    JSONSample("a four-byte overlong", quoted([0xF0, 0x80, 0x80, 0xAF]), badUTF8),
    JSONSample("an encoded high surrogate (ED A0 80)", quoted([0xED, 0xA0, 0x80]), badUTF8),
    JSONSample("a code point past U+10FFFF", quoted([0xF4, 0x90, 0x80, 0x80]), badUTF8),
    JSONSample("a sequence cut off by the quote", quoted([0xE2, 0x82]), badUTF8),
    JSONSample("a sequence cut off by the end", [0x22, 0xE2, 0x82], badUTF8),
    JSONSample(
      "invalid UTF-8 in a key", [0x7B] + quoted([0xFE]) + Array(":1}".utf8),
      .rejected(offset: 2, reason: .invalidUTF8)),
    JSONSample(
      "invalid UTF-8 outside a string", [0x5B, 0xC3, 0xA9, 0x5D],
      .rejected(offset: 1, reason: .unexpectedByte(0xC3, expected: value))),
    JSONSample("valid four-byte UTF-8", quoted([0xF0, 0x9F, 0x98, 0x80]), .accepted),
  ]

  static let surrogates: [JSONSample] = [
    JSONSample(#"a lone high surrogate \uD800"#, #"["\uD800"]"#, unpaired(0xD800)),
    JSONSample(#"a lone low surrogate \uDC00"#, #"["\uDC00"]"#, unpaired(0xDC00)),
    JSONSample(#"a high surrogate before \u0041"#, #"["\uD800\u0041"]"#, unpaired(0xD800)),
    JSONSample(#"two high surrogates"#, #"["\uDBFF\uDBFF"]"#, unpaired(0xDBFF)),
    JSONSample(#"a high surrogate before text"#, #"["\uD83Dx"]"#, unpaired(0xD83D)),
    JSONSample(#"a surrogate pair"#, #"["\uD83D\uDE00"]"#, .accepted),
    JSONSample(#"a short \u escape"#, #"["\u12"]"#, .rejected(offset: 2, reason: .invalidEscape)),
  ]

  static let controls: [JSONSample] = [
    JSONSample("a raw tab in a string", quoted(Array("a\tb".utf8)), raw(0x09, at: 2)),
    JSONSample("a raw line feed in a string", quoted(Array("a\nb".utf8)), raw(0x0A, at: 2)),
    JSONSample("a raw 0x01 in a string", quoted([0x01]), raw(0x01, at: 1)),
    JSONSample("a raw 0x1F in a string", quoted([0x1F]), raw(0x1F, at: 1)),
    JSONSample("a raw NUL in a string", quoted([0x00]), raw(0x00, at: 1)),
    JSONSample("DEL (0x7F) in a string", quoted([0x7F]), .accepted),
    JSONSample(#"an escaped NUL \u0000"#, #"["\u0000"]"#, .accepted),
    JSONSample("escaped control characters", #"["\b\f\n\r\t\u001F"]"#, .accepted),
  ]

  static let cutOff: [JSONSample] = [
    JSONSample("nothing", "", .rejected(offset: 0, reason: .unexpectedEnd(expected: jsonValue))),
    JSONSample(
      "only whitespace", " \t\r\n",
      .rejected(offset: 4, reason: .unexpectedEnd(expected: jsonValue))),
    JSONSample(
      "an unterminated string", #""abc"#,
      .rejected(offset: 4, reason: .unexpectedEnd(expected: #"'"' to end the string"#))),
    JSONSample(
      "a string ending in a backslash", #""abc\"#,
      .rejected(offset: 5, reason: .unexpectedEnd(expected: #"an escape sequence after '\'"#))),
    JSONSample(
      "an unterminated array", "[1,2",
      .rejected(offset: 4, reason: .unexpectedEnd(expected: "',' or ']' after array element"))),
    JSONSample(
      "an unterminated object", #"{"a":1"#,
      .rejected(offset: 6, reason: .unexpectedEnd(expected: "',' or '}' after object member"))),
    JSONSample(
      "an object cut after its key", #"{"a""#,
      .rejected(offset: 4, reason: .unexpectedEnd(expected: "':' after object key"))),
    JSONSample(
      "a lone open brace", "{",
      .rejected(offset: 1, reason: .unexpectedEnd(expected: "a string key or '}'"))),
    JSONSample(
      "a cut-off literal", "[tru", .rejected(offset: 4, reason: .unexpectedEnd(expected: "'true'"))),
  ]

  static let commas: [JSONSample] = [
    JSONSample(
      "a trailing comma in an array", "[1,]", .rejected(offset: 2, reason: .trailingComma)),
    JSONSample(
      #"a trailing comma in an object"#, #"{"a":1,}"#, .rejected(offset: 6, reason: .trailingComma)),
    JSONSample(
      "a nested trailing comma", #"{"a":[1,2,],"b":0}"#,
      .rejected(offset: 9, reason: .trailingComma)),
    JSONSample(
      "a leading comma", "[,1]",
      .rejected(offset: 1, reason: .unexpectedByte(0x2C, expected: value))),
    JSONSample(
      "two commas", "[1,,2]",
      .rejected(offset: 3, reason: .unexpectedByte(0x2C, expected: "a value after ','"))),
  ]

  static let duplicateKeys: [JSONSample] = [
    JSONSample(
      "a duplicate key", #"{"a":1,"a":2}"#, .rejected(offset: 7, reason: .duplicateKey("a"))),
    JSONSample(
      "a duplicate key with the same value", #"{"a":1,"b":0,"a":1}"#,
      .rejected(offset: 13, reason: .duplicateKey("a"))),
    JSONSample(
      "a duplicate key spelled with an escape", #"{"ab":1,"a\u0062":2}"#,
      .rejected(offset: 8, reason: .duplicateKey("ab"))),
    JSONSample(
      "a duplicate key in a nested object", #"[{"x":{"k":1,"k":2}}]"#,
      .rejected(offset: 13, reason: .duplicateKey("k"))),
    JSONSample("equal keys in sibling objects", #"[{"k":1},{"k":2}]"#, .accepted),
  ]

  static let odd: [JSONSample] = [
    JSONSample(
      "a byte order mark", [0xEF, 0xBB, 0xBF] + Array("{}".utf8),
      .rejected(offset: 0, reason: .byteOrderMark)),
    JSONSample(
      "a NUL after the value", Array("[1]".utf8) + [0x00],
      .rejected(offset: 3, reason: .trailingContent(0x00))),
    JSONSample(
      "a NUL before the value", [0x00] + Array("[1]".utf8),
      .rejected(offset: 0, reason: .unexpectedByte(0x00, expected: jsonValue))),
    JSONSample("two values", "[1] [2]", .rejected(offset: 4, reason: .trailingContent(0x5B))),
    JSONSample(
      "a single quote string", "['a']",
      .rejected(offset: 1, reason: .unexpectedByte(0x27, expected: value))),
  ]

  static let long: [JSONSample] = [
    JSONSample("a 1 MiB string", "[\"" + repeated("x", 1 << 20) + "\"]", .accepted),
    JSONSample("a 1 MiB key", "{\"" + repeated("k", 1 << 20) + "\":0}", .accepted),
    JSONSample("100,000 escapes", "[\"" + repeated(#"\u00e9"#, 100_000) + "\"]", .accepted),
    JSONSample(
      "a string of exactly the limit",
      "\"" + repeated("s", JSONLimits.default.maxStringBytes) + "\"",
      .accepted),
    JSONSample(
      "a string one byte past the limit",
      "\"" + repeated("s", JSONLimits.default.maxStringBytes + 1) + "\"",
      .rejected(offset: 0, reason: .stringTooLong(limit: JSONLimits.default.maxStringBytes))),
  ]

  // MARK: Helpers

  /// What the parser says it expects where an array's first element must start, and where the
  /// whole text's value must start.
  static let value = "a value or ']'"
  static let jsonValue = "a JSON value"

  static let badUTF8 = JSONSample.Verdict.rejected(offset: 1, reason: .invalidUTF8)

  static func unpaired(_ unit: UInt16) -> JSONSample.Verdict {
    .rejected(offset: 2, reason: .unpairedSurrogate(unit))
  }

  static func raw(_ byte: UInt8, at offset: Int) -> JSONSample.Verdict {
    .rejected(offset: offset, reason: .controlCharacterInString(byte))
  }

  static func repeated(_ text: String, _ count: Int) -> String {
    String(repeating: text, count: count)
  }

  static func quoted(_ bytes: [UInt8]) -> [UInt8] { [0x22] + bytes + [0x22] }
}

/// Why ``JSONParser`` rejected its input, and where.
///
/// ``offset`` counts bytes from the start of the buffer given to the parser. ``description``
/// reads as one line for people, for example
/// `invalid JSON at byte 17: expected ',' or '}' after object member, found 'x'`.
public struct JSONParseError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
  /// The byte offset of the problem from the start of the parsed buffer.
  ///
  /// For ``Reason/unexpectedEnd(expected:)`` this is the length of the input.
  public var offset: Int

  /// What is wrong at ``offset``.
  public var reason: Reason

  /// Creates an error.
  public init(offset: Int, reason: Reason) {
    self.offset = offset
    self.reason = reason
  }

  /// `invalid JSON at byte N: ` followed by the reason.
  public var description: String {
    "invalid JSON at byte \(offset): \(reason)"
  }

  /// What is wrong with the input at the error's offset.
  public enum Reason: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The input ended where more was needed; `expected` says what.
    case unexpectedEnd(expected: String)
    /// A byte that cannot stand here; `expected` says what could.
    case unexpectedByte(UInt8, expected: String)
    /// Bytes that are not well-formed UTF-8: a stray continuation byte, an overlong form,
    /// an encoded surrogate, a code point past U+10FFFF or a cut-off sequence.
    case invalidUTF8
    /// The input starts with the UTF-8 byte order mark EF BB BF, which RFC 8259 forbids.
    case byteOrderMark
    /// More arrays and objects open at once than ``JSONLimits/maxDepth``.
    case tooDeep(limit: Int)
    /// More values in the document than ``JSONLimits/maxElements`` (or
    /// ``JSONLimits/elementCeiling``).
    case tooManyElements(limit: Int)
    /// A text longer than ``JSONLimits/byteCeiling``; the offset is 0.
    case documentTooLarge(limit: Int)
    /// A number that does not follow the JSON grammar.
    case invalidNumber(NumberDefect)
    /// A number literal longer than ``JSONLimits/maxNumberLength``.
    case numberTooLong(limit: Int)
    /// A string longer than ``JSONLimits/maxStringBytes`` once unescaped.
    case stringTooLong(limit: Int)
    /// A backslash escape other than `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t` and `\uXXXX`.
    case invalidEscape
    /// A `\u` escape of a UTF-16 surrogate that is not part of a high-low pair.
    case unpairedSurrogate(UInt16)
    /// A raw control character (below U+0020) inside a string; it must be escaped.
    case controlCharacterInString(UInt8)
    /// A key that occurs twice in one object. Keys compare as Swift strings, so canonically
    /// equivalent spellings count as the same key.
    case duplicateKey(String)
    /// A `,` followed by `]` or `}`; the offset is the comma's.
    case trailingComma
    /// Something other than whitespace after the top-level value.
    case trailingContent(UInt8)

    /// The reason as a phrase, without the offset.
    public var description: String {
      switch self {
      case .unexpectedEnd(let expected):
        return "unexpected end of input, expected \(expected)"
      case .unexpectedByte(let byte, let expected):
        return "expected \(expected), found \(Self.describe(byte))"
      case .invalidUTF8:
        return "invalid UTF-8 byte sequence"
      case .byteOrderMark:
        return "byte order mark (EF BB BF) is not allowed; JSON text must start with a value"
      case .tooDeep(let limit):
        return "nested too deeply: more than \(limit) arrays and objects open at once"
      case .tooManyElements(let limit):
        return "too many values: the document holds more than \(limit)"
      case .documentTooLarge(let limit):
        return "the document is longer than \(limit) bytes, the most Rewind's JSON reader reads"
      case .invalidNumber(let defect):
        return "invalid number: \(defect)"
      case .numberTooLong(let limit):
        return "number literal is longer than \(limit) characters"
      case .stringTooLong(let limit):
        return "string is longer than \(limit) bytes"
      case .invalidEscape:
        return "invalid escape sequence in string; "
          + #"valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#
      case .unpairedSurrogate(let unit):
        let hex = String(unit, radix: 16, uppercase: true)
        return "unpaired UTF-16 surrogate \\u\(hex) in string; "
          + #"a high surrogate \uD800-\uDBFF must be followed by a low one \uDC00-\uDFFF"#
      case .controlCharacterInString(let byte):
        return "unescaped control character \(Self.hex(byte)) in string; "
          + "write it as \(Self.escape(for: byte))"
      case .duplicateKey(let key):
        return "duplicate key \(Self.quote(key)) in object"
      case .trailingComma:
        return "trailing comma: a ',' must be followed by another element"
      case .trailingContent(let byte):
        return
          "unexpected \(Self.describe(byte)) after the JSON value; only whitespace may follow it"
      }
    }

    /// `'x'` for printable ASCII, `byte 0xNN` otherwise.
    static func describe(_ byte: UInt8) -> String {
      if byte >= 0x20 && byte < 0x7F {
        return "'\(Character(Unicode.Scalar(byte)))'"
      }
      return "byte \(hex(byte))"
    }

    static func hex(_ byte: UInt8) -> String {
      let digits = String(byte, radix: 16, uppercase: true)
      return byte < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }

    static func escape(for byte: UInt8) -> String {
      switch byte {
      case 0x08: return #"\b"#
      case 0x09: return #"\t"#
      case 0x0A: return #"\n"#
      case 0x0C: return #"\f"#
      case 0x0D: return #"\r"#
      default:
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "\\u000\(digits)" : "\\u00\(digits)"
      }
    }

    static func quote(_ key: String) -> String {
      let shown = key.count > 40 ? key.prefix(40) + "…" : Substring(key)
      return "\"\(shown)\""
    }
  }

  /// How a number literal breaks the JSON grammar.
  public enum NumberDefect: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A zero followed by more digits, as in `01`.
    case leadingZero
    /// A `-` not followed by a digit, as in `-a`.
    case missingIntegerDigits
    /// A `.` not followed by a digit, as in `1.` or `1.e3`.
    case missingFractionDigits
    /// An `e` or `E` (and optional sign) not followed by a digit, as in `1e`.
    case missingExponentDigits

    /// The defect as a phrase.
    public var description: String {
      switch self {
      case .leadingZero: return "leading zeros are not allowed"
      case .missingIntegerDigits: return "expected a digit after '-'"
      case .missingFractionDigits: return "expected a digit after '.'"
      case .missingExponentDigits: return "expected a digit in the exponent"
      }
    }
  }
}

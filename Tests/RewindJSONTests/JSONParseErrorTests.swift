import Testing

@testable import RewindJSON

/// Every kind of malformed input, with the exact offset and reason the parser reports.
@Suite struct JSONParseErrorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var input: [UInt8]
    var offset: Int
    var reason: JSONParseError.Reason

    init(_ input: String, _ offset: Int, _ reason: JSONParseError.Reason) {
      self.input = Array(input.utf8)
      self.offset = offset
      self.reason = reason
    }

    init(bytes: [UInt8], _ offset: Int, _ reason: JSONParseError.Reason) {
      self.input = bytes
      self.offset = offset
      self.reason = reason
    }

    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }
  }

  static let cases: [Case] = [
    Case("", 0, .unexpectedEnd(expected: "a JSON value")),
    Case("   ", 3, .unexpectedEnd(expected: "a JSON value")),
    Case("[", 1, .unexpectedEnd(expected: "a value or ']'")),
    Case("[1", 2, .unexpectedEnd(expected: "',' or ']' after array element")),
    Case("[1,", 3, .unexpectedEnd(expected: "a value after ','")),
    Case("{", 1, .unexpectedEnd(expected: "a string key or '}'")),
    Case(#"{"a""#, 4, .unexpectedEnd(expected: "':' after object key")),
    Case(#"{"a":"#, 5, .unexpectedEnd(expected: "a value after ':'")),
    Case(#"{"a":1"#, 6, .unexpectedEnd(expected: "',' or '}' after object member")),
    Case(#"{"a":1,"#, 7, .unexpectedEnd(expected: "a string key after ','")),
    Case(#""abc"#, 4, .unexpectedEnd(expected: "'\"' to end the string")),
    Case(#""\"#, 2, .unexpectedEnd(expected: "an escape sequence after '\\'")),
    Case(#""\u12"#, 5, .unexpectedEnd(expected: "four hex digits after '\\u'")),
    Case(#""\uD800"#, 7, .unexpectedEnd(expected: "a low surrogate escape")),
    Case("tru", 3, .unexpectedEnd(expected: "'true'")),
    Case("-", 1, .unexpectedEnd(expected: "a digit after '-'")),
    Case("1.", 2, .unexpectedEnd(expected: "a digit after '.'")),
    Case("1e+", 3, .unexpectedEnd(expected: "a digit in the exponent")),
    Case(#"{"a":1x}"#, 6, .unexpectedByte(0x78, expected: "',' or '}' after object member")),
    Case("[1 2]", 3, .unexpectedByte(0x32, expected: "',' or ']' after array element")),
    Case("{1:2}", 1, .unexpectedByte(0x31, expected: "a string key or '}'")),
    Case("{'a':1}", 1, .unexpectedByte(0x27, expected: "a string key or '}'")),
    Case(#"{"a" 1}"#, 5, .unexpectedByte(0x31, expected: "':' after object key")),
    Case("['a']", 1, .unexpectedByte(0x27, expected: "a value or ']'")),
    Case("+1", 0, .unexpectedByte(0x2B, expected: "a JSON value")),
    Case(".5", 0, .unexpectedByte(0x2E, expected: "a JSON value")),
    Case("[NaN]", 1, .unexpectedByte(0x4E, expected: "a value or ']'")),
    Case("[Infinity]", 1, .unexpectedByte(0x49, expected: "a value or ']'")),
    Case("[1,/*c*/2]", 3, .unexpectedByte(0x2F, expected: "a value after ','")),
    Case(#"{"a"://c"#, 5, .unexpectedByte(0x2F, expected: "a value after ':'")),
    Case("[truth]", 4, .unexpectedByte(0x74, expected: "'true'")),
    Case("nul", 3, .unexpectedEnd(expected: "'null'")),
    Case("[True]", 1, .unexpectedByte(0x54, expected: "a value or ']'")),
    Case("[1,]", 2, .trailingComma),
    Case(#"{"a":1 , }"#, 7, .trailingComma),
    Case("[,1]", 1, .unexpectedByte(0x2C, expected: "a value or ']'")),
    Case("[1,,2]", 3, .unexpectedByte(0x2C, expected: "a value after ','")),
    Case("01", 1, .invalidNumber(.leadingZero)),
    Case("[-01]", 3, .invalidNumber(.leadingZero)),
    Case("-a", 1, .invalidNumber(.missingIntegerDigits)),
    Case("-.5", 1, .invalidNumber(.missingIntegerDigits)),
    Case("[1.e3]", 3, .invalidNumber(.missingFractionDigits)),
    Case("[1.]", 3, .invalidNumber(.missingFractionDigits)),
    Case("[1e]", 3, .invalidNumber(.missingExponentDigits)),
    Case("[1e+-2]", 4, .invalidNumber(.missingExponentDigits)),
    Case("[1.5.3]", 4, .unexpectedByte(0x2E, expected: "',' or ']' after array element")),
    Case("[0x10]", 2, .unexpectedByte(0x78, expected: "',' or ']' after array element")),
    Case(#"["a\x"]"#, 3, .invalidEscape),
    Case(#"["\u12G4"]"#, 2, .invalidEscape),
    Case(#"["\U0041"]"#, 2, .invalidEscape),
    Case(#"["\'"]"#, 2, .invalidEscape),
    Case(#"["ab\uDC00"]"#, 4, .unpairedSurrogate(0xDC00)),
    Case(#"["\uD800"]"#, 2, .unpairedSurrogate(0xD800)),
    Case(#"["\uD800x"]"#, 2, .unpairedSurrogate(0xD800)),
    Case(#"["\uD800\n"]"#, 2, .unpairedSurrogate(0xD800)),
    Case(#"["\uDBFF\uDBFF"]"#, 2, .unpairedSurrogate(0xDBFF)),
    Case(#"["\uD800\u0041"]"#, 2, .unpairedSurrogate(0xD800)),
    Case("[\"a\tb\"]", 3, .controlCharacterInString(0x09)),
    Case("\"\n\"", 1, .controlCharacterInString(0x0A)),
    Case(#"{"a":1,"b":2,"a":3}"#, 13, .duplicateKey("a")),
    Case(#"{"a":1,"a":1}"#, 7, .duplicateKey("a")),
    Case("[] []", 3, .trailingContent(0x5B)),
    Case("1 2", 2, .trailingContent(0x32)),
    Case("{}x", 2, .trailingContent(0x78)),
    Case("\"a\"\u{0}", 3, .trailingContent(0x00)),
    Case(bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], 0, .byteOrderMark),
    Case(bytes: [0x22, 0xC0, 0xAF, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0x61, 0xED, 0xA0, 0x80, 0x22], 2, .invalidUTF8),
    Case(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0x80, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0xFF, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0xE2, 0x82, 0x22], 1, .invalidUTF8),
    Case(bytes: [0x22, 0xE2, 0x82], 1, .invalidUTF8),
    Case(bytes: [0x22, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0xC3], 9, .invalidUTF8),
    Case(bytes: [0x5B, 0xFF, 0x5D], 1, .invalidUTF8),
    Case(bytes: [0x5B, 0xC3, 0xA9, 0x5D], 1, .unexpectedByte(0xC3, expected: "a value or ']'")),
    Case(bytes: [0x5B, 0x00, 0x5D], 1, .unexpectedByte(0x00, expected: "a value or ']'")),
    Case(bytes: [0x22, 0x00, 0x22], 1, .controlCharacterInString(0x00)),
    Case(bytes: [0x00], 0, .unexpectedByte(0x00, expected: "a JSON value")),
    Case(bytes: [0xFF, 0xFE, 0x5B, 0x00], 0, .invalidUTF8),
    Case("\u{A0}1", 0, .unexpectedByte(0xC2, expected: "a JSON value")),
    Case("[1]\u{C}", 3, .trailingContent(0x0C)),
  ]

  @Test(arguments: cases)
  func reportsTheExactOffsetAndReason(_ testCase: Case) {
    #expect(throws: JSONParseError(offset: testCase.offset, reason: testCase.reason)) {
      try JSONParser.parse(testCase.input)
    }
  }

  @Test func describesAnUnexpectedByteWithWhatWasExpected() {
    let error = JSONParseError(
      offset: 17, reason: .unexpectedByte(0x78, expected: "',' or '}' after object member"))
    #expect(
      error.description
        == "invalid JSON at byte 17: expected ',' or '}' after object member, found 'x'")
  }

  @Test func descriptionsReadAsOneSpecificLine() throws {
    let expectations: [(String, String)] = [
      (#"{"a":1x}"#, "invalid JSON at byte 6: expected ',' or '}' after object member, found 'x'"),
      (
        "[1,2",
        "invalid JSON at byte 4: unexpected end of input, expected ',' or ']' after array element"
      ),
      ("[1,]", "invalid JSON at byte 2: trailing comma: a ',' must be followed by another element"),
      ("[01]", "invalid JSON at byte 2: invalid number: leading zeros are not allowed"),
      (#"{"id":1,"id":2}"#, #"invalid JSON at byte 8: duplicate key "id" in object"#),
      (
        "\"a\tb\"",
        #"invalid JSON at byte 2: unescaped control character 0x09 in string; write it as \t"#
      ),
      (
        "\"\u{1}\"",
        #"invalid JSON at byte 1: unescaped control character 0x01 in string; write it as \u0001"#
      ),
      (
        #"["\uDEAD"]"#,
        #"invalid JSON at byte 2: unpaired UTF-16 surrogate \uDEAD in string; a high surrogate \uD800-\uDBFF must be followed by a low one \uDC00-\uDFFF"#
      ),
      (
        #""\q""#,
        #"invalid JSON at byte 1: invalid escape sequence in string; valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#
      ),
      (
        "{} {}",
        "invalid JSON at byte 3: unexpected '{' after the JSON value; only whitespace may follow it"
      ),
      (
        "\u{FEFF}[]",
        "invalid JSON at byte 0: byte order mark (EF BB BF) is not allowed; JSON text must start with a value"
      ),
      (
        "[\n]\n\n\u{7}",
        "invalid JSON at byte 5: unexpected byte 0x07 after the JSON value; only whitespace may follow it"
      ),
    ]
    for (input, description) in expectations {
      #expect(throws: (any Error).self) { try JSONParser.parse(input) }
      let result = Result { () throws(JSONParseError) in try JSONParser.parse(input) }
      guard case .failure(let error) = result else { continue }
      #expect(error.description == description)
    }
    let deep = String(repeating: "[", count: 600)
    let result = Result { () throws(JSONParseError) in try JSONParser.parse(deep) }
    guard case .failure(let error) = result else {
      Issue.record("600 nested arrays parsed")
      return
    }
    #expect(
      error.description
        == "invalid JSON at byte 512: nested too deeply: more than 512 arrays and objects open at once"
    )
  }

  @Test func describesInvalidUTF8AndLimits() {
    #expect(
      JSONParseError(offset: 3, reason: .invalidUTF8).description
        == "invalid JSON at byte 3: invalid UTF-8 byte sequence")
    #expect(
      JSONParseError(offset: 0, reason: .stringTooLong(limit: 10)).description
        == "invalid JSON at byte 0: string is longer than 10 bytes")
    #expect(
      JSONParseError(offset: 0, reason: .numberTooLong(limit: 5)).description
        == "invalid JSON at byte 0: number literal is longer than 5 characters")
    #expect(
      JSONParseError(offset: 9, reason: .tooManyElements(limit: 3)).description
        == "invalid JSON at byte 9: too many values: the document holds more than 3")
  }
}

import Testing

@testable import RewindJSON

@Suite struct JSONWriterTests {
  @Test func writesCompactlyInMemberOrder() {
    let value = JSONValue.object([
      JSONMember(
        "z", .array([.number("1"), .number("-2.5e-7"), .bool(true), .bool(false), .null])),
      JSONMember("a", .object([JSONMember("b", .string("c"))])),
      JSONMember("e", .array([])),
      JSONMember("o", .object([])),
    ])
    #expect(value.jsonText == #"{"z":[1,-2.5e-7,true,false,null],"a":{"b":"c"},"e":[],"o":{}}"#)
    #expect(value.serializedBytes == Array(value.jsonText.utf8))
  }

  @Test func escapesQuotesBackslashesAndControlCharacters() {
    let text = "\"\\\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1F}"
    #expect(JSONValue.string(text).jsonText == #""\"\\\b\f\n\r\t\u0000\u0001\u001f""#)
  }

  @Test func leavesSlashDeleteAndNonASCIIRaw() {
    let text = "a/b \u{7F} é € 😀 \u{2028}\u{2029}"
    #expect(JSONValue.string(text).jsonText == "\"\(text)\"")
  }

  @Test func escapesKeysLikeValues() {
    let value = JSONValue.object([JSONMember("a\"b\n", .null)])
    #expect(value.jsonText == #"{"a\"b\n":null}"#)
  }

  @Test func escapesEveryControlCharacterSoTheParserReadsItBack() throws {
    let text = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self) + "\"\\"
    let written = JSONValue.string(text).jsonText
    #expect(written.utf8.allSatisfy { $0 >= 0x20 })
    #expect(try JSONParser.parse(written) == .string(text))
  }

  @Test func appendsToExistingBytes() {
    var bytes = Array("prefix ".utf8)
    JSONValue.array([.number("1")]).write(into: &bytes)
    JSONValue.string("x").write(into: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == #"prefix [1]"x""#)
  }

  @Test func prettyPrintsWithIndentation() throws {
    let value = try JSONParser.parse(#"{"a":[1,{"b":null}],"c":{},"d":[],"e":"x"}"#)
    #expect(
      value.prettyText() == """
        {
          "a": [
            1,
            {
              "b": null
            }
          ],
          "c": {},
          "d": [],
          "e": "x"
        }
        """)
    #expect(
      JSONValue.array([.number("1"), .array([.null])]).prettyText(indent: 4) == """
        [
            1,
            [
                null
            ]
        ]
        """)
    #expect(JSONValue.string("s").prettyText() == #""s""#)
  }

  @Test func describesItselfAsCompactJSON() {
    #expect("\(JSONValue.array([.string("a"), .null]))" == #"["a",null]"#)
  }
}

import Testing

@testable import RewindJSON

/// ``JSONScan/forEachMember(ofObjectIn:_:)`` — how a log's header is read without a tape — finds
/// the members the parser finds, each value's text exactly, however the object is spaced and its
/// keys escaped.
@Suite struct JSONScanMembersTests {
  /// The members found in `text`, each value as its text.
  func members(_ text: String) -> [(String, String)] {
    Array(text.utf8).withUnsafeBytes { bytes in
      var found: [(String, String)] = []
      JSONScan.forEachMember(ofObjectIn: bytes) { key, range in
        found.append((key, String(decoding: bytes[range], as: UTF8.self)))
      }
      return found
    }
  }

  @Test(arguments: [
    #"{"a":1,"state":{"x":[1,"}",{"y":"\""}]},"b":"q"}"#,
    " \t{ \"a\" :\r1 ,\n\"state\"\t:\t{\"x\" : [ 1 , \"}\" ] } , \"b\" : \"q\" }  ",
    #"{"st\u0061te":{"k":"v"},"a\"b":true,"c\\":null,"é":-1.5e3}"#,
    #"{"c":"00000000","kind":"header","state":[[],{},""]}"#,
    "{}",
    "{ }",
  ])
  func membersAreThoseTheParserReads(_ text: String) throws {
    let parsed = try JSONParser.parse(Array(text.utf8))
    guard case .object(let expected) = parsed else {
      Issue.record("not an object: \(text)")
      return
    }
    let found = members(text)
    #expect(found.map(\.0) == expected.map(\.key))
    for ((key, valueText), member) in zip(found, expected) {
      #expect(
        try JSONParser.parse(Array(valueText.utf8)) == member.value,
        "\(key): \(valueText)")
      #expect(valueText.first.map { !$0.isWhitespace } ?? false, "no leading space: \(valueText)")
      #expect(valueText.last.map { !$0.isWhitespace } ?? false, "no trailing space: \(valueText)")
    }
  }

  @Test func aTextThatIsNotAnObjectHasNoMembers() {
    #expect(members("[1,2]").isEmpty)
    #expect(members(#""state""#).isEmpty)
    #expect(members("").isEmpty)
  }
}

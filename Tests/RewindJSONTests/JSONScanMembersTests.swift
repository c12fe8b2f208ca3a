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

/// ``JSONScan/entryBound(in:)``, which sizes a long array's tape before it is read whole: never
/// fewer entries than the read takes, and exactly as many when no container is empty.
@Suite struct JSONScanEntryBoundTests {
  func entriesRead(_ text: String) -> Int? {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { buffer in
      let document = JSONTapeDocument(limits: .unlimited, lazyContainerEntries: .max)
      guard document.load(buffer) else { return nil }
      return document.tape.count
    }
  }

  func bound(_ text: String) -> Int {
    Array(text.utf8).withUnsafeBytes { JSONScan.entryBound(in: $0) }
  }

  @Test(arguments: [
    #"[{"id":1,"title":"a, b: [c] {d}","done":true},{"id":2,"title":"\"q\\","done":false}]"#,
    #"{"a":[1,2,3],"b":{"c":null,"d":"x"},"e":"é"}"#,
    " [ 1 , [ 2 , [ 3 ] ] , { \"k\" : \"v\" } ] ",
    "42",
    #""just a string, with: [brackets]""#,
  ])
  func isExactWithoutEmptyContainers(_ text: String) throws {
    #expect(bound(text) == (try #require(entriesRead(text))), "\(text)")
  }

  @Test(arguments: [#"[[],{},[{}],""]"#, #"{"a":[],"b":{},"c":[[]]}"#])
  func coversEmptyContainers(_ text: String) throws {
    let entries = try #require(entriesRead(text))
    #expect(bound(text) >= entries)
    #expect(bound(text) <= entries + 4)
  }
}

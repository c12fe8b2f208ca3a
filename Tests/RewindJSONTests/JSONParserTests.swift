import Foundation
import Testing

@testable import RewindJSON

@Suite struct JSONParserTests {
  @Test func parsesEveryKindOfValue() throws {
    let value = try JSONParser.parse(
      #" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}, "e": "", "f": [], "g": {}} "#)
    #expect(
      value
        == .object([
          JSONMember(
            "a", .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null])),
          JSONMember("b", .object([JSONMember("c", .string("d"))])),
          JSONMember("e", .string("")),
          JSONMember("f", .array([])),
          JSONMember("g", .object([])),
        ]))
  }

  @Test func keepsObjectMembersInDocumentOrder() throws {
    let value = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#)
    guard case .object(let members) = value else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["z", "a", "m"])
  }

  @Test(arguments: [
    "0", "-0", "1", "-1", "0.5", "-0.5", "1e5", "1E5", "1e+5", "1e-5", "1.5e-300",
    "123456789012345678901234567890", "0e0", "-0.0e-0", "9007199254740993",
  ])
  func keepsNumberLiteralText(_ literal: String) throws {
    #expect(try JSONParser.parse(literal) == .number(literal))
    #expect(try JSONParser.parse("[\(literal)]") == .array([.number(literal)]))
  }

  @Test func scalarsStandAloneAtTopLevel() throws {
    #expect(try JSONParser.parse("true") == .bool(true))
    #expect(try JSONParser.parse("null") == .null)
    #expect(try JSONParser.parse(#""x""#) == .string("x"))
    #expect(try JSONParser.parse(" \t\r\n42\n") == .number("42"))
  }

  @Test func unescapesEveryEscape() throws {
    let value = try JSONParser.parse(#""\"\\\/\b\f\n\r\t\u0041\u00e9\u20AC\ud83d\ude00\u0000""#)
    #expect(value == .string("\"\\/\u{8}\u{C}\n\r\tAé€😀\u{0}"))
  }

  @Test func readsRawUTF8InStrings() throws {
    let text = "é€😀 \u{2028}\u{2029} 日本語 \u{7F}"
    #expect(try JSONParser.parse("\"\(text)\"") == .string(text))
  }

  @Test func readsLongStringsAcrossTheWordAtATimeFastPath() throws {
    for length in 0..<40 {
      let plain = String(repeating: "a", count: length)
      #expect(try JSONParser.parse("\"\(plain)\"") == .string(plain))
      let withEscape = plain + "\\n" + plain
      #expect(try JSONParser.parse("\"\(withEscape)\"") == .string(plain + "\n" + plain))
      let withQuoteAtEnd = "\"" + plain + "\\\"\""
      #expect(try JSONParser.parse(withQuoteAtEnd) == .string(plain + "\""))
    }
  }

  @Test func readsKeysWithEscapesAndNul() throws {
    let value = try JSONParser.parse(#"{"a\u0000b":1,"":2}"#)
    #expect(value == .object([JSONMember("a\u{0}b", .number("1")), JSONMember("", .number("2"))]))
  }

  @Test func acceptsEveryConvenienceInput() throws {
    let text = #"{"add":{"title":"Buy milk"}}"#
    let expected = try JSONParser.parse(text)
    #expect(try JSONParser.parse(Array(text.utf8)) == expected)
    #expect(try JSONParser.parse(Data(text.utf8)) == expected)
    #expect(try JSONParser.parse(ContiguousArray(text.utf8)) == expected)
    #expect(try JSONParser.parse(text.utf8) == expected)
    #expect(try JSONParser.parse(text.utf8.lazy.map { $0 }) == expected)
    let result = Array(text.utf8).withUnsafeBytes { buffer in
      Result { () throws(JSONParseError) in try JSONParser.parse(buffer) }
    }
    #expect(try result.get() == expected)
  }

  @Test func offsetsCountFromTheStartOfASlice() {
    let bytes = Array("xxxx[1,]".utf8)
    #expect(throws: JSONParseError(offset: 2, reason: .trailingComma)) {
      try JSONParser.parse(bytes[4...])
    }
  }

  @Test func nestsUpToTheDepthLimit() throws {
    for depth in [1, 2, 100, 511, 512] {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      #expect(throws: Never.self) { try JSONParser.parse(arrays) }
      let objects =
        String(repeating: #"{"a":"#, count: depth - 1) + "{}"
        + String(repeating: "}", count: depth - 1)
      #expect(throws: Never.self) { try JSONParser.parse(objects) }
    }
  }

  @Test func rejectsNestingPastTheDepthLimitAtTheFirstContainerTooMany() {
    for depth in [513, 514, 1000, 2000] {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      #expect(throws: JSONParseError(offset: 512, reason: .tooDeep(limit: 512))) {
        try JSONParser.parse(arrays)
      }
      let objects =
        String(repeating: #"{"a":"#, count: depth - 1) + "{}"
        + String(repeating: "}", count: depth - 1)
      #expect(throws: JSONParseError(offset: 512 * 5, reason: .tooDeep(limit: 512))) {
        try JSONParser.parse(objects)
      }
    }
  }

  @Test func everyNestingDepthFromOneToTwoThousandEitherParsesOrIsTooDeep() {
    for depth in 1...2000 {
      let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      let objects =
        String(repeating: #"{"":"#, count: depth) + "0"
        + String(repeating: "}", count: depth)
      for text in [arrays, objects] {
        switch Result(catching: { () throws(JSONParseError) in try JSONParser.parse(text) }) {
        case .success: #expect(depth <= 512)
        case .failure(let error): #expect(depth > 512 && error.reason == .tooDeep(limit: 512))
        }
      }
    }
  }

  @Test func honoursACustomDepthLimit() {
    let limits = JSONLimits(maxDepth: 2)
    #expect(throws: Never.self) { try JSONParser.parse("[[1]]", limits: limits) }
    #expect(throws: JSONParseError(offset: 2, reason: .tooDeep(limit: 2))) {
      try JSONParser.parse("[[[]]]", limits: limits)
    }
    #expect(throws: JSONParseError(offset: 0, reason: .tooDeep(limit: 0))) {
      try JSONParser.parse("[]", limits: JSONLimits(maxDepth: 0))
    }
  }

  @Test func hundredThousandOpenArraysOnASmallStackFailCleanly() async {
    let text = String(repeating: "[", count: 100_000)
    let outcome = await withCheckedContinuation {
      (continuation: CheckedContinuation<JSONParseError?, Never>) in
      let thread = Thread {
        let result = Result { () throws(JSONParseError) in try JSONParser.parse(text) }
        if case .failure(let error) = result {
          continuation.resume(returning: error)
        } else {
          continuation.resume(returning: nil)
        }
      }
      thread.stackSize = 256 * 1024
      thread.start()
    }
    #expect(outcome == JSONParseError(offset: 512, reason: .tooDeep(limit: 512)))
  }

  @Test func deepNestingWithoutADepthLimitDoesNotRecurse() async {
    let depth = 100_000
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let parsed: Bool = await withCheckedContinuation { continuation in
      let thread = Thread {
        var limits = JSONLimits.default
        limits.maxDepth = .max
        // Take the value apart level by level, holding each child before its parent goes, so
        // that freeing it does not recurse either.
        var current = try? JSONParser.parse(text, limits: limits)
        var levels = 0
        while case .array(let elements)? = current {
          levels += 1
          current = elements.first
        }
        continuation.resume(returning: levels == depth)
      }
      thread.stackSize = 256 * 1024
      thread.start()
    }
    #expect(parsed)
  }

  @Test func enforcesTheStringLengthLimitBeforeAndAfterUnescaping() {
    let limits = JSONLimits(maxStringBytes: 4)
    #expect(throws: Never.self) { try JSONParser.parse(#"["abcd","ab\nc"]"#, limits: limits) }
    #expect(throws: Never.self) { try JSONParser.parse(#""\u00e9\u00e9""#, limits: limits) }
    #expect(throws: JSONParseError(offset: 1, reason: .stringTooLong(limit: 4))) {
      try JSONParser.parse(#"["abcde"]"#, limits: limits)
    }
    #expect(throws: JSONParseError(offset: 1, reason: .stringTooLong(limit: 4))) {
      try JSONParser.parse(#"{"ab\ncde":1}"#, limits: limits)
    }
  }

  @Test func enforcesTheNumberLengthLimit() {
    let limits = JSONLimits(maxNumberLength: 3)
    #expect(throws: Never.self) { try JSONParser.parse("[-12]", limits: limits) }
    #expect(throws: JSONParseError(offset: 1, reason: .numberTooLong(limit: 3))) {
      try JSONParser.parse("[1.25]", limits: limits)
    }
  }

  @Test func enforcesTheElementLimitOverTheWholeDocument() {
    let limits = JSONLimits(maxElements: 3)
    #expect(throws: Never.self) { try JSONParser.parse(#"[1,{"a":2}]"#, limits: limits) }
    #expect(throws: JSONParseError(offset: 11, reason: .tooManyElements(limit: 3))) {
      try JSONParser.parse(#"[1,{"a":2},3]"#, limits: limits)
    }
  }

  @Test func detectsDuplicateKeysInSmallAndLargeObjects() {
    for count in [1, 7, 8, 9, 50] {
      let members = (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
      #expect(throws: Never.self) { try JSONParser.parse("{\(members)}") }
      let text = "{\(members),\"k0\":0}"
      #expect(throws: JSONParseError(offset: text.utf8.count - 7, reason: .duplicateKey("k0"))) {
        try JSONParser.parse(text)
      }
    }
  }

  @Test func sameKeyInDifferentObjectsIsNotADuplicate() throws {
    #expect(throws: Never.self) { try JSONParser.parse(#"{"a":{"a":1},"b":{"a":2}}"#) }
  }

  @Test func canonicallyEquivalentKeysAreDuplicates() {
    #expect(throws: JSONParseError(offset: 8, reason: .duplicateKey("e\u{301}"))) {
      try JSONParser.parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
    }
  }
}

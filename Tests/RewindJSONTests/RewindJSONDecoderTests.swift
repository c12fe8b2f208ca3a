import Foundation
import Testing

@testable import RewindJSON

@Suite struct RewindJSONDecoderTests {
  func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try RewindJSONDecoder().decode(type, from: Array(json.utf8))
  }

  /// The one-line summary of the `DecodingError` that decoding `json` throws.
  func failure<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
    do {
      _ = try decode(type, json)
      return nil
    } catch let error as DecodingError {
      return error.summary
    } catch {
      return "not a DecodingError: \(error)"
    }
  }

  @Test func decodesActionsAndTheirAssociatedValues() throws {
    #expect(
      try decode(TodoAction.self, #"{"add":{"title":"Buy milk"}}"#) == .add(title: "Buy milk"))
    #expect(try decode(TodoAction.self, #"{"clear":{}}"#) == .clear)
    #expect(try decode(TodoAction.self, #"{"setNote":{"_0":null}}"#) == .setNote(nil))
    #expect(try decode(TodoAction.self, #"{"move":{"to":2,"from":1}}"#) == .move(from: 1, to: 2))
  }

  @Test func reportsMissingKeysWithTheirPath() {
    #expect(failure(TodoAction.self, #"{"add":{}}"#) == "add.title: key not found")
    #expect(
      failure([TodoAction].self, #"[{"clear":{}},{"add":{"titel":"x"}}]"#)
        == "[1].add.title: key not found")
  }

  @Test func reportsTypeMismatchesAndNulls() {
    #expect(
      failure(TodoAction.self, #"{"add":{"title":3}}"#)
        == "add.title: expected String, found number")
    #expect(
      failure(TodoAction.self, #"{"add":{"title":null}}"#)
        == "add.title: expected String, found null")
    #expect(failure([Int].self, #"[1,"2"]"#) == "[1]: expected Int, found string")
    #expect(failure([Int].self, #"{"a":1}"#) == "expected array, found object")
    #expect(failure(TodoAction.self, "[1]") == "expected object, found array")
    #expect(failure([String: Bool].self, #"{"a":1}"#) == "a: expected Bool, found number")
    #expect(failure(Todo.self, "null") == "expected object, found null")
  }

  @Test(
    arguments: [
      ("[127]", nil), ("[-128]", nil), ("[1.27e2]", nil),
      ("[128]", "[0]: number 128 does not fit in Int8"),
      ("[-129]", "[0]: number -129 does not fit in Int8"),
      ("[300]", "[0]: number 300 does not fit in Int8"),
      ("[1.5]", "[0]: number 1.5 is not a whole number, expected Int8"),
      ("[1e400]", "[0]: number 1e400 does not fit in Int8"),
    ] as [(String, String?)])
  func checksIntegerRangesExactly(_ json: String, _ expected: String?) {
    #expect(failure([Int8].self, json) == expected)
  }

  @Test func decodesEveryIntegerWidthAtItsLimits() throws {
    let json =
      #"{"int":-9223372036854775808,"int8":-128,"int16":32767,"int32":-2147483648,"int64":9223372036854775807,"uint":18446744073709551615,"uint8":255,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615}"#
    let widths = try decode(IntegerWidths.self, json)
    #expect(
      widths.int == .min && widths.int8 == .min && widths.int16 == .max && widths.int32 == .min)
    #expect(widths.int64 == .max && widths.uint == .max && widths.uint8 == .max)
    #expect(widths.uint16 == .max && widths.uint32 == .max && widths.uint64 == .max)
    #expect(failure(UInt8.self, "256") == "number 256 does not fit in UInt8")
    #expect(failure(UInt.self, "-1") == "number -1 does not fit in UInt")
    #expect(
      failure(UInt64.self, "18446744073709551616")
        == "number 18446744073709551616 does not fit in UInt64")
    #expect(
      failure(Int.self, "9223372036854775808") == "number 9223372036854775808 does not fit in Int")
    #expect(try decode(Int.self, "-9223372036854775808") == .min)
    #expect(try decode(UInt.self, "-0") == 0)
  }

  @Test func acceptsWholeNumbersWrittenWithFractionsOrExponents() throws {
    #expect(
      try decode([Int].self, "[1.0,1e2,1E2,100e-2,-0.0,0e99,12.5e1,1.000]") == [
        1, 100, 100, 1, 0, 0, 125, 1,
      ])
    #expect(try decode(Int64.self, "9.223372036854775807e18") == .max)
    #expect(try decode(UInt64.self, "1.8446744073709551615e19") == .max)
    #expect(
      failure(Int.self, "1.0000000000000001")
        == "number 1.0000000000000001 is not a whole number, expected Int")
    #expect(failure(Int.self, "1e-1") == "number 1e-1 is not a whole number, expected Int")
    #expect(failure(Int.self, "1e20") == "number 1e20 does not fit in Int")
    #expect(
      failure(Int.self, "0.5e99999999999999") == "number 0.5e99999999999999 does not fit in Int")
  }

  @Test func decodesFloatingPointNumbers() throws {
    #expect(try decode([Double].self, "[1,0.1,-2.5e-3,1E300]") == [1, 0.1, -2.5e-3, 1e300])
    #expect(try decode(Double.self, "-0").sign == .minus)
    #expect(try decode(Float.self, "0.1") == Float(0.1))
    #expect(try decode(Float.self, "3.4028235e38") == .greatestFiniteMagnitude)
    #expect(failure(Float.self, "1e39") == "number 1e39 does not fit in Float")
    #expect(failure(Double.self, "1e400") == "number 1e400 does not fit in Double")
    #expect(failure(Double.self, "1e-400") == "number 1e-400 does not fit in Double")
    #expect(failure(Double.self, #""1""#) == "expected Double, found string")
  }

  @Test func rejectsNumberTextThatIsNotJSONInHandBuiltValues() {
    for text in ["", "-", "+1", "0x10", "nan", "inf", "1.", ".5", "01", " 1", "1e", "١", "1,2"] {
      #expect(throws: DecodingError.self, "\(text)") {
        try RewindJSONDecoder().decode(Int.self, from: JSONValue.number(text))
      }
      #expect(throws: DecodingError.self, "\(text)") {
        try RewindJSONDecoder().decode(Double.self, from: JSONValue.number(text))
      }
      #expect(throws: DecodingError.self, "\(text)") {
        try RewindJSONDecoder().decode(Decimal.self, from: JSONValue.number(text))
      }
    }
  }

  @Test func decodesFoundationTypesLikeFoundationsDefaultStrategies() throws {
    let json =
      #"{"date":1.5,"data":"AAEC/w==","url":"https://example.com/a?b=1","decimal":-3.14,"uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#
    let value = try decode(Foundations.self, json)
    #expect(value.date == Date(timeIntervalSinceReferenceDate: 1.5))
    #expect(value.data == Data([0, 1, 2, 255]))
    #expect(value.url.absoluteString == "https://example.com/a?b=1")
    #expect(value.decimal == Decimal(string: "-3.14"))
    #expect(value.uuid.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
    #expect(failure(Data.self, #""AA=""#) == "string is not valid Base64, expected Data")
    #expect(failure(URL.self, #""""#) == "string is not a valid URL, expected URL")
    #expect(failure(Decimal.self, #""1""#) == "expected Decimal, found string")
    #expect(failure(Decimal.self, "1e300") == "number 1e300 does not fit in Decimal")
    #expect(throws: DecodingError.self) { try decode(UUID.self, #""not-a-uuid""#) }
  }

  @Test func decodesDictionariesWithStringAndIntKeys() throws {
    #expect(try decode([String: Int].self, #"{"b":2,"a":1}"#) == ["a": 1, "b": 2])
    #expect(try decode([Int: String].self, #"{"10":"x","-2":"y"}"#) == [10: "x", -2: "y"])
    #expect(try decode([Color: Int].self, #"{"red":1}"#) == [.red: 1])
    #expect(throws: DecodingError.self) { try decode([Int: String].self, #"{"x":"y"}"#) }
    let big = (0..<50).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    let decoded = try decode([String: Int].self, "{\(big)}")
    #expect(decoded.count == 50 && decoded["k37"] == 37)
  }

  struct Probe: Decodable {
    var keys: [String]
    var hasA: Bool
    var hasMissing: Bool
    var aIsNil: Bool
    var optionalMissing: Int?
    var optionalNull: Int?
    var superName: String?
    var missingSuperIsNil: Bool

    enum Keys: String, CodingKey { case a, b, missing, nested }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      keys = container.allKeys.map(\.stringValue)
      hasA = container.contains(.a)
      hasMissing = container.contains(.missing)
      aIsNil = try container.decodeNil(forKey: .a)
      optionalMissing = try container.decodeIfPresent(Int.self, forKey: .missing)
      optionalNull = try container.decodeIfPresent(Int.self, forKey: .a)
      let nested = try container.superDecoder(forKey: .nested)
      superName = try nested.singleValueContainer().decode(String?.self)
      missingSuperIsNil = try container.superDecoder(forKey: .missing).singleValueContainer()
        .decodeNil()
    }
  }

  /// Keeps the super decoder it was given, to read from it after decoding has returned.
  final class KeptSuperDecoder: Decodable {
    let kept: any Decoder

    enum Keys: String, CodingKey { case base }

    init(from decoder: any Decoder) throws {
      kept = try decoder.container(keyedBy: Keys.self).superDecoder(forKey: .base)
    }
  }

  @Test func aSuperDecoderKeptPastDecodingStillReadsItsValue() throws {
    let decoded = try ["x", "yy"].map { text in
      try decode(KeptSuperDecoder.self, #"{"base":{"name":"\#(text)","n":[1,2]}}"#)
    }
    for (probe, text) in zip(decoded, ["x", "yy"]) {
      let container = try probe.kept.container(keyedBy: JSONKey.self)
      #expect(try container.decode(String.self, forKey: JSONKey(stringValue: "name")) == text)
      #expect(try container.decode([Int].self, forKey: JSONKey(stringValue: "n")) == [1, 2])
      #expect(probe.kept.codingPath.map(\.stringValue) == ["base"])
    }
  }

  @Test func keyedContainersAnswerAboutTheirKeys() throws {
    let probe = try decode(Probe.self, #"{"a":null,"unknown":1,"b":2,"nested":"n"}"#)
    #expect(probe.keys == ["a", "b", "nested"])
    #expect(probe.hasA && !probe.hasMissing && probe.aIsNil)
    #expect(probe.optionalMissing == nil && probe.optionalNull == nil)
    #expect(probe.superName == "n" && probe.missingSuperIsNil)
    #expect(failure(Probe.self, #"{"b":1}"#) == "a: key not found")
  }

  @Test func findsKeysInLargeObjectsAndRejectsHandBuiltDuplicates() throws {
    let members = (0..<300).map { JSONMember("k\($0)", .number("\($0)")) }
    let decoded = try RewindJSONDecoder().decode([String: Int].self, from: .object(members))
    #expect(decoded.count == 300 && decoded["k3"] == 3 && decoded["k299"] == 299)
    for count in [2, 300] {
      let duplicated = JSONValue.object(
        (0..<count).map { JSONMember("k\($0)", .number("\($0)")) } + [JSONMember("k1", .null)])
      #expect {
        try RewindJSONDecoder().decode([String: Int?].self, from: duplicated)
      } throws: { error in
        guard case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.debugDescription.contains(#"duplicate key "k1""#)
      }
    }
  }

  @Test func findsKeysInLargeObjectsOfText() throws {
    let text = "{" + (0..<500).map { #""key\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    let decoded = try decode([String: Int].self, text)
    #expect(decoded.count == 500 && decoded["key0"] == 0 && decoded["key499"] == 499)
    let duplicated =
      "{" + (0..<500).map { #""key\#($0)":\#($0)"# }.joined(separator: ",")
      + #","key7":1}"#
    #expect(throws: JSONParseError.self) { try decode([String: Int].self, duplicated) }
    // Keys compare as Swift strings: "é" precomposed and decomposed are the same key.
    let equivalent =
      "{" + (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
      + #","\u00e9":1,"e\u0301":2}"#
    #expect(throws: JSONParseError.self) { try decode([String: Int].self, equivalent) }
  }

  struct ListProbe: Decodable {
    var count: Int?
    var first: Int
    var indexAfterFailure: Int
    var skippedNil: Bool
    var rest: [String]
    var atEnd: Bool
    var pastEnd: String

    init(from decoder: any Decoder) throws {
      var list = try decoder.unkeyedContainer()
      count = list.count
      first = try list.decode(Int.self)
      _ = try? list.decode(Int.self)
      indexAfterFailure = list.currentIndex
      _ = try list.decode(String.self)
      var nested = try list.nestedUnkeyedContainer()
      skippedNil = try list.decodeNil()
      var words: [String] = []
      while !nested.isAtEnd {
        words.append(try nested.decode(String.self))
      }
      rest = words
      atEnd = list.isAtEnd
      do {
        _ = try list.decode(Bool.self)
        pastEnd = "no error"
      } catch let error as DecodingError {
        pastEnd = error.summary
      }
    }
  }

  @Test func unkeyedContainersAdvanceOnlyOnSuccess() throws {
    let probe = try decode(ListProbe.self, #"[1,"x",["a","b"],null]"#)
    #expect(probe.count == 4 && probe.first == 1 && probe.indexAfterFailure == 1)
    #expect(probe.skippedNil && probe.rest == ["a", "b"] && probe.atEnd)
    #expect(probe.pastEnd == "[4]: unkeyed container is at end")
  }

  @Test func decodesFromEveryInputKind() throws {
    let json = #"{"add":{"title":"Buy milk"}}"#
    let expected = TodoAction.add(title: "Buy milk")
    #expect(try RewindJSONDecoder().decode(TodoAction.self, from: Data(json.utf8)) == expected)
    #expect(
      try RewindJSONDecoder().decode(TodoAction.self, from: try JSONParser.parse(json)) == expected)
    let fromBuffer = try Array(json.utf8).withUnsafeBytes { buffer in
      try RewindJSONDecoder().decode(TodoAction.self, from: buffer)
    }
    #expect(fromBuffer == expected)
  }

  @Test func throwsParseErrorsForInvalidJSON() {
    #expect(
      throws: JSONParseError(
        offset: 9, reason: .unexpectedByte(0x78, expected: "a string key or '}'"))
    ) {
      try RewindJSONDecoder().decode(TodoAction.self, from: Array(#"{"add": {x}}"#.utf8))
    }
    #expect(throws: JSONParseError(offset: 1, reason: .tooDeep(limit: 1))) {
      try RewindJSONDecoder().decode(
        [[Int]].self, from: Array("[[1]]".utf8), limits: JSONLimits(maxDepth: 1))
    }
  }

  @Test func decodesJSONValuesAsTheyAre() throws {
    let value = try JSONParser.parse(#"{"b":[1.50,null],"a":"x"}"#)
    #expect(try RewindJSONDecoder().decode(JSONValue.self, from: value) == value)
    let viaFoundation = try JSONDecoder().decode(JSONValue.self, from: Data(value.serializedBytes))
    #expect(viaFoundation == (try JSONParser.parse(#"{"b":[1.5,null],"a":"x"}"#)))
  }

  @Test func decodesSubclassesThroughSuperDecoders() throws {
    let dog = try decode(
      RewindJSONEncoderTests.Dog.self, #"{"breed":"Collie","super":{"name":"Rex"}}"#)
    #expect(dog.name == "Rex" && dog.breed == "Collie")
  }
}

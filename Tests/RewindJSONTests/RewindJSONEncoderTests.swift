import Foundation
import Testing

@testable import RewindJSON

@Suite struct RewindJSONEncoderTests {
  func text<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try RewindJSONEncoder().encode(value), as: UTF8.self)
  }

  @Test func writesMembersInEncodingOrder() throws {
    let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    let todo = Todo(
      id: id, title: "Buy milk", isDone: false, due: nil, note: "2%", tags: ["shop"], priority: 3)
    #expect(
      try text(todo)
        == #"{"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","title":"Buy milk","isDone":false,"note":"2%","tags":["shop"],"priority":3}"#
    )
  }

  @Test func writesEnumsWithAssociatedValuesLikeFoundation() throws {
    let actions: [TodoAction] = [.add(title: "Buy milk"), .clear, .setNote(nil), .batch([.clear])]
    #expect(
      try text(actions)
        == #"[{"add":{"title":"Buy milk"}},{"clear":{}},{"setNote":{}},{"batch":{"_0":[{"clear":{}}]}}]"#
    )
    for action in actions {
      #expect(try text(action) == String(decoding: try JSONEncoder().encode(action), as: UTF8.self))
    }
  }

  @Test func writesIntegersOfEveryWidthAtTheirLimits() throws {
    let widths = IntegerWidths(
      int: .min, int8: .min, int16: .max, int32: .min, int64: .max, uint: .max, uint8: .max,
      uint16: .max, uint32: .max, uint64: .max)
    #expect(
      try text(widths)
        == #"{"int":-9223372036854775808,"int8":-128,"int16":32767,"int32":-2147483648,"int64":9223372036854775807,"uint":18446744073709551615,"uint8":255,"uint16":65535,"uint32":4294967295,"uint64":18446744073709551615}"#
    )
  }

  @Test(
    arguments: [
      (1.0, "1"), (-0.0, "-0"), (0.1, "0.1"), (1e-7, "1e-07"), (5e20, "5e+20"), (1e16, "1e+16"),
      (123.5, "123.5"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
      (.leastNonzeroMagnitude, "5e-324"), (-1e300, "-1e+300"),
    ] as [(Double, String)])
  func writesDoublesAsTheShortestTextThatReadsBack(_ number: Double, _ expected: String) throws {
    #expect(try text(number) == expected)
    #expect(try JSONParser.parse(expected) == .number(expected))
  }

  @Test func writesFloatsAsTheShortestTextThatReadsBack() throws {
    #expect(
      try text([Float(0.1), 1, .greatestFiniteMagnitude, -0.0]) == "[0.1,1,3.4028235e+38,-0]")
  }

  @Test func rejectsNonFiniteNumbersWithTheirCodingPath() {
    struct Item: Encodable { var price: Double }
    struct Order: Encodable { var items: [Item] }
    let order = Order(items: [Item(price: 1), Item(price: .nan)])
    #expect {
      try RewindJSONEncoder().encode(order)
    } throws: { error in
      guard let error = error as? EncodingError else { return false }
      return error.summary
        == "items[1].price: Double.nan cannot be encoded: JSON has no NaN or infinity"
    }
    #expect(throws: EncodingError.self) { try RewindJSONEncoder().encode([Float.infinity]) }
    #expect(throws: EncodingError.self) { try RewindJSONEncoder().encode(-Double.infinity) }
    #expect(throws: EncodingError.self) {
      try RewindJSONEncoder().encode(Date(timeIntervalSinceReferenceDate: .nan))
    }
    #expect(throws: EncodingError.self) { try RewindJSONEncoder().encode(Decimal.nan) }
  }

  @Test func writesFoundationTypesLikeFoundationsDefaultStrategies() throws {
    let value = Foundations(
      date: Date(timeIntervalSinceReferenceDate: 1.5), data: Data([0, 1, 2, 255]),
      url: URL(string: "https://example.com/a/b?c=1") ?? URL(fileURLWithPath: "/"),
      decimal: Decimal(string: "-3.14") ?? 0,
      uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())
    #expect(
      try text(value)
        == #"{"date":1.5,"data":"AAEC/w==","url":"https://example.com/a/b?c=1","decimal":-3.14,"uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#
    )
    let relative = URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/"))
    #expect(try text(relative) == #""https://example.com/a/b/c""#)
  }

  @Test func skipsNilWithEncodeIfPresentAndWritesNullWithEncode() throws {
    struct Both: Encodable {
      var value: Int?
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        try container.encodeIfPresent(value, forKey: JSONKey(stringValue: "skipped"))
        try container.encode(value, forKey: JSONKey(stringValue: "written"))
      }
    }
    #expect(try text(Both(value: nil)) == #"{"written":null}"#)
    #expect(try text(Both(value: 1)) == #"{"skipped":1,"written":1}"#)
    #expect(try text([1, nil, 3] as [Int?]) == "[1,null,3]")
  }

  @Test func sortsDictionaryKeysWhateverTheirInsertionOrder() throws {
    let keys = ["b", "a", "é", "A", "aa", "", "z", "~", "日"]
    let forward = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    let backward = Dictionary(uniqueKeysWithValues: keys.enumerated().reversed().map { ($1, $0) })
    let expected = #"{"":5,"A":3,"a":1,"aa":4,"b":0,"z":6,"~":7,"é":2,"日":8}"#
    #expect(try text(forward) == expected)
    #expect(try text(backward) == expected)
  }

  @Test func sortsIntKeysNumerically() throws {
    let map: [Int: String] = [10: "ten", -5: "minus five", 2: "two", 100: "hundred", .min: "min"]
    #expect(
      try text(map)
        == #"{"-9223372036854775808":"min","-5":"minus five","2":"two","10":"ten","100":"hundred"}"#
    )
  }

  @Test func sortsOtherDictionariesAndSets() throws {
    #expect(try text([Color.red: 1, .blue: 2, .green: 3]) == #"{"blue":2,"green":3,"red":1}"#)
    let pairs: [Int8: String] = [3: "c", 1: "a", 2: "b"]
    #expect(try text(pairs) == #"[1,"a",2,"b",3,"c"]"#)
    #expect(try text(Set(["b", "c", "a"])) == #"["a","b","c"]"#)
    #expect(try text(Set([3, 20, 1])) == "[1,20,3]")
    let nested: [String: [String: Set<Int>]] = ["y": ["b": [2, 1], "a": []], "x": [:]]
    #expect(try text(nested) == #"{"x":{},"y":{"a":[],"b":[1,2]}}"#)
  }

  @Test func encodingTheSameValueTwiceGivesTheSameBytes() throws {
    var generator = ValueGenerator(seed: 42)
    let snapshot = generator.snapshot()
    #expect(try RewindJSONEncoder().encode(snapshot) == RewindJSONEncoder().encode(snapshot))
  }

  @Test func encodingAKeyAgainReplacesItsValueInPlace() throws {
    struct Twice: Encodable {
      var count: Int
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for index in 0..<count {
          try container.encode(index, forKey: JSONKey(stringValue: "k\(index)"))
        }
        try container.encode("again", forKey: JSONKey(stringValue: "k0"))
        try container.encode("last", forKey: JSONKey(stringValue: "k\(count - 1)"))
      }
    }
    #expect(try text(Twice(count: 2)) == #"{"k0":"again","k1":"last"}"#)
    let big = try RewindJSONEncoder().encodeValue(Twice(count: 20))
    guard case .object(let members) = big else {
      Issue.record("not an object")
      return
    }
    #expect(members.count == 20)
    #expect(members.first == JSONMember("k0", .string("again")))
    #expect(members.last == JSONMember("k19", .string("last")))
  }

  @Test func fillsNestedContainersAfterTheyAreMade() throws {
    struct Nested: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        var inner = container.nestedContainer(
          keyedBy: JSONKey.self, forKey: JSONKey(stringValue: "a"))
        var list = container.nestedUnkeyedContainer(forKey: JSONKey(stringValue: "b"))
        try container.encode(1, forKey: JSONKey(stringValue: "c"))
        try inner.encode(true, forKey: JSONKey(stringValue: "x"))
        var deeper = list.nestedUnkeyedContainer()
        var object = list.nestedContainer(keyedBy: JSONKey.self)
        try list.encode("end")
        try deeper.encode(2)
        try object.encodeNil(forKey: JSONKey(stringValue: "y"))
        var again = container.nestedContainer(
          keyedBy: JSONKey.self, forKey: JSONKey(stringValue: "a"))
        try again.encode(false, forKey: JSONKey(stringValue: "z"))
      }
    }
    #expect(try text(Nested()) == #"{"a":{"x":true,"z":false},"b":[[2],{"y":null},"end"],"c":1}"#)
  }

  class Animal: Codable {
    var name: String
    init(name: String) { self.name = name }
  }

  final class Dog: Animal {
    var breed: String
    init(name: String, breed: String) {
      self.breed = breed
      super.init(name: name)
    }
    enum CodingKeys: String, CodingKey { case breed, base }
    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      breed = try container.decode(String.self, forKey: .breed)
      try super.init(from: container.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try super.encode(to: container.superEncoder())
      try container.encode(breed, forKey: .breed)
      try super.encode(to: container.superEncoder(forKey: .base))
    }
  }

  @Test func nestsSuperclassesUnderSuperLikeFoundation() throws {
    let dog = Dog(name: "Rex", breed: "Collie")
    let ours = try text(dog)
    #expect(ours == #"{"super":{"name":"Rex"},"breed":"Collie","base":{"name":"Rex"}}"#)
    let decoded = try JSONDecoder().decode(Dog.self, from: Data(ours.utf8))
    #expect(decoded.name == "Rex" && decoded.breed == "Collie")
  }

  @Test func superEncodersInArraysAndUnusedOnesBecomeObjects() throws {
    struct Supers: Encodable {
      func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        let first = list.superEncoder()
        try list.encode(2)
        var single = first.singleValueContainer()
        try single.encode(1)
        _ = list.superEncoder()
      }
    }
    #expect(try text(Supers()) == "[1,2,{}]")
  }

  @Test func encodesScalarsAtTopLevelAndRejectsValuesThatEncodeNothing() throws {
    #expect(try text(5) == "5")
    #expect(try text("a\"b") == #""a\"b""#)
    #expect(try text(Optional<Int>.none) == "null")
    struct Silent: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }
    #expect(throws: EncodingError.self) { try RewindJSONEncoder().encode(Silent()) }
    #expect(try text([Silent()]) == "[{}]")
  }

  @Test func passesUserInfoToValues() throws {
    let key = try #require(CodingUserInfoKey(rawValue: "prefix"))
    struct Prefixed: Encodable {
      let key: CodingUserInfoKey
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(encoder.userInfo[key] ?? "")x")
      }
    }
    let encoder = RewindJSONEncoder(userInfo: [key: "p-"])
    #expect(try encoder.encode(Prefixed(key: key)) == Array(#""p-x""#.utf8))
  }

  @Test func reportsCodingPathsToValues() throws {
    struct Recorder: Encodable {
      func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(CodingPathText.describe(encoder.codingPath))
      }
    }
    struct Outer: Encodable {
      var list = [Recorder(), Recorder()]
      var map = ["k": Recorder()]
    }
    #expect(try text(Outer()) == #"{"list":["list[0]","list[1]"],"map":{"k":"map.k"}}"#)
  }

  @Test func embedsJSONValuesAsTheyAre() throws {
    struct Entry: Codable, Equatable {
      var seq: Int
      var payload: JSONValue
    }
    let payload = try JSONParser.parse(
      #"{"z":1.50,"a":[true,null,"x"],"n":12345678901234567890123}"#)
    let entry = Entry(seq: 1, payload: payload)
    #expect(
      try text(entry)
        == #"{"seq":1,"payload":{"z":1.50,"a":[true,null,"x"],"n":12345678901234567890123}}"#)
    #expect(
      try RewindJSONDecoder().decode(Entry.self, from: RewindJSONEncoder().encode(entry)) == entry)
    let simple = Entry(seq: 2, payload: try JSONParser.parse(#"{"a":[1,2.5,"x",null,false]}"#))
    let viaFoundation = try JSONDecoder().decode(Entry.self, from: JSONEncoder().encode(simple))
    #expect(viaFoundation == simple)
  }
}

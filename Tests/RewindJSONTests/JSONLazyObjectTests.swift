import Foundation
import Testing

@testable import RewindJSON

/// A large object is read lazily (its members are not kept on the tape; each is found in the
/// text when it is asked for): every value and every error must be what a full tape gives, and
/// the checks made as the text is read (duplicate keys) must hold after the members are dropped.
/// The limit is lowered here so that small objects are lazy too.
@Suite struct JSONLazyObjectTests {
  typealias Outcome<T: Equatable> = JSONTapeDocumentTests.Outcome<T>

  /// The outcome with every object of two members or more lazy (and with some) equals the
  /// outcome with none, and is `expected` when given.
  func expectSameOutcomes<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, expected: Outcome<T>? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let full = JSONTapeDocumentTests.viaTape(type, json, lazyContainerEntries: .max)
    #expect(full != nil, "\(json)", sourceLocation: sourceLocation)
    if let expected {
      #expect(full == expected, "\(json)", sourceLocation: sourceLocation)
    }
    for limit in [0, 1, 3] {
      #expect(
        JSONTapeDocumentTests.viaTape(type, json, lazyContainerEntries: limit) == full,
        "limit \(limit): \(json)",
        sourceLocation: sourceLocation)
    }
  }

  struct Point: Codable, Equatable {
    var x: Int
    var y: Int
    var label: String?
  }

  /// Members asked for in another order than the text's, missing, `null` or of the wrong type.
  @Test func membersInAnyOrderAndTheirErrors() {
    expectSameOutcomes(
      Point.self, #"{"label":"a","y":2,"x":1}"#, expected: .value(Point(x: 1, y: 2, label: "a")))
    expectSameOutcomes(
      Point.self, #"{"y":2, "x" : 1 , "label" :null}"#, expected: .value(Point(x: 1, y: 2)))
    expectSameOutcomes(Point.self, #"{"y":2,"z":1}"#)
    expectSameOutcomes(Point.self, #"{"y":2,"x":"1"}"#)
    expectSameOutcomes(Point.self, #"{"y":2,"x":1,"label":7}"#)
    expectSameOutcomes([String: Point].self, #"{"a":{"x":1,"y":2},"b":{"x":3,"y":"4"}}"#)
  }

  /// A dictionary reads every member in order; an escaped key and one in another normalization
  /// are found as Swift strings find them.
  @Test func dictionariesAndKeysThatCompareAsSwiftStrings() {
    let keys = (0..<500).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
    expectSameOutcomes([String: Int].self, "{\(keys)}")
    expectSameOutcomes(
      [String: Int].self, #"{"\u0061b":1,"é":2,"e\u0301x":3}"#,
      expected: .value(["ab": 1, "é": 2, "e\u{301}x": 3]))
    // U+212A KELVIN SIGN is canonically "K": a `CodingKey` "K" finds it.
    expectSameOutcomes(Kelvin.self, #"{"other":0,"\u212A":5}"#, expected: .value(Kelvin(kelvin: 5)))
  }

  struct Kelvin: Codable, Equatable {
    var kelvin: Int
    enum CodingKeys: String, CodingKey { case kelvin = "K" }
  }

  /// A container handed out for one member is used after another member is read.
  @Test func containersHandedOutKeepTheirOwnMember() {
    expectSameOutcomes(
      TwoNested.self, #"{"first":{"v":[1,2]},"second":{"v":[3]},"third":0}"#,
      expected: .value(TwoNested(first: [1, 2], second: [3])))
  }

  struct TwoNested: Decodable, Equatable {
    var first: [Int]
    var second: [Int]
    enum Keys: String, CodingKey { case first, second, v }
    init(first: [Int], second: [Int]) {
      self.first = first
      self.second = second
    }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      let a = try container.nestedContainer(keyedBy: Keys.self, forKey: .first)
      let b = try container.nestedContainer(keyedBy: Keys.self, forKey: .second)
      var list = try b.nestedUnkeyedContainer(forKey: .v)
      second = []
      while !list.isAtEnd { second.append(try list.decode(Int.self)) }
      first = try a.decode([Int].self, forKey: .v)
    }
  }

  /// `contains`, `decodeNil`, `allKeys` and the super decoders of a lazy object.
  @Test func theRestOfTheKeyedContainer() {
    expectSameOutcomes(
      Inspected.self, #"{"a":null,"b":2,"super":3}"#,
      expected: .value(
        Inspected(keys: ["a", "b", "super"], hasC: false, aIsNil: true, b: 2, sup: 3))
    )
    expectSameOutcomes(
      Inspected.self, #"{"a":1,"b":2}"#,
      expected: .value(Inspected(keys: ["a", "b"], hasC: false, aIsNil: false, b: 2, sup: nil)))
  }

  struct Inspected: Decodable, Equatable {
    var keys: [String]
    var hasC: Bool
    var aIsNil: Bool
    var b: Int
    var sup: Int?
    enum Keys: String, CodingKey { case a, b, c }
    init(keys: [String], hasC: Bool, aIsNil: Bool, b: Int, sup: Int?) {
      (self.keys, self.hasC, self.aIsNil, self.b, self.sup) = (keys, hasC, aIsNil, b, sup)
    }
    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: JSONKey.self)
      keys = container.allKeys.map(\.stringValue)
      let typed = try decoder.container(keyedBy: Keys.self)
      hasC = typed.contains(.c)
      aIsNil = try typed.decodeNil(forKey: .a)
      b = try Int(from: typed.superDecoder(forKey: .b))
      sup = try Int?(from: typed.superDecoder())
    }
  }

  /// A key repeated after the object went lazy is still refused, by the text of the earlier
  /// keys: exactly, or only as Swift strings compare them.
  @Test func duplicateKeysAreRefusedAfterTheMembersAreDropped() throws {
    for json in [
      #"{"a":1,"b":2,"c":3,"a":4}"#, #"{"a":1,"b":2,"c":3,"\u0061":4}"#,
      #"{"é":1,"b":2,"c":3,"e\u0301":4}"#, #"{"a":[1,2],"b":{"x":1,"y":2},"b":0}"#,
    ] {
      for limit in [0, 1, 3, Int.max] {
        let loaded = Array(json.utf8).withUnsafeBytes {
          JSONTapeDocument(lazyContainerEntries: limit).load($0)
        }
        #expect(!loaded, "limit \(limit): \(json)")
      }
      #expect(throws: JSONParseError.self) { try JSONParser.parse(json) }
    }
    let distinct = #"{"a":1,"b":2,"c":3,"d":4}"#
    #expect(
      Array(distinct.utf8).withUnsafeBytes { JSONTapeDocument(lazyContainerEntries: 0).load($0) })
  }

  /// The tape of a document with a large object holds its entry, not its members; the direct
  /// reader finds a member in its text; an object of one member is never lazy.
  @Test func aLargeObjectsTapeHoldsFewEntries() throws {
    let count = 100_000
    let json = "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    try Array(json.utf8).withUnsafeBytes { buffer in
      let document = JSONTapeDocument(lazyContainerEntries: 1_000)
      #expect(document.load(buffer))
      #expect(document.tape.count == 1)
      #expect(document.tape[0].isLazy && document.tape[0].count == Int32(count))
      let decoded = try document.decode([String: Int].self, at: 0)
      #expect(decoded.count == count && decoded["k99999"] == 99_999 && decoded["k0"] == 0)
      // A member found by name is read onto the end of the tape, once.
      let k5 = try #require(document.member("k5", of: 0))
      #expect(k5 == 1 && document.tape.count == 2 && document.text(at: k5).elementsEqual("5".utf8))
      #expect(document.member("k5", of: 0) == k5 && document.tape.count == 2)
      #expect(document.member("k", of: 0) == nil)
      let reader = JSONDirectReader(document: document, index: 0)
      #expect(try reader.required("k77777").integer() == 77_777)
      #expect(try reader.member("k") == nil)
      #expect(reader.count == count)
      #expect(try reader.required("k5").integer() == 5)
    }
    // A record whose top level is large: the log reader's members are found all the same, and
    // what is decoded from them is what a full tape gives.
    let record =
      #"{"kind":"action","action":{"add":{"title":"a","extra":[1,2,3]}},"#
      + (0..<5_000).map { #""x\#($0)":[\#($0),{"y":\#($0)}]"# }.joined(separator: ",")
      + #","type":"add"}"#
    try Array(record.utf8).withUnsafeBytes { buffer in
      let document = JSONTapeDocument(lazyContainerEntries: 100)
      #expect(document.load(buffer))
      #expect(document.tape[0].isLazy)
      let action = try #require(document.member("action", of: document.root))
      let type = try #require(document.member("type", of: document.root))
      #expect(document.string(at: type) == "add")
      let x4999 = try #require(document.member("x4999", of: document.root))
      #expect(try document.decode(Pair.self, at: x4999) == Pair(n: 4999, y: ["y": 4999]))
      let decoded = try document.decode([String: [String: JSONValue]].self, at: action)
      #expect(decoded["add"]?["title"] == .string("a"))
      #expect(decoded["add"]?["extra"] == .array([.number("1"), .number("2"), .number("3")]))
      #expect(document.tape.count < 50)
    }
    let single = #"{"only":[1,2,3,4,5,6,7,8]}"#
    try Array(single.utf8).withUnsafeBytes { buffer throws in
      let document = JSONTapeDocument(lazyContainerEntries: 2)
      #expect(document.load(buffer))
      #expect(!document.tape[0].isLazy && document.tape[2].isLazy)
      #expect(document.onlyKey(of: 0) == "only")
      #expect(try document.decode([String: [Int]].self, at: 0) == ["only": Array(1...8)])
    }
  }

  /// `[n, {"y": n}]`.
  struct Pair: Decodable, Equatable {
    var n: Int
    var y: [String: Int]
    init(n: Int, y: [String: Int]) {
      self.n = n
      self.y = y
    }
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      n = try container.decode(Int.self)
      y = try container.decode([String: Int].self)
    }
  }

  /// Lookups read each member about once when the members are asked for in order, each asked
  /// for twice (`decodeNil` or `contains` before `decode`): not the whole object each time.
  @Test func askingForTheSameMemberAgainCostsOneStep() {
    let count = 2_000
    let json = "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    Array(json.utf8).withUnsafeBytes { bytes in
      let object = JSONLazyObject(bytes: bytes, start: 0, options: [:], lazyContainerEntries: 0)
      for n in 0..<count {
        #expect(object.member(named: "k\(n)")?.valueStart != nil)
        #expect(object.member(named: "k\(n)") != nil)
      }
      #expect(object.membersRead <= 3 * count, "\(object.membersRead) members read")
      // Out of order: found all the same, within one pass each.
      let before = object.membersRead
      #expect(object.member(named: "k7") != nil && object.member(named: "k1999") != nil)
      #expect(object.member(named: "missing") == nil)
      #expect(object.membersRead - before <= 3 * count)
    }
  }

  /// Seeded snapshots (objects of every shape) decode as from a full tape.
  @Test func seededSnapshotsDecodeAsFromAFullTape() throws {
    for seed in FoundationDifferentialTests.seeds.prefix(30) {
      let value = FoundationDifferentialTests.snapshot(seed: seed)
      let json = String(decoding: try RewindJSONEncoder().encode(value), as: UTF8.self)
      expectSameOutcomes(Snapshot.self, json, expected: .value(value))
    }
  }
}

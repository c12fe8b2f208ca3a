import Foundation
import Testing

@testable import RewindJSON

/// A long array is read lazily (its elements are not kept on the tape; each is read from the text
/// when it is decoded): every value and every error must be what a full tape gives. The limit is
/// lowered here so that short arrays are lazy too.
@Suite struct JSONLazyArrayTests {
  typealias Outcome<T: Equatable> = JSONTapeDocumentTests.Outcome<T>

  /// Decodes `json` as `T` from a document whose arrays go lazy past `lazyContainerEntries`.
  func decode<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, lazyContainerEntries: Int
  ) -> Outcome<T>? {
    JSONTapeDocumentTests.viaTape(type, json, lazyContainerEntries: lazyContainerEntries)
  }

  /// The outcome with every array lazy (and with some) equals the outcome with none.
  func expectSameOutcomes<T: Decodable & Equatable>(_ type: T.Type, _ json: String) {
    let full = decode(type, json, lazyContainerEntries: .max)
    #expect(full != nil, "\(json)")
    for limit in [0, 1, 3] {
      #expect(decode(type, json, lazyContainerEntries: limit) == full, "limit \(limit): \(json)")
    }
  }

  @Test func seededSnapshotsDecodeAsFromAFullTape() throws {
    for seed in FoundationDifferentialTests.seeds.prefix(60) {
      let value = FoundationDifferentialTests.snapshot(seed: seed)
      let json = String(decoding: try RewindJSONEncoder().encode(value), as: UTF8.self)
      expectSameOutcomes(Snapshot.self, json)
      #expect(decode(Snapshot.self, json, lazyContainerEntries: 0) == .value(value), "seed \(seed)")
    }
  }

  @Test(arguments: JSONTapeDocumentTests.cases)
  func valuesAndErrorsMatchAFullTape(_ type: String, _ json: String) {
    switch type {
    case "todo": expectSameOutcomes(TodoAction.self, json)
    case "widths": expectSameOutcomes(IntegerWidths.self, json)
    case "foundations": expectSameOutcomes(Foundations.self, json)
    case "doubles": expectSameOutcomes([Double].self, json)
    case "grid": expectSameOutcomes([[Int?]].self, json)
    case "map": expectSameOutcomes([String: Int].self, json)
    default: Issue.record("unknown type \(type)")
    }
  }

  /// Errors inside and past the end of a lazy array name the same coding path.
  @Test func errorsNameTheElement() {
    let texts: [(String, String)] = [
      ("ints", #"[1, 2, "three", 4]"#), ("ints", "[1,2,3.5]"), ("ints", "[1,null,3]"),
      ("todos", #"[{"clear":{}}, {"add":{"title":7}}]"#),
      ("todos", #"[{"batch":{"_0":[{"clear":{}},{"move":{"from":1}}]}}]"#),
      ("pair", "[1]"), ("pair", "[1,2]"), ("pair", #"[1,"x"]"#),
      ("strings", #"[" a\n", "\u00e9", 3]"#),
    ]
    for (type, json) in texts {
      switch type {
      case "ints": expectSameOutcomes([Int].self, json)
      case "todos": expectSameOutcomes([TodoAction].self, json)
      case "pair": expectSameOutcomes(Pair.self, json)
      default: expectSameOutcomes([String].self, json)
      }
    }
  }

  /// Two elements decoded as two containers at once, the first used after the second is read.
  @Test func containersHandedOutKeepTheirOwnElement() {
    expectSameOutcomes(TwoRows.self, "[[1,2,3],[4,5]]")
    #expect(
      decode(TwoRows.self, "[[1,2,3],[4,5]]", lazyContainerEntries: 0)
        == .value(TwoRows(first: [1, 2, 3], second: [4, 5])))
    expectSameOutcomes(TwoObjects.self, #"[{"v":1},{"v":2}]"#)
  }

  /// `decodeNil` and `superDecoder` of the unkeyed container, on a lazy array.
  @Test func nilsAndSuperDecodersOfALazyArray() {
    for json in ["[null, 1, null, 2]", "[1]", "[null]", "[3, null]"] {
      expectSameOutcomes(NilsAndSupers.self, json)
    }
    #expect(
      decode(NilsAndSupers.self, "[null, 1, null, 2]", lazyContainerEntries: 0)
        == .value(NilsAndSupers(values: [nil, 1, nil, 2])))
  }

  /// A long array whose elements are long arrays: the outer one is lazy, and each inner one,
  /// read into an element's document of its own, is lazy there too (at the default limit).
  @Test func aLongArrayOfLongArrays() {
    let count = JSONTape.lazyContainerEntries + 10
    let inner = "[" + String(repeating: "7,", count: count - 1) + "7]"
    let json = "[\(inner),\(inner)]"
    let decoded = decode([[Int]].self, json, lazyContainerEntries: JSONTape.lazyContainerEntries)
    guard case .value(let rows) = decoded else {
      Issue.record("did not decode: \(String(describing: decoded))")
      return
    }
    #expect(rows.count == 2 && rows.allSatisfy { $0.count == count && $0.allSatisfy { $0 == 7 } })
  }

  /// The tape of a document with a long array holds its entry, not its elements.
  @Test func aLongArraysTapeHoldsFewEntries() throws {
    let count = 100_000
    let json = "[" + (0..<count).map(String.init).joined(separator: ", ") + "]"
    let bytes = Array(json.utf8)
    try bytes.withUnsafeBytes { buffer in
      let document = JSONTapeDocument(lazyContainerEntries: 1_000)
      #expect(document.load(buffer))
      #expect(document.tape.count == 1)
      #expect(document.tape[0].isLazy && document.tape[0].count == Int32(count))
      #expect(try document.decode([Int].self, at: 0) == Array(0..<count))
      // The direct reader reads the elements again from the text, one at a time.
      let elements = try JSONDirectReader(document: document, index: 0).elements()
      #expect(try elements.map { try $0.integer() } == Array(0..<count))
    }
    // An object's member holding a long array: the members after it are found.
    let object = #"{"list":\#(json),"after":7}"#
    #expect(
      decode(Listed.self, object, lazyContainerEntries: 10)
        == decode(
          Listed.self, object, lazyContainerEntries: .max))
  }

  /// Optional ints read with `decodeNil`, the others through `superDecoder`.
  struct NilsAndSupers: Decodable, Equatable {
    var values: [Int?]
    init(values: [Int?]) { self.values = values }
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      values = []
      while !container.isAtEnd {
        if try container.decodeNil() {
          values.append(nil)
        } else {
          values.append(try Int(from: container.superDecoder()))
        }
      }
    }
  }

  /// Two ints read through one unkeyed container.
  struct Pair: Decodable, Equatable {
    var a: Int
    var b: Int
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      a = try container.decode(Int.self)
      b = try container.decode(Int.self)
    }
  }

  /// Two rows taken as nested containers before either is read.
  struct TwoRows: Decodable, Equatable {
    var first: [Int]
    var second: [Int]
    init(first: [Int], second: [Int]) {
      (self.first, self.second) = (first, second)
    }
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      var a = try container.nestedUnkeyedContainer()
      var b = try container.nestedUnkeyedContainer()
      (first, second) = ([], [])
      while !b.isAtEnd { second.append(try b.decode(Int.self)) }
      while !a.isAtEnd { first.append(try a.decode(Int.self)) }
    }
  }

  /// Two objects taken as nested keyed containers before either is read.
  struct TwoObjects: Decodable, Equatable {
    enum Keys: CodingKey { case v }
    var values: [Int]
    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      let a = try container.nestedContainer(keyedBy: Keys.self)
      let b = try container.nestedContainer(keyedBy: Keys.self)
      values = [try b.decode(Int.self, forKey: .v), try a.decode(Int.self, forKey: .v)]
    }
  }

  struct Listed: Decodable, Equatable {
    var list: [Int]
    var after: Int
  }
}

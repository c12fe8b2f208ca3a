import Testing

@_spi(Testing) @testable import RewindJSON

/// The decoder's testing entry points, which the fuzz targets (a package of their own) use to reach
/// the lazy-array path and the direct path with small inputs.
@Suite struct JSONTestingSPITests {
  /// Reads `numbers` and `rows` through `init(json:)`, `elements()` included.
  struct Rows: JSONDirectDecodable, Decodable, Equatable {
    var numbers: [Int]
    var rows: [[String]]

    init(numbers: [Int], rows: [[String]]) {
      self.numbers = numbers
      self.rows = rows
    }

    init(json: JSONDirectReader) throws {
      numbers = try json.required("numbers").elements().map { try $0.integer() }
      rows = try json.required("rows").elements().map { row in
        try row.elements().map { try $0.string() }
      }
    }
  }

  static let text = #"{"numbers":[1,-2,3.0],"rows":[["a","é"],[],["\ud83c\udf31"]],"x":[[]]}"#
  static let expected = Rows(numbers: [1, -2, 3], rows: [["a", "é"], [], ["🌱"]])

  func decoder(lazyPast entries: Int) -> RewindJSONDecoder {
    var decoder = RewindJSONDecoder()
    decoder.lazyContainerEntries = entries
    return decoder
  }

  @Test(arguments: [0, 1, 2, JSONTape.lazyContainerEntries])
  func bothPathsDecodeTheSameValueWithLazyArrays(_ entries: Int) throws {
    let decoder = decoder(lazyPast: entries)
    let bytes = Array(Self.text.utf8)
    #expect(try decoder.decode(Rows.self, from: bytes) == Self.expected)
    let direct = try bytes.withUnsafeBytes { try decoder.decodeDirectly(Rows.self, from: $0) }
    #expect(direct == Self.expected)
  }

  @Test func lazyArraysAreWhatTheSettingSays() {
    #expect(RewindJSONDecoder().lazyContainerEntries == JSONTape.lazyContainerEntries)
    #expect(decoder(lazyPast: 3).lazyContainerEntries == 3)
  }

  @Test func theDirectPathReportsInvalidTextAndWrongShapes() {
    let decoder = decoder(lazyPast: 0)
    let invalid = Array(#"{"numbers":[1,],"rows":[]}"#.utf8)
    #expect(throws: JSONParseError.self) {
      try invalid.withUnsafeBytes { try decoder.decodeDirectly(Rows.self, from: $0) }
    }
    let wrong = Array(#"{"numbers":[1,"2"],"rows":[]}"#.utf8)
    #expect(throws: JSONDirectReaderError.self) {
      try wrong.withUnsafeBytes { try decoder.decodeDirectly(Rows.self, from: $0) }
    }
  }

  /// Reads the decoder's `userInfo` for the key `tag`.
  struct Tagged: Decodable, Equatable {
    var tag: String

    init(tag: String) { self.tag = tag }

    init(from decoder: any Decoder) throws {
      _ = try decoder.singleValueContainer()
      let key = decoder.userInfo.keys.first { $0.rawValue == "tag" }
      tag = key.flatMap { decoder.userInfo[$0] as? String } ?? "<none>"
    }
  }

  /// Its items through `elements()` and `decode(_:)`.
  struct Holder: JSONDirectDecodable {
    var items: [Tagged]

    init(json: JSONDirectReader) throws {
      items = try json.required("items").elements().map { try $0.decode(Tagged.self) }
    }
  }

  /// Keeps every element's reader of `numbers` and reads them after the loop.
  struct Keeper: JSONDirectDecodable {
    var first: Result<Int, JSONDirectReaderError>
    var last: Result<Int, JSONDirectReaderError>
    var count: Int

    init(json: JSONDirectReader) throws {
      let numbers = try json.required("numbers").elements()
      var kept: [JSONDirectReader] = []
      for element in numbers { kept.append(element) }
      count = numbers.count
      first = Result { () throws(JSONDirectReaderError) in try kept[0].integer() }
      last = Result { () throws(JSONDirectReaderError) in try kept[kept.count - 1].integer() }
    }

    /// Only the direct path reads it.
    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "direct only"))
    }
  }

  /// A long array's elements are read one at a time into one document: a reader kept past the
  /// next element says so (an array on the tape keeps them all).
  @Test(arguments: [0, JSONTape.lazyContainerEntries])
  func aLazyArraysElementReaderLastsUntilTheNextElement(_ entries: Int) throws {
    let bytes = Array(#"{"numbers":[7, 8 ,9]}"#.utf8)
    let decoder = decoder(lazyPast: entries)
    let keeper = try bytes.withUnsafeBytes { try decoder.decodeDirectly(Keeper.self, from: $0) }
    #expect(keeper.count == 3)
    #expect(try keeper.last.get() == 9)
    if entries == 0 {
      #expect(throws: JSONDirectReaderError.self) { try keeper.first.get() }
      let reason = (try? keeper.first.get()).map(String.init) ?? "\(keeper.first)"
      #expect(reason.contains("past its array's next element"))
    } else {
      #expect(try keeper.first.get() == 7)
    }
  }

  struct TestFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
  }

  /// Reads the elements of `rows[0]` after the outer array has moved on to `rows[1]`.
  struct Moved: JSONDirectDecodable {
    var nulls: [Bool]
    var unreadable: Int

    init(json: JSONDirectReader) throws {
      var rows = try json.required("rows").elements().makeIterator()
      guard let first = rows.next() else { throw TestFailure("no rows") }
      let inner = try first.elements()
      _ = rows.next()
      nulls = inner.map { $0.isNull }
      unreadable = inner.filter { (try? $0.string()) == nil }.count
    }

    init(from decoder: any Decoder) throws {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "direct only"))
    }
  }

  /// An element's array read after its own array moved on gives as many readers as it has
  /// elements (`map` counts on it), each saying it was kept too long: never a trap.
  @Test(arguments: [0, JSONTape.lazyContainerEntries])
  func anArrayReadAfterItsArrayMovedOnGivesEveryElementAReader(_ entries: Int) throws {
    let bytes = Array(#"{"rows":[["a","b"],["c"]]}"#.utf8)
    let decoder = decoder(lazyPast: entries)
    let moved = try bytes.withUnsafeBytes { try decoder.decodeDirectly(Moved.self, from: $0) }
    #expect(moved.nulls == [false, false])
    #expect(moved.unreadable == (entries == 0 ? 2 : 0))
  }

  /// A lazy array read one element at a time by `elements()` keeps the decoder's `userInfo`.
  @Test(arguments: [0, JSONTape.lazyContainerEntries])
  func elementsOfALazyArrayKeepTheUserInfo(_ entries: Int) throws {
    let key = try #require(CodingUserInfoKey(rawValue: "tag"))
    var decoder = RewindJSONDecoder(userInfo: [key: "set"])
    decoder.lazyContainerEntries = entries
    let bytes = Array(#"{"items":[1,2,3]}"#.utf8)
    let holder = try bytes.withUnsafeBytes { try decoder.decodeDirectly(Holder.self, from: $0) }
    #expect(holder.items == Array(repeating: Tagged(tag: "set"), count: 3))
  }
}

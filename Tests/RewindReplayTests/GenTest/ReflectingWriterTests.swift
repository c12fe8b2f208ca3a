import Testing

@testable import RewindReplay

/// `ReflectingWriter` writes exactly `String(reflecting:)`, piece by piece, on every shape a
/// state can take.
@Suite struct ReflectingWriterTests {
  struct Item {
    var id: Int
    var title: String
    var tags: [String]?
    var rank: Int?
  }
  struct Empty {}
  struct Box<T> { var value: T }
  enum Kind {
    case plain
    case count(Int)
    case items([Item])
  }
  struct Mirrored: CustomReflectable {
    var customMirror: Mirror {
      Mirror(self, children: ["q": 1, "items": [Item(id: 1, title: "", tags: nil, rank: 3)]])
    }
  }
  struct Described: CustomStringConvertible { var description: String { "described" } }
  final class Reference { var x = 1 }
  struct Everything {
    var pair: (Int, label: String)
    var table: [String: Int]
    var kinds: [Kind]
    var ratio: Double
    var mirrored: Mirrored
    var described: Described
    var empty: Empty
    var box: Box<[Empty]>
    var nested: [[Item]]
    var optionals: [Item?]
    var reference: Reference
    var optionalItems: [Item]?
  }

  static var values: [Any] {
    [
      Item(id: 1, title: "quote \" and\nnewline, é, 🌱", tags: ["a", "b"], rank: nil),
      Empty(),
      Box(value: [Empty()]),
      [Item(id: 2, title: "", tags: nil, rank: 5)],
      Everything(
        pair: (1, label: "x"), table: ["a": 1], kinds: [.plain, .count(2), .items([])], ratio: 1.5,
        mirrored: Mirrored(), described: Described(), empty: Empty(), box: Box(value: []),
        nested: [[], [Item(id: 0, title: "é", tags: [], rank: 0)]],
        optionals: [nil, Item(id: 1, title: "", tags: nil, rank: nil)], reference: Reference(),
        optionalItems: [Item(id: 3, title: "t", tags: nil, rank: nil)]),
      Optional([1]) as Any,
      [Int?](),
      [[Int]](),
      Kind.items([Item(id: 4, title: "u", tags: ["v"], rank: 1)]),
      "a string",
      42,
      AnyHashable([1, 2]),
      [AnyHashable([3]), AnyHashable("x")],
      Box(value: AnyHashable(["a": [1]])),
    ]
  }

  @Test(arguments: 0..<14)
  func writesWhatStringReflectingSays(_ index: Int) throws {
    try #require(Self.values.count == 14)
    let value = Self.values[index]
    var written = ""
    ReflectingWriter.write(value, to: &written)
    #expect(written == String(reflecting: value))
  }

  /// Counts the pieces it is given and keeps the longest.
  struct Pieces: TextOutputStream {
    var count = 0
    var longest = 0
    mutating func write(_ string: String) {
      count += 1
      longest = max(longest, string.utf8.count)
    }
  }

  /// An array of 10,000 structs is written in pieces no longer than a type name or a member's
  /// text: never as one string.
  @Test func aLongArrayIsWrittenAPieceAtATime() {
    let items = (0..<10_000).map { Item(id: $0, title: "Item \($0)", tags: nil, rank: $0) }
    var pieces = Pieces()
    ReflectingWriter.write(Box(value: items), to: &pieces)
    #expect(pieces.count > 10_000)
    #expect(pieces.longest < 200, "the longest piece was \(pieces.longest) bytes")
  }
}

import Foundation
import Testing

@testable import RewindJSON

/// A shape with every kind of member, written by hand the way its synthesized `Codable` writes it.
private struct Shape: Codable, Equatable, JSONDirectCodable {
  var name: String
  var counts: [Int64]
  var ratio: Double
  var flag: Bool
  var note: String?
  var extra: [String: Int]

  func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    json.key("name")
    json.string(name)
    json.key("counts")
    json.beginArray()
    for count in counts { json.integer(count) }
    json.endArray()
    json.key("ratio")
    try json.number(ratio)
    json.key("flag")
    json.bool(flag)
    if let note {
      json.key("note")
      json.string(note)
    }
    json.key("extra")
    try json.encode(extra)
    json.endObject()
  }

  init(json: JSONDirectReader) throws {
    name = try json.required("name").string()
    counts = try json.required("counts").elements().map { try $0.integer(Int64.self) }
    ratio = try json.required("ratio").double()
    flag = try json.required("flag").bool()
    note = try json.member("note").flatMap { $0.isNull ? nil : try $0.string() }
    extra = try json.required("extra").decode([String: Int].self)
  }

  init(
    name: String, counts: [Int64], ratio: Double, flag: Bool, note: String?, extra: [String: Int]
  ) {
    (self.name, self.counts, self.ratio, self.flag, self.note, self.extra) = (
      name, counts, ratio, flag, note, extra
    )
  }
}

/// Writes its members in another order than `encode(to:)`: what `verify` must catch.
private struct Misordered: Codable, Equatable, JSONDirectCodable {
  var a = 1
  var b = 2

  func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    json.key("b")
    json.integer(b)
    json.key("a")
    json.integer(a)
    json.endObject()
  }

  init(json: JSONDirectReader) throws {
    a = try json.required("a").integer()
    b = try json.required("b").integer()
  }

  init() {}
}

@Suite struct JSONDirectCodingTests {
  private static let shapes: [Shape] = [
    Shape(name: "plain", counts: [], ratio: 0, flag: false, note: nil, extra: [:]),
    Shape(
      name: "esc \" \\ / \n\t\u{1} é 🌱", counts: [Int64.min, -1, 0, 1, Int64.max],
      ratio: -0.0, flag: true, note: "", extra: ["b": 2, "a": 1]),
    Shape(
      name: "", counts: [42], ratio: 1e-300, flag: true, note: "x",
      extra: ["z": -3, "ümlaut": 0]),
    Shape(
      name: "numbers", counts: [7], ratio: 123_456.789, flag: false, note: nil, extra: ["k": 1]),
  ]

  @Test func directWritingIsByteForByteTheEncoderAndReadsBack() throws {
    try JSONDirectCoding.verify(Self.shapes)
    // And Foundation reads the bytes to the same values.
    for shape in Self.shapes {
      var writer = JSONDirectWriter()
      try shape.encodeJSON(to: &writer)
      #expect(try JSONDecoder().decode(Shape.self, from: Data(writer.bytes)) == shape)
    }
  }

  @Test func verifyNamesTheValueAndBothTexts() throws {
    do {
      try JSONDirectCoding.verify([Misordered()])
      Issue.record("verify accepted members in another order")
    } catch let mismatch as JSONDirectCodingMismatch {
      #expect(mismatch.position == 0)
      #expect(mismatch.codable == #"{"a":1,"b":2}"#)
      #expect(mismatch.direct == #"{"b":2,"a":1}"#)
      #expect(mismatch.description.contains("wrote other bytes than encode(to:)"))
    }
  }

  @Test func theWriterTracksTheTopLevelForTheActionType() throws {
    var object = JSONDirectWriter()
    object.beginObject()
    object.key("add")
    object.beginObject()
    object.key("title")
    object.string("x")
    object.endObject()
    object.endObject()
    #expect(object.isComplete)
    #expect(object.topLevel == .singleKeyObject("add"))
    #expect(String(decoding: object.bytes, as: UTF8.self) == #"{"add":{"title":"x"}}"#)

    var string = JSONDirectWriter()
    string.string("increment")
    #expect(string.topLevel == .string("increment"))

    var twoKeys = JSONDirectWriter()
    twoKeys.beginObject()
    twoKeys.key("a")
    twoKeys.null()
    twoKeys.key("b")
    twoKeys.integer(UInt8.max)
    twoKeys.endObject()
    #expect(twoKeys.isComplete)
    #expect(twoKeys.topLevel == .other)
    #expect(String(decoding: twoKeys.bytes, as: UTF8.self) == #"{"a":null,"b":255}"#)
  }

  /// Sequences that are not one JSON value.
  private static let misuses: [(String, @Sendable (inout JSONDirectWriter) -> Void)] = [
    ("nothing", { _ in }),
    (
      "two top-level values",
      {
        $0.integer(1)
        $0.integer(2)
      }
    ),
    (
      "a value where a key belongs",
      {
        $0.beginObject()
        $0.integer(1)
        $0.endObject()
      }
    ),
    (
      "a key in an array",
      {
        $0.beginArray()
        $0.key("a")
        $0.integer(1)
        $0.endArray()
      }
    ),
    ("a key at the top level", { $0.key("a") }),
    (
      "a key without its value",
      {
        $0.beginObject()
        $0.key("a")
        $0.endObject()
      }
    ),
    ("an object left open", { $0.beginObject() }),
    (
      "an array closed as an object",
      {
        $0.beginArray()
        $0.endObject()
      }
    ),
    (
      "a container closed twice",
      {
        $0.beginArray()
        $0.endArray()
        $0.endArray()
      }
    ),
  ]

  @Test(arguments: 0..<9)
  func aSequenceThatIsNotOneValueIsIncomplete(misuse: Int) {
    let (name, write) = Self.misuses[misuse]
    var writer = JSONDirectWriter()
    write(&writer)
    #expect(!writer.isComplete, "\(name)")
  }

  @Test func integersOfEveryWidthAreSpelledAsStringSpellsThem() throws {
    var writer = JSONDirectWriter()
    writer.beginArray()
    writer.integer(Int.min)
    writer.integer(Int8.min)
    writer.integer(UInt64.max)
    writer.integer(0 as UInt16)
    if #available(macOS 15.0, *) {
      // Wider than 64 bits: written from its text, not through a UInt64 (which would trap).
      writer.integer(Int128.min)
      writer.integer(UInt128.max)
    }
    writer.endArray()
    #expect(writer.isComplete)
    var expected = "[\(Int.min),-128,\(UInt64.max),0"
    if #available(macOS 15.0, *) { expected += ",\(Int128.min),\(UInt128.max)" }
    #expect(String(decoding: writer.bytes, as: UTF8.self) == expected + "]")
  }

  @Test func nonFiniteNumbersThrow() {
    var writer = JSONDirectWriter()
    #expect(throws: JSONDirectWriterError.self) { try writer.number(Double.nan) }
    #expect(throws: JSONDirectWriterError.self) { try writer.number(-Float.infinity) }
  }

  private func withDocument<R>(_ text: String, _ body: (JSONDirectReader) throws -> R) throws -> R {
    let document = JSONTapeDocument()
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBytes { buffer in
      guard document.load(buffer) else { throw JSONDirectReaderError(reason: "invalid", offset: 0) }
      return try body(JSONDirectReader(document: document, index: document.root))
    }
  }

  @Test func theReaderReadsEachKindAndSaysWhereAMismatchIs() throws {
    let text = #"{"s":"a\u00e9","i":-12,"d":2.5,"t":true,"n":null,"a":[1,2,3],"o":{"x":1}}"#
    try withDocument(text) { (json: JSONDirectReader) throws in
      #expect(try json.required("s").string() == "aé")
      #expect(try json.required("i").integer(Int8.self) == -12)
      #expect(try json.required("d").double() == 2.5)
      #expect(try json.required("t").bool())
      #expect(try json.required("n").isNull)
      #expect(try json.required("a").elements().map { try $0.integer(Int.self) } == [1, 2, 3])
      #expect(try json.required("o").onlyMember().key.matches("x"))
      #expect(try json.member("missing") == nil)
      #expect(json.count == 7)
      do {
        _ = try json.required("s").integer(Int.self)
        Issue.record("a string read as an integer")
      } catch {
        #expect("\(error)" == "expected a number, found a JSON string at byte 5")
      }
      #expect(throws: JSONDirectReaderError.self) { try json.required("i").integer(UInt8.self) }
      #expect(throws: JSONDirectReaderError.self) { try json.onlyMember() }
      #expect(throws: JSONDirectReaderError.self) { try json.required("nope") }
    }
  }

  @Test func aReaderKeptPastItsDocumentThrows() throws {
    let document = JSONTapeDocument()
    let first = Array(#"{"a":"x"}"#.utf8)
    let second = Array("[1]".utf8)
    let kept = first.withUnsafeBytes { buffer -> JSONDirectReader? in
      guard document.load(buffer) else { return nil }
      return JSONDirectReader(document: document, index: document.root)
    }
    _ = second.withUnsafeBytes { document.load($0) }
    #expect(throws: JSONDirectReaderError.self) { try kept?.required("a") }
  }

  @Test func escapedAndNonASCIIKeysMatchAsSwiftStrings() throws {
    try withDocument(#"{"caf\u00e9":1}"#) { (json: JSONDirectReader) throws in
      #expect(try json.onlyMember().key.matches("café"))
      #expect(try json.member("café")?.integer(Int.self) == 1)
      #expect(try json.onlyMember().key.string == "café")
    }
  }
}

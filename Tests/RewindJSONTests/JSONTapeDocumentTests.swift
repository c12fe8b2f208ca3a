import Foundation
import Testing

@testable import RewindJSON

/// The tape reader (``JSONTapeDocument``) against the parser, and decoding text as it came
/// (whitespace, escapes, numbers like `1.0`) against decoding its parsed `JSONValue`, which is
/// written out compact first: same acceptance, same values, same errors.
@Suite struct JSONTapeDocumentTests {
  /// The result of decoding `json` as `T` on one path: the value or the error's summary.
  enum Outcome<T: Equatable>: Equatable {
    case value(T)
    case failure(String)
  }

  /// Decodes `json` as `T` through a tape whose arrays go lazy past `lazyContainerEntries`.
  static func viaTape<T: Decodable & Equatable>(
    _ type: T.Type, _ json: String, lazyContainerEntries: Int = JSONTape.lazyContainerEntries
  ) -> Outcome<T>? {
    let bytes = Array(json.utf8)
    return bytes.withUnsafeBytes { buffer in
      let document = JSONTapeDocument(lazyContainerEntries: lazyContainerEntries)
      guard document.load(buffer) else { return nil }
      do {
        return .value(try document.decode(type, at: document.root))
      } catch let error as DecodingError {
        return .failure(error.summary)
      } catch {
        return .failure("\(error)")
      }
    }
  }

  func viaValue<T: Decodable & Equatable>(_ type: T.Type, _ json: String) -> Outcome<T>? {
    guard let value = try? JSONParser.parse(json) else { return nil }
    do {
      return .value(try RewindJSONDecoder().decode(type, from: value))
    } catch let error as DecodingError {
      return .failure(error.summary)
    } catch {
      return .failure("\(error)")
    }
  }

  @Test func decodesSeededSnapshotsLikeTheValuePath() throws {
    for seed in FoundationDifferentialTests.seeds {
      let value = FoundationDifferentialTests.snapshot(seed: seed)
      for bytes in [try RewindJSONEncoder().encode(value), Array(try JSONEncoder().encode(value))] {
        let json = String(decoding: bytes, as: UTF8.self)
        #expect(Self.viaTape(Snapshot.self, json) == .value(value), "seed \(seed)")
      }
    }
  }

  static let cases: [(String, String)] = [
    ("todo", #"{"add":{"title":"Buy milk"}}"#),
    ("todo", #"{"add":{"title":"Read \"Dune\" \u00e9\ud83d\ude00"}}"#),
    ("todo", #"{"move":{"from":1,"to":-2}}"#),
    ("todo", #"{"move":{"from":1.0,"to":2e1}}"#),
    ("todo", #"{"move":{"from":1.5,"to":2}}"#),
    ("todo", #"{"move":{"from":"1","to":2}}"#),
    ("todo", #"{"move":{"from":null,"to":2}}"#),
    ("todo", #"{"move":{"to":2}}"#),
    ("todo", #"{"move":{"from":99999999999999999999,"to":2}}"#),
    ("todo", #"{"clear":{}}"#),
    ("todo", #"{"clear":[]}"#),
    ("todo", #"{"nope":{}}"#),
    ("todo", #"{"add":{"title":"a"},"clear":{}}"#),
    ("todo", #"{}"#),
    ("todo", #"[1]"#),
    ("todo", #"{"setNote":{"_0":null}}"#),
    ("todo", #"{"setNote":{}}"#),
    ("todo", #"{"batch":{"_0":[{"clear":{}},{"move":{"from":1,"to":"x"}}]}}"#),
    ("todo", #"{"\u0061dd":{"t\u0069tle":"escaped keys"}}"#),
    (
      "widths",
      #"{"int":1,"int8":127,"int16":-32768,"int32":1,"int64":-1,"uint":0,"uint8":255,"uint16":1,"uint32":1,"uint64":18446744073709551615}"#
    ),
    (
      "widths",
      #"{"int":1,"int8":128,"int16":0,"int32":1,"int64":-1,"uint":0,"uint8":255,"uint16":1,"uint32":1,"uint64":1}"#
    ),
    (
      "widths",
      #"{"int":1,"int8":1,"int16":0,"int32":1,"int64":-1,"uint":-1,"uint8":255,"uint16":1,"uint32":1,"uint64":1}"#
    ),
    (
      "widths",
      #"{"int":-0,"int8":1e2,"int16":0,"int32":1,"int64":-1,"uint":-0,"uint8":2.50e1,"uint16":1,"uint32":1,"uint64":1}"#
    ),
    (
      "foundations",
      #"{"date":1.5,"data":"AAE=","url":"https://example.com","decimal":1.25,"uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#
    ),
    ("foundations", #"{"date":"x","data":"!!","url":"","decimal":1,"uuid":"nope"}"#),
    ("doubles", #"[0,-0,1e-400,1e400,0.1,123456789012345678901234567890,-1.5e-7]"#),
    ("doubles", #"[1,true]"#),
    ("grid", #"[[1,null,3],[],[null]]"#),
    ("grid", #"[[1,"2"]]"#),
    ("map", #"{"a":1,"b":2,"é":3,"e\u0301x":4}"#),
    ("map", #"{"a":1,"b":"2"}"#),
  ]

  @Test(arguments: cases)
  func matchesTheValuePath(_ type: String, _ json: String) {
    switch type {
    case "todo":
      #expect(Self.viaTape(TodoAction.self, json) == viaValue(TodoAction.self, json), "\(json)")
    case "widths":
      #expect(
        Self.viaTape(IntegerWidths.self, json) == viaValue(IntegerWidths.self, json), "\(json)")
    case "foundations":
      #expect(Self.viaTape(Foundations.self, json) == viaValue(Foundations.self, json), "\(json)")
    case "doubles":
      #expect(Self.viaTape([Double].self, json) == viaValue([Double].self, json), "\(json)")
    case "grid":
      #expect(Self.viaTape([[Int?]].self, json) == viaValue([[Int?]].self, json), "\(json)")
    case "map":
      #expect(
        Self.viaTape([String: Int].self, json) == viaValue([String: Int].self, json), "\(json)")
    default: Issue.record("unknown type \(type)")
    }
  }

  @Test func acceptsExactlyWhatTheParserAccepts() {
    let texts = [
      #"{"a":1}"#, #" {"a" : [1, 2] } "#, #"{"a":1,"a":2}"#, #"{"é":1,"e\u0301":2}"#,
      #"{"\u0061":1,"a":2}"#, "[1,]", "[01]", "[1.]", "[-]", #"["\x"]"#, "\u{FEFF}[1]", "[1] x",
      "[tru]", "[nul]", "[fals]", "[true,false,null]", #"["\ud800"]"#, "{", "[", "", "1", "-0.5e+3",
      "[\"a\u{1}\"]", "[\"\u{7F}\"]",
      // Past the linear duplicate check: unique keys, a late duplicate, an escaped duplicate.
      "{" + (0..<200).map { #""k\#($0)":[\#($0)]"# }.joined(separator: ",") + "}",
      "{" + (0..<200).map { #""k\#($0)":{}"# }.joined(separator: ",") + #","k150":1}"#,
      "{" + (0..<200).map { #""k\#($0)":0"# }.joined(separator: ",") + #","\u006b9":1}"#,
      "["
        + (0..<3).map { _ in
          "{" + (0..<100).map { #""k\#($0)":0"# }.joined(separator: ",") + "}"
        }.joined(separator: ",") + "]",
    ]
    for text in texts {
      let bytes = Array(text.utf8)
      let loads = bytes.withUnsafeBytes { JSONTapeDocument().load($0) }
      #expect(loads == ((try? JSONParser.parse(bytes)) != nil), "\(text)")
    }
  }

  @Test func knowsWhenEveryValueIsAlreadyCompact() throws {
    let compact = [#"{"a":[1,"x\"y\\z\n\u0001"],"b":{}}"#, #"{"add":{"title":"Buy milk"}}"#]
    let loose = [
      #"{"a": 1}"#, #"{"a":"\/"}"#, #"{"a":"\u0041"}"#, #"{"a":"\u000A"}"#, #"["\u001F"]"#,
    ]
    for text in compact + loose {
      let bytes = Array(text.utf8)
      let document = JSONTapeDocument()
      let isCompact = bytes.withUnsafeBytes { document.load($0) && document.isCompact }
      #expect(isCompact == compact.contains(text), "\(text)")
      if isCompact {
        #expect(try JSONParser.parse(text).serializedBytes == bytes, "\(text)")
      }
    }
  }

  @Test func findsMembersAndTheirText() throws {
    let text = #"{"kind":"action","type":"add","action":{"add":{"title":"Buy milk"}},"on":true}"#
    let bytes = Array(text.utf8)
    try bytes.withUnsafeBytes { buffer in
      let document = JSONTapeDocument()
      #expect(document.load(buffer))
      let action = try #require(document.member("action", of: document.root))
      #expect(
        String(decoding: document.text(at: action), as: UTF8.self)
          == #"{"add":{"title":"Buy milk"}}"#)
      #expect(document.member("type", of: document.root).flatMap(document.string(at:)) == "add")
      #expect(document.member("on", of: document.root).map(document.isTrue(at:)) == true)
      #expect(document.member("missing", of: document.root) == nil)
      #expect(try document.decode(TodoAction.self, at: action) == .add(title: "Buy milk"))
    }
  }

  @Test func aHugeDocumentsTapeIsNotKeptForTheNextOne() throws {
    var storage = JSONTapeStorage()
    defer { storage.deallocate() }
    let huge = Array(("[" + String(repeating: "0,", count: (1 << 20) + 10) + "0]").utf8)
    let hugeLoaded = huge.withUnsafeBytes { bytes in
      var reader = JSONReader(bytes: bytes, limits: JSONLimits(maxElements: 1 << 22))
      reader.lazyContainerEntries = .max
      return (try? reader.readTape(into: &storage)) != nil
    }
    #expect(hugeLoaded && storage.count == (1 << 20) + 12)
    #expect(storage.capacity > JSONTapeStorage.keptCapacity)
    let small = Array("[1,2]".utf8)
    let smallLoaded = small.withUnsafeBytes { bytes in
      var reader = JSONReader(bytes: bytes, limits: .default)
      return (try? reader.readTape(into: &storage)) != nil
    }
    #expect(smallLoaded && storage.count == 3)
    #expect(storage.capacity == 64)
  }

  /// An entry is 16 bytes, and its packed fields read back what was written.
  @Test func anEntryPacksItsFieldsIntoSixteenBytes() {
    #expect(MemoryLayout<JSONTapeEntry>.stride == 16)
    // Offsets past `Int32.max` (written so that the file also compiles where `Int` is 32 bits).
    let end = Int(truncatingIfNeeded: 0xFFFF_FFF0 as UInt64)
    let next = Int(truncatingIfNeeded: 3_000_000_000 as UInt64)
    var entry = JSONTapeEntry(kind: .string, start: 7, end: end, next: next)
    entry.isEscaped = true
    entry.isASCII = false
    entry.count = Int32(JSONLimits.elementCeiling)
    #expect(entry.kind == .string && entry.isEscaped && !entry.isASCII)
    #expect(entry.start == 7 && entry.end == end && entry.next == next)
    #expect(entry.count == Int32(JSONLimits.elementCeiling))
    entry.count = 2
    entry.isEscaped = false
    entry.isASCII = true
    #expect(entry.kind == .string && !entry.isEscaped && entry.isASCII && entry.count == 2)
    for kind in [JSONTapeEntry.Kind.null, .isFalse, .isTrue, .number, .array, .object] {
      #expect(JSONTapeEntry(kind: kind, start: 0, end: 1, next: 1).kind == kind)
    }
  }

  /// A large document gets the room for all its entries at once (one per two bytes, plus
  /// one), and the densest text fills it without growing it.
  @Test func aLargeDocumentsTapeIsAllocatedOnce() throws {
    var storage = JSONTapeStorage()
    defer { storage.deallocate() }
    let count = JSONTape.reservedDocumentBytes / 2 + 5
    let dense = Array(("[" + String(repeating: "0,", count: count) + "0]").utf8)
    let loaded = dense.withUnsafeBytes { bytes in
      var reader = JSONReader(bytes: bytes, limits: .default)
      reader.lazyContainerEntries = .max
      return (try? reader.readTape(into: &storage)) != nil
    }
    #expect(loaded && storage.count == count + 2)
    #expect(storage.capacity == dense.count / 2 + 2)
    #expect(storage.buffer[0].count == Int32(count + 1))
  }

  /// `maxElements` past the ceiling reads as the ceiling, in the parser, the validator and the
  /// tape alike.
  @Test func theElementLimitIsCappedAtTheCeiling() {
    #expect(JSONLimits(maxElements: .max).elementLimit == JSONLimits.elementCeiling)
    #expect(JSONLimits(maxElements: 5).elementLimit == 5)
    #expect(JSONLimits.elementCeiling == 134_217_727)
    #expect(
      JSONParseError.Reason.documentTooLarge(limit: JSONLimits.byteCeiling).description
        == "the document is longer than \(JSONLimits.byteCeiling) bytes, the most Rewind's JSON "
        + "reader reads")
  }
}

import Foundation
import Testing

@testable import Rewind
@testable import RewindJSON

// Protocol-typed actions of every shape `encode(to:)` can give, recorded through an
// `ActionCatalog`. The expected bytes below were captured from the build before catalog actions
// were encoded in one pass (when `superEncoder(forKey:)` sent the stream encoder to its buffered
// mode): logs recorded since must be byte for byte what they were.

/// The actions' protocol, as a ReSwift app's `Action`.
private protocol NoteAction: Sendable {}

/// Synthesized `Codable`: scalars, an array, an optional and a `Date`.
private struct AddNote: NoteAction, Codable, Equatable {
  var title: String
  var priority: Int
  var tags: [String]
  var due: Date?
}

/// No members: `{}`.
private struct ClearNotes: NoteAction, Codable, Equatable {}

/// A `Double`, a dictionary and a set (both written sorted).
private struct ScaleNotes: NoteAction, Codable, Equatable {
  var factor: Double
  var limits: [String: Int]
  var ids: Set<Int>
}

/// A single value: the action is its string.
private struct RenameNotes: NoteAction, Codable, Equatable {
  var name: String

  init(name: String) { self.name = name }
  init(from decoder: any Decoder) throws {
    name = try decoder.singleValueContainer().decode(String.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}

/// An unkeyed container.
private struct MoveNote: NoteAction, Codable, Equatable {
  var from: Int
  var to: Int

  init(from: Int, to: Int) {
    self.from = from
    self.to = to
  }
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    from = try container.decode(Int.self)
    to = try container.decode(Int.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(from)
    try container.encode(to)
  }
}

/// An `encode(to:)` that writes nothing: `{}`, as a container never written to is.
private struct PingNotes: NoteAction, Codable, Equatable {
  init() {}
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {}
}

/// Hand-written `Codable` with a nested keyed container and a super encoder of its own.
private struct AnnotateNote: NoteAction, Codable, Equatable {
  struct Meta: Codable, Equatable {
    var author: String
    var edits: Int
  }
  var id: Int
  var start: Int
  var end: Int
  var meta: Meta
  var tail: String

  enum CodingKeys: String, CodingKey {
    case id, meta, tail
    case bounds = "span"
  }
  enum SpanKeys: String, CodingKey { case start, end }

  init(id: Int, start: Int, end: Int, meta: Meta, tail: String) {
    self.id = id
    self.start = start
    self.end = end
    self.meta = meta
    self.tail = tail
  }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    let bounds = try container.nestedContainer(keyedBy: SpanKeys.self, forKey: .bounds)
    start = try bounds.decode(Int.self, forKey: .start)
    end = try bounds.decode(Int.self, forKey: .end)
    meta = try Meta(from: container.superDecoder(forKey: .meta))
    tail = try container.decode(String.self, forKey: .tail)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    var bounds = container.nestedContainer(keyedBy: SpanKeys.self, forKey: .bounds)
    try bounds.encode(start, forKey: .start)
    try bounds.encode(end, forKey: .end)
    try meta.encode(to: container.superEncoder(forKey: .meta))
    try container.encode(tail, forKey: .tail)
  }
}

/// An action with its own direct path, whose name needs no escapes but whose text does.
private struct PinNote: NoteAction, Codable, Equatable, JSONDirectCodable {
  var id: Int
  var label: String

  init(id: Int, label: String) {
    self.id = id
    self.label = label
  }
  func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    try json.write("id", id)
    try json.write("label", label)
    json.endObject()
  }
  init(json: JSONDirectReader) throws {
    id = try json.required("id").integer()
    label = try json.required("label").string()
  }
}

/// A superclass, for the classic `super.encode(to: container.superEncoder())`.
private class NoteLinkBase: Codable, @unchecked Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

/// A subclass that writes its superclass under `super`, after its own member.
private final class LinkNotes: NoteLinkBase, NoteAction, @unchecked Sendable {
  let target: Int

  enum CodingKeys: String, CodingKey { case target }

  init(id: Int, target: Int) {
    self.target = target
    super.init(id: id)
  }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    target = try container.decode(Int.self, forKey: .target)
    try super.init(from: container.superDecoder())
  }
  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(target, forKey: .target)
    try super.encode(to: container.superEncoder())
  }
}

/// The test catalog.
private enum NoteCatalog: ActionCatalog {
  typealias Base = any NoteAction
  static let types: [any (Codable & Sendable).Type] = [
    AddNote.self, ClearNotes.self, ScaleNotes.self, RenameNotes.self, MoveNote.self,
    PingNotes.self, AnnotateNote.self, PinNote.self, LinkNotes.self,
  ]
}

/// One action of each type, in the order of ``catalogActionJSON``.
private let noteActions: [any NoteAction] = [
  AddNote(
    title: "Buy \"milk\" / 🥛", priority: -3, tags: ["home", "π"],
    due: Date(timeIntervalSinceReferenceDate: 812_345_678.25)),
  AddNote(title: "", priority: 0, tags: [], due: nil),
  ClearNotes(),
  ScaleNotes(factor: 0.1, limits: ["b": 2, "a": 1, "ä": 3], ids: [3, 1, 2]),
  RenameNotes(name: "inbox\n2"),
  MoveNote(from: 4, to: 1),
  PingNotes(),
  AnnotateNote(
    id: 9, start: 1, end: 4, meta: AnnotateNote.Meta(author: "ann", edits: 2), tail: "end"),
  PinNote(id: 7, label: "tab\there"),
  LinkNotes(id: 5, target: 6),
]

/// Each action's JSON as the recorder wrote it before the one-pass catalog encoding.
private let catalogActionJSON: [String] = [
  #"{"AddNote":{"title":"Buy \"milk\" / 🥛","priority":-3,"tags":["home","π"],"due":812345678.25}}"#,
  #"{"AddNote":{"title":"","priority":0,"tags":[]}}"#,
  #"{"ClearNotes":{}}"#,
  #"{"ScaleNotes":{"factor":0.1,"limits":{"a":1,"b":2,"ä":3},"ids":[1,2,3]}}"#,
  #"{"RenameNotes":"inbox\n2"}"#,
  #"{"MoveNote":[4,1]}"#,
  #"{"PingNotes":{}}"#,
  #"{"AnnotateNote":{"id":9,"span":{"start":1,"end":4},"meta":{"author":"ann","edits":2},"tail":"end"}}"#,
  #"{"PinNote":{"id":7,"label":"tab\there"}}"#,
  #"{"LinkNotes":{"target":6,"super":{"id":5}}}"#,
]

/// The action lines of a log of ``noteActions`` as they were recorded before the one-pass
/// catalog encoding (reproducible options: fixed session and times).
private let catalogActionLines: [String] = [
  #"{"c":"abd86da0","kind":"action","seq":1,"time":0.012500,"type":"AddNote","action":{"AddNote":{"title":"Buy \"milk\" / 🥛","priority":-3,"tags":["home","π"],"due":812345678.25}}}"#,
  #"{"c":"e74d6550","kind":"action","seq":2,"time":0.025000,"type":"AddNote","action":{"AddNote":{"title":"","priority":0,"tags":[]}}}"#,
  #"{"c":"0bd8e5eb","kind":"action","seq":3,"time":0.037500,"type":"ClearNotes","action":{"ClearNotes":{}}}"#,
  #"{"c":"217458f5","kind":"action","seq":4,"time":0.050000,"type":"ScaleNotes","action":{"ScaleNotes":{"factor":0.1,"limits":{"a":1,"b":2,"ä":3},"ids":[1,2,3]}}}"#,
  #"{"c":"9abce905","kind":"action","seq":5,"time":0.062500,"type":"RenameNotes","action":{"RenameNotes":"inbox\n2"}}"#,
  #"{"c":"a575c92e","kind":"action","seq":6,"time":0.075000,"type":"MoveNote","action":{"MoveNote":[4,1]}}"#,
  #"{"c":"684b3a83","kind":"action","seq":7,"time":0.087500,"type":"PingNotes","action":{"PingNotes":{}}}"#,
  #"{"c":"8d56baa5","kind":"action","seq":8,"time":0.100000,"type":"AnnotateNote","action":{"AnnotateNote":{"id":9,"span":{"start":1,"end":4},"meta":{"author":"ann","edits":2},"tail":"end"}}}"#,
  #"{"c":"be534fdf","kind":"action","seq":9,"time":0.112500,"type":"PinNote","action":{"PinNote":{"id":7,"label":"tab\there"}}}"#,
  #"{"c":"8ae514fe","kind":"action","seq":10,"time":0.125000,"type":"LinkNotes","action":{"LinkNotes":{"target":6,"super":{"id":5}}}}"#,
]

@Suite struct CatalogActionCodingTests {
  private static func reproducible() -> RecordingOptions {
    var options = RecordingOptions(checkpointInterval: 4)
    options.reproducible = RecordingOptions.Reproducible(
      session: "00000000-0000-4000-8000-0000000000c4", recordedAt: "2026-11-29T00:00:00Z",
      secondsPerAction: 0.0125)
    return options
  }

  private static func wrapped(_ action: any NoteAction) throws -> CatalogAction<NoteCatalog> {
    try #require(CatalogAction<NoteCatalog>(action))
  }

  @Test func eachCatalogActionEncodesToTheBytesItAlwaysHad() throws {
    let encoder = RewindJSONEncoder()
    let texts = try noteActions.map {
      String(decoding: try encoder.encode(Self.wrapped($0)), as: UTF8.self)
    }
    #expect(texts == catalogActionJSON)
  }

  @Test func recordedCatalogActionLinesAreTheLinesTheyAlwaysWere() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("notes.jsonl")
    let recorder = try Recorder(
      path: path, app: "notes", initialState: 0, actions: NoteCatalog.self,
      options: Self.reproducible())
    var state = 0
    for action in noteActions {
      recorder.willReduce(action)
      state += 1
      recorder.didReduce(state)
    }
    recorder.close()
    let log = try RecordedLog(path: path)
    let lines = log.lineTexts.filter { $0.contains(#""kind":"action""#) }
    #expect(lines == catalogActionLines)
    #expect(log.checksumProblems().isEmpty)
  }

  @Test func recordingCatalogActionsNeverEntersTheBufferedMode() throws {
    let directory = try TemporaryDirectory()
    let counter = JSONStreamFallbackCounter()
    try JSONStreamFallbackCounter.$current.withValue(counter) {
      let recorder = try Recorder(
        path: directory.file("notes.jsonl"), app: "notes", initialState: 0,
        actions: NoteCatalog.self, options: Self.reproducible())
      for (index, action) in noteActions.enumerated() {
        recorder.willReduce(action)
        recorder.didReduce(index + 1)
      }
      recorder.close()
      // `encode(to:)` alone, as `LogCoder`'s full path and `RewindJSONEncoder` take it.
      for action in noteActions { _ = try RewindJSONEncoder().encode(Self.wrapped(action)) }
    }
    #expect(counter.byType == [:])
  }

  @Test func theDirectPathWritesTheSameBytes() throws {
    #expect(JSONDirectCoding.encoder(for: CatalogAction<NoteCatalog>.self) != nil)
    for (action, expected) in zip(noteActions, catalogActionJSON) {
      var writer = JSONDirectWriter()
      do {
        try Self.wrapped(action).encodeJSON(to: &writer)
      } catch {
        // A value that writes nothing is refused at the top level of the stream encoder that
        // the direct writer uses; the recorder then takes `encode(to:)`, which writes `{}`.
        #expect(action is PingNotes, "\(error)")
        continue
      }
      #expect(writer.isComplete)
      #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
      let name = try #require(writer.topLevelName)
      #expect(Array(writer.bytes[name]) == Array(String(describing: type(of: action)).utf8))
    }
  }

  @Test func eachCatalogActionReadsBackThroughBothPaths() throws {
    let decode = try #require(JSONDirectCoding.decoder(for: CatalogAction<NoteCatalog>.self))
    let document = JSONTapeDocument()
    let encoder = RewindJSONEncoder()
    for text in catalogActionJSON {
      let bytes = Array(text.utf8)
      let codable = try RewindJSONDecoder().decode(CatalogAction<NoteCatalog>.self, from: bytes)
      let direct = try bytes.withUnsafeBytes { buffer -> CatalogAction<NoteCatalog> in
        #expect(document.load(buffer))
        return try decode(document, document.root)
      }
      #expect(String(decoding: try encoder.encode(codable), as: UTF8.self) == text)
      #expect(String(decoding: try encoder.encode(direct), as: UTF8.self) == text)
      #expect(type(of: codable.action) == type(of: direct.action))
    }
  }

  @Test func anUnknownNameOrABadValueIsRefusedByBothPaths() throws {
    let decode = try #require(JSONDirectCoding.decoder(for: CatalogAction<NoteCatalog>.self))
    let document = JSONTapeDocument()
    for text in [#"{"Unlisted":{}}"#, #"{"AddNote":{"title":1}}"#, #"{"A":{},"B":{}}"#, "[]"] {
      let bytes = Array(text.utf8)
      #expect(throws: DecodingError.self, "\(text)") {
        try RewindJSONDecoder().decode(CatalogAction<NoteCatalog>.self, from: bytes)
      }
      bytes.withUnsafeBytes { buffer in
        #expect(document.load(buffer))
        #expect(throws: (any Error).self, "\(text)") { try decode(document, document.root) }
      }
    }
    do {
      _ = try RewindJSONDecoder().decode(
        CatalogAction<NoteCatalog>.self, from: Array(#"{"Unlisted":{}}"#.utf8))
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["Unlisted"])
      #expect(
        context.debugDescription
          == "unknown action type 'Unlisted': it is not in NoteCatalog.types (AddNote, "
          + "ClearNotes, ScaleNotes, RenameNotes, MoveNote, PingNotes, AnnotateNote, PinNote, "
          + "LinkNotes)")
    }
  }
}

import Foundation
import RewindExamples
import Testing

@testable import Rewind
@testable import RewindJSON

/// An action named by a key that needs escapes in a JSON string, with its own direct path.
private struct QuotedAction: Codable, Equatable, Sendable, JSONDirectCodable {
  var text: String

  enum CodingKeys: String, CodingKey {
    case text = "say \"hi\"\t"
  }

  init(text: String) { self.text = text }

  func encodeJSON(to json: inout JSONDirectWriter) throws {
    json.beginObject()
    json.key("say \"hi\"\t")
    json.string(text)
    json.endObject()
  }

  init(json: JSONDirectReader) throws {
    text = try json.required("say \"hi\"\t").string()
  }
}

/// The recorder writes an action's line in one pass, its name copied from the action's own JSON
/// (`LogLine.appendAction`); a sanitizer, the deny list or an encoding failure take the full
/// path (`LogLineBuilder`). Both must write the same bytes.
@Suite struct RecorderFastPathTests {
  private static func reproducible(deny: Set<String> = []) -> RecordingOptions {
    var options = RecordingOptions(checkpointInterval: 40, deniedActionTypes: deny)
    options.reproducible = RecordingOptions.Reproducible(
      session: "00000000-0000-4000-8000-0000000000fa", recordedAt: "2026-11-24T00:00:00Z",
      secondsPerAction: 0.0371)
    return options
  }

  @Test func oneLineIsTheBuildersLine() {
    let seqs: [UInt64] = [1, 9, 10, 99, 100, 101, 9_999, 123_456_789, UInt64(Int.max)]
    let micros: [UInt64] = [0, 1, 999_999, 1_000_000, 1_000_001, 12_345_678_901, 90_000]
    let types: [String] = ["add", "say \"hi\"\t", "🌱 plant", ""]
    let actions: [String] = [#"{"add":{"title":"x"}}"#, "null", #""s""#, "[1,2,3]"]
    for (index, seq) in seqs.enumerated() {
      let micro = micros[index % micros.count]
      let type = types[index % types.count]
      let action = actions[index % actions.count]
      var builder = LogLineBuilder(kind: .action)
      builder.integer("seq", Int(seq))
      builder.seconds("time", nanoseconds: micro * 1_000)
      builder.string("type", type)
      builder.json("action", Array(action.utf8))
      let expected = builder.framed()

      var quoted: [UInt8] = []
      JSONWriter.appendString(type, to: &quoted)
      let escaped = Array(quoted.dropFirst().dropLast())
      let buffer = ByteBuffer(capacity: 1)
      buffer.append(Array("before\n".utf8))
      escaped.withUnsafeBytes { typeBytes in
        Array(action.utf8).withUnsafeBytes { actionBytes in
          LogLine.appendAction(
            seq: seq, micros: micro, type: typeBytes,
            origin: UnsafeRawBufferPointer(start: nil, count: 0), action: actionBytes, to: buffer)
        }
      }
      #expect(buffer.array == Array("before\n".utf8) + expected, "seq \(seq), type \(type)")
    }
  }

  /// A sanitizer that changes nothing sends every action through the full path, with the same
  /// lines as a result.
  @Test func todoSessionIsTheSameThroughEitherPath() throws {
    let directory = try TemporaryDirectory()
    for deny in [Set<String>(), ["toggle", "setFilter"]] {
      let fast = directory.file("fast-\(deny.count).jsonl")
      let full = directory.file("full-\(deny.count).jsonl")
      let options = Self.reproducible(deny: deny)
      _ = try RecordedTodoSession.record(to: fast, seed: 5, count: 400, options: options)
      _ = try RecordedTodoSession.record(
        to: full, seed: 5, count: 400, options: options, actionSanitizer: { $0 })
      let fastLog = try RecordedLog(path: fast)
      let fullLog = try RecordedLog(path: full)
      #expect(fastLog.lines.count == 1 + 400 + 10 + 1)
      #expect(fastLog.bytes == fullLog.bytes, "deny list \(deny.sorted())")
      for line in fastLog.lines { #expect(RecordedLog.checksumProblem(of: line) == nil) }
    }
  }

  @Test func aNameThatNeedsEscapesIsWrittenAlikeEitherWay() throws {
    let directory = try TemporaryDirectory()
    let actions = ["plain", "with \"quotes\"", "tab\tand\nline", "🌱"].map(QuotedAction.init)
    func record(_ path: String, sanitizer: (@Sendable (QuotedAction) -> QuotedAction)?) throws {
      let recorder = try Recorder<[String], QuotedAction>(
        path: path, app: "quoted", initialState: [], options: Self.reproducible(),
        actionSanitizer: sanitizer)
      var state: [String] = []
      for action in actions {
        recorder.willReduce(action)
        state.append(action.text)
        recorder.didReduce(state)
      }
      recorder.close()
    }
    let fast = directory.file("fast.jsonl")
    let full = directory.file("full.jsonl")
    try record(fast, sanitizer: nil)
    try record(full, sanitizer: { $0 })
    let fastLog = try RecordedLog(path: fast)
    #expect(fastLog.bytes == (try RecordedLog(path: full)).bytes)
    let first = fastLog.lineTexts.dropFirst().first ?? ""
    #expect(first.contains(#""type":"say \"hi\"\t","action":{"say \"hi\"\t":"plain"}}"#))
  }
}

import Foundation
import RewindExamples
import RewindJSON
import Testing

@testable import Rewind

/// `Recorder.willReduce` is inlinable: an app calling it compiles the action's encoding into its
/// own module, specialised for its action type, and hands the bytes to the recorder's
/// non-generic path. The log must not change for it: these record the committed session fixture's
/// workload from this module — through that inlined path — and compare the file byte for byte.
@Suite struct RecorderInlinedPathTests {
  private static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// The options `rewind-testbed fixtures` records `Fixtures/todo-session.jsonl` with.
  private static func fixtureOptions() -> RecordingOptions {
    var options = RecordingOptions(
      checkpointInterval: 50, ifExists: .replace, build: BuildStamp())
    options.reproducible = RecordingOptions.Reproducible(
      session: "00000000-0000-4000-8000-000000000001", recordedAt: "2026-11-21T10:00:00Z",
      secondsPerAction: 0.25)
    return options
  }

  /// Records the fixture's session (seed 42, 340 actions) with `willReduce`, then the reducer,
  /// then `didReduce`, as an app with its own store does.
  private static func recordSession(to path: String, withOrigins: Bool) throws -> [UInt8] {
    let recorder = try Recorder<TodoState, TodoAction>(
      path: path, app: "todo", initialState: TodoState(), options: fixtureOptions())
    var state = TodoState()
    var workload = TodoWorkload(seed: 42)
    var seqs: [Int] = []
    for _ in 1...340 {
      let action = workload.next(for: state)
      if withOrigins {
        // Origins are not recorded by these options: the line is the same.
        seqs.append(recorder.willReduce(action, origin: ActionOrigin()))
      } else {
        recorder.willReduce(action)
      }
      todoReducer.reduce(&state, action)
      recorder.didReduce(state)
    }
    recorder.close(finalState: state)
    if case .stopped(let error) = recorder.status { throw error }
    if withOrigins { #expect(seqs == Array(1...340)) }
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test(arguments: [false, true])
  func theSessionFixtureIsRecordedByteForByte(withOrigins: Bool) throws {
    let directory = try TemporaryDirectory()
    let recorded = try Self.recordSession(
      to: directory.file("session.jsonl"), withOrigins: withOrigins)
    let committed = Array(
      try Data(contentsOf: Self.fixtures.appendingPathComponent("todo-session.jsonl")))
    #expect(recorded.count == committed.count)
    #expect(
      recorded == committed, "the inlined path wrote other bytes than Fixtures/todo-session.jsonl")
  }

  /// An action whose direct path throws for some values: those take the full path (Codable),
  /// the others the inlined one, and both write what the full path alone writes.
  @Test func aDirectPathThatThrowsFallsBackToTheSameBytes() throws {
    let directory = try TemporaryDirectory()
    let actions = (0..<30).map { FlakyAction(value: $0) }
    func record(_ path: String, sanitizer: (@Sendable (FlakyAction) -> FlakyAction)?) throws
      -> [UInt8]
    {
      var options = Self.fixtureOptions()
      options.checkpointInterval = 7
      options.deniedActionTypes = ["denied"]
      let recorder = try Recorder<Int, FlakyAction>(
        path: path, app: "flaky", initialState: 0, options: options, actionSanitizer: sanitizer)
      var state = 0
      for action in actions {
        recorder.willReduce(action)
        state += action.value
        recorder.didReduce(state)
      }
      recorder.close()
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let inlined = try record(directory.file("inlined.jsonl"), sanitizer: nil)
    let full = try record(directory.file("full.jsonl"), sanitizer: { $0 })
    #expect(inlined == full)
    let text = String(decoding: inlined, as: UTF8.self)
    #expect(text.contains(#""type":"odd","action":{"odd":{"value":3}}"#))
    #expect(text.contains(#""type":"even","action":{"even":{"value":4}}"#))
    #expect(text.contains(#""kind":"skipped","seq":7,"type":"denied","reason":"denied""#))
  }
}

/// An action whose direct path throws for odd values, and one of whose cases is denied.
private struct FlakyAction: Codable, Sendable, JSONDirectEncodable {
  var value: Int

  private enum CodingKeys: String, CodingKey { case odd, even, denied }
  private enum ValueKeys: String, CodingKey { case value }

  init(value: Int) { self.value = value }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: [], debugDescription: "no case"))
    }
    let nested = try container.nestedContainer(keyedBy: ValueKeys.self, forKey: key)
    value = try nested.decode(Int.self, forKey: .value)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    let key: CodingKeys = value % 6 == 0 && value > 0 ? .denied : value % 2 == 1 ? .odd : .even
    var nested = container.nestedContainer(keyedBy: ValueKeys.self, forKey: key)
    try nested.encode(value, forKey: .value)
  }

  func encodeJSON(to json: inout JSONDirectWriter) throws {
    struct Odd: Error {}
    if value % 2 == 1 { throw Odd() }
    json.beginObject()
    json.key(value % 6 == 0 && value > 0 ? "denied" : "even")
    json.beginObject()
    json.key("value")
    json.integer(value)
    json.endObject()
    json.endObject()
  }
}

import Rewind
import RewindExamples
import RewindTestSupport
import Testing

@testable import RewindReplay

/// `Verifier` compares a checkpoint with the replayed state by their bytes first (the recorder
/// writes a state as the encoder does), and value by value when the bytes differ: a hand-written
/// checkpoint spaced or ordered differently still matches, and a real difference is reported.
@Suite struct VerifierTests {
  static let app = ReplayApp(name: "counter", reducer: counterReducer)

  /// A counter log of two increments whose checkpoint after seq 2 is `checkpoint`.
  static func log(checkpoint: String) throws -> ReplayLog {
    let lines = [
      CounterLogLines.header(), CounterLogLines.increment(1), CounterLogLines.increment(2),
      #"{"kind":"checkpoint","seq":2,"state":\#(checkpoint)}"#, #"{"kind":"end","seq":2}"#,
    ]
    return try ReplayLog(name: "v.jsonl", contents: Array(CounterLogLines.text(lines).utf8))
  }

  @Test func aCheckpointIsComparedByItsBytesThenByItsValue() throws {
    let same = try Self.log(checkpoint: #"{"count":2}"#)
    #expect(same.checkpointStateText(at: 2) == Array(#"{"count":2}"#.utf8))
    #expect(try Verifier.verify(Self.app.timeline(for: same, usesCheckpoints: false)).isReproduced)

    let spaced = try Self.log(checkpoint: #"{ "count" : 2 }"#)
    #expect(spaced.checkpointStateText(at: 2) == Array(#"{ "count" : 2 }"#.utf8))
    let report = try Verifier.verify(Self.app.timeline(for: spaced, usesCheckpoints: false))
    #expect(report.isReproduced && report.checkpointsCompared == 1)

    let other = try Self.log(checkpoint: #"{"count":3}"#)
    let diverged = try Verifier.verify(Self.app.timeline(for: other, usesCheckpoints: false))
    #expect(!diverged.isReproduced)
    #expect(diverged.divergence?.seq == 2 && diverged.divergence?.line == 4)
  }

  /// A state written in parts: its text is the parts' texts put together.
  @Test func aStateInPartsIsComparedByItsTextPutTogether() throws {
    let lines = [
      CounterLogLines.header(), CounterLogLines.increment(1),
      #"{"kind":"state","seq":1,"part":0,"parts":2,"text":"{\"cou"}"#,
      #"{"kind":"state","seq":1,"part":1,"parts":2,"text":"nt\":1}"}"#, #"{"kind":"end","seq":1}"#,
    ]
    let log = try ReplayLog(name: "p.jsonl", contents: Array(CounterLogLines.text(lines).utf8))
    #expect(log.checkpointStateText(at: 1) == Array(#"{"count":1}"#.utf8))
    #expect(log.checkpointStateText(at: 0) == nil)
    #expect(try Verifier.verify(Self.app.timeline(for: log, usesCheckpoints: false)).isReproduced)
  }

  /// Parts whose text put together is over the reader's limits: not compared by bytes, but read
  /// as `replay state` reads them, which fails (each part alone was within the limits).
  @Test func aStateInPartsOverTheLimitsIsNotPassedByItsBytes() throws {
    let lines = [
      CounterLogLines.header(),
      #"{"kind":"action","seq":1,"type":"add","action":{"add":{"_0":99999}}}"#,
      #"{"kind":"action","seq":2,"type":"add","action":{"add":{"_0":99999}}}"#,
      #"{"kind":"state","seq":2,"part":0,"parts":2,"text":"{\"count\":199"}"#,
      #"{"kind":"state","seq":2,"part":1,"parts":2,"text":"998}"}"#, #"{"kind":"end","seq":2}"#,
    ]
    var limits = ReaderLimits.default
    limits.json.maxNumberLength = 5
    let log = try ReplayLog(
      name: "p.jsonl", contents: Array(CounterLogLines.text(lines).utf8), limits: limits)
    #expect(log.checkpointStateText(at: 2) == nil)
    #expect(throws: ReplayError.self) {
      try Verifier.verify(Self.app.timeline(for: log, usesCheckpoints: false))
    }
  }
}

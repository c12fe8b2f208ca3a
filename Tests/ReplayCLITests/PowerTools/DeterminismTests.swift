import Foundation
import Rewind
import RewindExamples
import RewindReplay
import Testing

/// `docs/determinism.md`: a reducer that reads the clock is caught by verify; the journal
/// example, which records the time in the action, replays exactly.
@Suite struct DeterminismTests {
  private func record(
    _ reducer: Reducer<JournalState, JournalAction>, to path: String
  ) throws {
    let store = Store(initialState: JournalState(), reducer: reducer)
    let recorder = try store.startRecording(
      to: path, app: "journal", options: RecordingOptions(checkpointInterval: 2, ifExists: .replace)
    )
    let start = Date(timeIntervalSince1970: 1_795_255_200)
    for (n, text) in ["Ran 5 km", "Read two chapters", "Fixed the bike"].enumerated() {
      store.dispatch(.write(text, now: start.addingTimeInterval(Double(n) * 3600)))
    }
    recorder.close()
  }

  @Test func valuesRecordedInTheActionReplayExactly() throws {
    let path = try PowerTools.temporaryDirectory().appendingPathComponent("journal.jsonl").path
    try record(journalReducer, to: path)
    let report = try assertReplays(path, app: "journal", reducer: journalReducer)
    #expect(report.checkpointsCompared == 2, "one every two actions, and the final one")
  }

  @Test func aReducerThatReadsTheClockIsCaughtByVerify() throws {
    let path = try PowerTools.temporaryDirectory().appendingPathComponent("clock.jsonl").path
    try record(clockReadingJournalReducer, to: path)
    let result = PowerTools.run(["verify", path])
    #expect(result.status == 1)
    #expect(result.out.contains("checkpoint at seq 2 (line 4) differs"))
    #expect(result.out.contains("entries[0].writtenAt: "))
  }
}

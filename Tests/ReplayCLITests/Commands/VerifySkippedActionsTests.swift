import Foundation
import Rewind
import RewindExamples
import Testing

/// `verify` on a log with actions the recorder left out (a denied type): it says so once, up
/// front, and the checkpoints after them decide whether the replay matches.
@Suite struct VerifySkippedActionsTests {
  @Test func actionsThatWereNotRecordedAreSaidOnce() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let path = folder.appendingPathComponent("denied.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(
        to: path, app: "todo",
        options: RecordingOptions(checkpointInterval: 2, deniedActionTypes: ["setFilter"]))
      store.dispatch(.add(title: "milk"))
      store.dispatch(.add(title: "bread"))
      store.dispatch(.setFilter(.active))  // left out: the replay stays on .all
      store.dispatch(.toggle(id: 1))
      recorder.close()

      let run = ReplayRun(["verify", path, "--no-isolate"])
      // The filter the replay never saw shows at the next checkpoint.
      #expect(run.status == 1, "\(run.combined)")
      #expect(
        run.standardError.hasPrefix(
          "note: \(path) has actions that were not recorded (skipped lines, from position 3): "
            + "replay leaves them out, so the states from there on are the app's only where a "
            + "checkpoint says so\nhint: replay actions \(path)"))
      #expect(run.standardError.components(separatedBy: "has actions that were not").count == 2)
      // A sound log says nothing of the kind.
      let session = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-session.jsonl")
      let clean = ReplayRun(["verify", session.path, "--no-isolate"])
      #expect(clean.status == 0)
      #expect(!clean.standardError.contains("not recorded"))
    }
  }
}

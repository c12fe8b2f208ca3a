import Foundation
import Rewind
import RewindExamples
import RewindTestSupport
import Testing

/// The small things a new user met (issue 50): each message says what happened and what to do.
@Suite struct NewUserPapercutTests {
  @Test func anIndexTooLargeForAnyArraySaysSo() {
    let run = ReplayRun([
      CLIFixture.path("todo-session.jsonl"), "-c", "print todos[99999999999999999999]",
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "error: invalid path 'todos[99999999999999999999]' at character 27: index "
        + "99999999999999999999 is too large: no array holds more than 9223372036854775807 "
        + "elements\n")
  }

  @Test func aHeaderWithoutRecordedAtSaysItIsUnknown() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let log = try CLIFixture.write(
        [CounterLogLines.header(), CounterLogLines.increment(1)], named: "bare.jsonl",
        in: directory)
      let run = ReplayRun(["info", log, "--no-isolate"])
      #expect(run.status == 0, "\(run.standardError)")
      #expect(
        run.outputLines.contains("recorded at:  unknown (the header has no recordedAt)"),
        "\(run.standardOutput)")
    }
  }

  @Test func aReduxDevToolsFileGivenAsALogPointsAtImport() {
    let file = CLIFixture.path("redux-devtools/actions-export.json")
    let run = ReplayRun(["info", file])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasSuffix(
        "hint: replay import \(file) --app NAME -o session.jsonl   # a Redux DevTools file: "
          + "make it a Rewind log, then open that\n"), "\(run.standardError)")
    let lifted = ReplayRun([CLIFixture.path("redux-devtools/lifted-state-jsan.json"), "-c", "info"])
    #expect(lifted.standardError.contains("hint: replay import "), "\(lifted.standardError)")
  }

  @Test func aFolderSessionJoinedForACommandIsRemovedAfterItAndDroppedFilesAreNamed() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let folder = RecordingsFolder(path: directory.path)
      let store = Store(initialState: CounterState(), reducer: counterReducer)
      let recorder = try store.startRecording(
        in: folder, app: "counter",
        options: RecordingOptions(
          checkpointInterval: 10, rotation: Rotation(maxBytes: 1_024, keepFiles: 2)))
      for _ in 1...200 { store.dispatch(.increment) }
      recorder.close()
      let session = try #require(folder.sessions().last)
      #expect(session.files.count == 2)
      let firstSeq = session.lastSeq - session.actionCount + 1
      #expect(firstSeq > 1, "rotation deleted the oldest files")

      let info = ReplayRun(["info", directory.path])
      #expect(info.status == 0, "\(info.standardError)")
      #expect(
        info.standardOutput.contains(
          "\(session.id) holds seq \(firstSeq)…200 only: rotation (Rotation.keepFiles) deleted "
            + "the older files, with actions 1…\(firstSeq - 1)"), "\(info.standardOutput)")

      let opened = ReplayRun([directory.path, "-c", "goto last", "-c", "print count"])
      #expect(opened.status == 0, "\(opened.standardError)")
      #expect(opened.outputLines.last == "200")
      let note = opened.standardError
      let joined = try #require(
        note.range(of: "joined in ").map { note[$0.upperBound...].prefix { $0 != " " } },
        "\(note)")
      #expect(joined.hasSuffix(".jsonl"))
      #expect(note.contains("(removed when this command ends)"))
      #expect(!FileManager.default.fileExists(atPath: String(joined)), "removed after the command")
    }
  }
}

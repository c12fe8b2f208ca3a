import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

/// A recordings folder across launches, with real child processes (`rewind-testbed folder`):
/// the previous launch's crash is found with every rotated file of its session, a bundle of
/// them opens in `replay` as one log, and `replay` takes the folder itself.
@Suite struct RecordingsFolderEndToEndTests {
  /// Runs one "launch" that records `count` todo actions into `folder` and ends `how`.
  static func launch(_ folder: URL, count: Int, how: String) throws -> ChildProcess {
    let child = try ChildProcess.run(
      TrapKindsTests.testbed(), ["folder", folder.path, String(count), how], in: folder)
    return child
  }

  /// The todo state after the first `count` actions the testbed dispatches.
  static func expectedState(after count: Int) -> TodoState {
    var state = TodoState()
    for n in 1...count {
      todoReducer.reduce(&state, n % 3 == 0 ? .toggle(id: n / 3) : .add(title: "item \(n)"))
    }
    return state
  }

  @Test func theCrashOfTheLastLaunchComesWithEveryRotatedFileAndReplaysAsOneLog() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let clean = try Self.launch(folder, count: 30, how: "close")
      #expect(clean.status == 0, "\(clean.standardError)")
      #expect(RecordingsFolder(path: folder.path).crashOfLastLaunch() == nil)

      let crash = try Self.launch(folder, count: 60, how: "trap")
      #expect(crash.reason == .uncaughtSignal)
      let recordings = RecordingsFolder(path: folder.path)
      let session = try #require(recordings.crashOfLastLaunch())
      #expect(session.ending == .crashed(signal: "SIGILL"))
      #expect(session.app == "todo")
      #expect(session.actionCount == 61, "60 actions and the one that trapped, written ahead")
      #expect(session.files.count >= 3, "the session rotated: \(session.files)")
      #expect(session.files.last == crash.standardOutput.trimmingCharacters(in: .newlines))
      #expect(recordings.sessions().count == 2)

      let bundle = folder.appendingPathComponent("crash-report.jsonl").path
      try session.bundle(to: bundle)
      let log = try ReplayLog(path: bundle)
      #expect(log.joinedFiles == session.files.count - 1)
      #expect(log.firstSeq == 1)
      #expect(log.lastSeq == 61)
      #expect(log.signal?.signal == "SIGILL")
      #expect(log.faults.isEmpty)

      let info = try TrapKindsTests.replay(["info", bundle], in: folder)
      #expect(info.status == 0, "\(info.standardError)")
      #expect(info.standardOutput.contains("files:        \(session.files.count) rotated files"))
      #expect(info.standardOutput.contains("crashed at:   action 61 (move), SIGILL"))
      // Every state from the first file on rebuilds, across the joins, as the app had it.
      let state = try TrapKindsTests.replay(["state", bundle, "--at", "60"], in: folder)
      #expect(state.status == 0, "\(state.standardError)")
      let replayed = try RewindJSONDecoder().decode(
        TodoState.self, from: Array(state.standardOutput.utf8))
      #expect(replayed == Self.expectedState(after: 60))
      let verify = try TrapKindsTests.replay(["verify", bundle, "--no-isolate"], in: folder)
      #expect(verify.standardOutput.contains("checkpoints reproduced"), "\(verify)")

      // compat takes the folder as its sessions, each session's rotated files joined, and any
      // other log in it as a file; a bundle that checked clean is not left behind.
      try FileManager.default.removeItem(atPath: bundle)
      let extra = folder.appendingPathComponent("extra.jsonl").path
      try FileManager.default.copyItem(
        atPath: CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-session.jsonl").path,
        toPath: extra)
      let compat = try TrapKindsTests.replay(["compat", folder.path], in: folder)
      #expect(compat.status == 0, "\(compat.standardError)")
      let lines = compat.standardOutput.split(separator: "\n").map(String.init)
      let sessions = recordings.sessions()
      #expect(
        lines.filter { $0.hasPrefix(folder.path) }
          == sessions.map { session in
            "\(folder.path)/\(session.id)"
              + (session.files.count > 1 ? " (\(session.files.count) rotated files)" : "")
              + ": no build stamp; read as recorded"
          } + ["\(extra): no build stamp; read as recorded"])
      #expect(
        lines.contains {
          $0.hasPrefix("  all 61 actions decode; all ") && $0.hasSuffix(" states decode")
        })
      #expect(lines.contains { $0.hasPrefix("  all 30 actions decode; all ") })
      #expect(lines.suffix(2) == ["by build:", "  no build stamp: 3 logs, all decode"])
      for session in sessions {
        #expect(
          !FileManager.default.fileExists(
            atPath: NSTemporaryDirectory() + "replay-compat-\(session.id).jsonl"))
      }
    }
  }

  @Test func aKilledLaunchIsCutOffAndAFolderOpensInReplay() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      _ = try Self.launch(folder, count: 12, how: "close")
      let killed = try Self.launch(folder, count: 25, how: "kill")
      #expect(killed.reason == .uncaughtSignal)
      let session = try #require(RecordingsFolder(path: folder.path).crashOfLastLaunch())
      #expect(session.ending == .cutOff)
      #expect(session.actionCount == 25)

      let info = try TrapKindsTests.replay(["info", folder.path], in: folder)
      #expect(info.status == 0, "\(info.standardError)")
      let rows = info.standardOutput.split(separator: "\n")
      #expect(rows.first?.hasPrefix("recordings folder \(folder.path): 2 sessions, ") == true)
      #expect(rows.first?.hasSuffix(" KB") == true)
      #expect(rows.count == 4)
      #expect(rows[1].hasSuffix("closed") && rows[1].contains("12 actions"))
      #expect(rows[2].hasSuffix("cut off") && rows[2].contains("25 actions"))

      let json = try TrapKindsTests.replay(["info", folder.path, "--json"], in: folder)
      let value = try JSONParser.parse(Array(json.standardOutput.utf8))
      guard case .array(let sessions)? = value["sessions"] else {
        Issue.record("no sessions: \(json.standardOutput)")
        return
      }
      #expect(sessions.map { $0["ending"]?.stringValue } == ["closed", "cutOff"])
      #expect(sessions.map { $0["actions"]?.intValue } == [12, 25])

      // Any other command opens the newest session, and says which.
      let state = try TrapKindsTests.replay(["state", folder.path, "--at", "25"], in: folder)
      #expect(state.status == 0, "\(state.standardError)")
      #expect(
        state.standardError.contains(
          "note: \(folder.path) is a recordings folder: opened its newest session of 2, "
            + "\(session.id) (cut off)"))
      let replayed = try RewindJSONDecoder().decode(
        TodoState.self, from: Array(state.standardOutput.utf8))
      #expect(replayed == Self.expectedState(after: 25))
    }
  }
}

import Foundation
import RewindJSON
import Testing

/// `replay verify` on a log that ends where the app died: its last action comes after the last
/// checkpoint, so verify replays it once more and says whether the reducer crashes there again.
@Suite struct VerifyCrashLogTests {
  static func verify(_ fixture: String, _ extra: [String] = []) throws -> ChildProcess {
    try ChildProcess.run(
      try CLIFixture.replayExecutable(), ["verify", CLIFixture.path(fixture)] + extra,
      in: CLIFixture.packageRoot)
  }

  @Test func aCrashLogsLastActionCrashesTheReducerAgainAndVerifySaysSo() throws {
    let run = try Self.verify("todo-crash.jsonl")
    #expect(run.status == 0, "\(run.standardError)")
    let lines = run.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(run.standardOutput)")
    #expect(lines.first?.hasSuffix("todo-crash.jsonl: all 3 checkpoints reproduced") == true)
    #expect(
      lines.last?.hasPrefix(
        "the log ends where the app crashed: action 38 (move) crashes the app's reducer again ("
      ) == true, "\(run.standardOutput)")
    let json = try Self.verify("todo-crash.jsonl", ["--json"])
    let document = try JSONParser.parse(json.standardOutput)
    #expect(document["reproduced"] == .bool(true))
    #expect(document["lastAction"]?["crash"]?["seq"]?.intValue == 38)
    #expect(document["lastAction"]?["crash"]?["type"]?.stringValue == "move")
  }

  @Test func aTornLogWhoseLastActionReplaysSaysTheAppStoppedElsewhere() throws {
    let run = try Self.verify("todo-torn.jsonl")
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.contains(
        "note: action 127, the last one recorded, replays without a crash: the app stopped "
          + "somewhere else"), "\(run.standardOutput)")
    // A closed log has nothing more to say.
    let closed = try Self.verify("todo-session.jsonl")
    #expect(closed.standardOutput.split(separator: "\n").count == 1)
  }
}

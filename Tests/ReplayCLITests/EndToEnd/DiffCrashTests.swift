import Foundation
import RewindJSON
import Testing

/// `replay diff` with a log on which the app's reducer crashes: the states are compared up to
/// the last good position, the crash is reported, and the status says whether they differ.
@Suite struct DiffCrashTests {
  static let crash = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-crash.jsonl").path
  static let session = CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-session.jsonl")
    .path

  @Test func aCrashOnOneSideIsReportedAndItsLastGoodStateCompared() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let run = try ChildProcess.run(
        CLIFixture.replayExecutable(), ["diff", Self.crash, Self.session], in: directory)
      #expect(run.status == 1, "\(run.standardError)")
      let lines = run.standardOutput.split(separator: "\n").map(String.init)
      #expect(
        lines.contains(
          "A: the app's reducer crashed on action 38 (type \"move\", log line 42): SIGILL; A's "
            + "states are compared up to position 37, the last good one"))
      #expect(lines.contains("final state (A → B):"))

      let json = try ChildProcess.run(
        CLIFixture.replayExecutable(), ["diff", Self.crash, Self.session, "--json"],
        in: directory)
      let value = try JSONParser.parse(Array(json.standardOutput.utf8))
      #expect(value["equivalent"] == .bool(false))
      #expect(value["crashA"]?["seq"]?.intValue == 38)
      #expect(value["crashB"] == .null)
    }
  }

  @Test func theSameCrashOnBothSidesIsEquivalent() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let run = try ChildProcess.run(
        CLIFixture.replayExecutable(), ["diff", Self.crash, Self.crash], in: directory)
      #expect(run.status == 0, "\(run.standardError)")
      #expect(run.standardOutput.contains("B: the app's reducer crashed on action 38"))
      #expect(run.standardOutput.contains("the action sequences are identical"))
    }
  }
}

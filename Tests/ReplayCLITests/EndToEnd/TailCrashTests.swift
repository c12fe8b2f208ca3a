import Foundation
import Testing

/// `replay tail --diff` on a log whose last action traps the app's reducer: the reducer runs in a
/// child process first, so `tail` reports the crash and goes on, instead of dying with it.
@Suite struct TailCrashTests {
  @Test func aTrapWhileFollowingStatesIsReportedAndTailGoesOn() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let log = directory.appendingPathComponent("crash.jsonl").path
      try FileManager.default.copyItem(
        atPath: CLIFixture.packageRoot.appendingPathComponent("Fixtures/todo-crash.jsonl").path,
        toPath: log)
      let run = try TrapKindsTests.replay(["tail", log, "--diff", "-n", "3"], in: directory)
      #expect(run.reason == .exit)
      #expect(run.status == 0, "\(run.standardError)")
      let lines = run.standardOutput.split(separator: "\n").map(String.init)
      #expect(lines.first?.hasPrefix("    36    9.000s  add") == true, "\(run.standardOutput)")
      #expect(lines.last?.hasPrefix("    38    9.500s  move") == true, "\(run.standardOutput)")
      #expect(lines.contains("        todos[2].done: false → true"))
      #expect(
        run.standardError.hasPrefix(
          "warning: the app's reducer crashed (SIGILL) while applying action 38 (type \"move\") "
            + "from line 42"), "\(run.standardError)")
      #expect(run.standardError.contains("states are no longer followed"))
    }
  }
}

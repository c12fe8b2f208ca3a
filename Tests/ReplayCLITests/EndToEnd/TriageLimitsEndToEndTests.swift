import Foundation
import RewindJSON
import Testing

/// `replay triage`'s limits per log, on logs whose reducer does not return, recorded by child
/// processes the system would have killed (`rewind-testbed runaway`): one that hangs passes
/// `--time-limit`, one that takes memory without end passes `--memory-limit` (the worker's
/// watchdog reads its resident memory, which that reducer's written pages raise). Each is
/// `unreadable` with the reason and the option to raise, and the run goes on: a clean log and a
/// crash in the same run are bucketed as always. And the progress line, shown on a terminal
/// (under `script`, a pseudo-terminal) and not when stderr is a file.
@Suite struct TriageLimitsEndToEndTests {
  /// A folder of three logs: `a-clean.jsonl` (20 counter actions, closed), the runaway log
  /// `b-NAME.jsonl` (two `add`s and the runaway action `how`, cut off by `SIGKILL`) and
  /// `c-crash.jsonl` (the traps app's index out of range). With one worker, they are triaged in
  /// that order.
  static func makeFolder(_ folder: URL, runaway how: String) throws {
    let testbed = try TrapKindsTests.testbed()
    let clean = try ChildProcess.run(
      testbed, ["record", "a-clean.jsonl", "process", "20"], in: folder)
    #expect(clean.status == 0, "\(clean.standardError)")
    let runaway = try ChildProcess.run(testbed, ["runaway", "b-\(how).jsonl", how], in: folder)
    #expect(runaway.reason == .uncaughtSignal, "\(runaway.standardError)")
    let crash = try ChildProcess.run(testbed, ["signal", "c-crash.jsonl", "trap"], in: folder)
    #expect(crash.reason == .uncaughtSignal, "\(crash.standardError)")
  }

  /// Triages the folder with `options`, as records; checks the clean log and the crash, and
  /// returns the runaway log's record.
  static func triage(
    _ folder: URL, runaway how: String, options: [String],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> JSONValue {
    let run = try TrapKindsTests.replay(["triage", ".", "--records", "-"] + options, in: folder)
    // 1: a log crashed or is unreadable (docs/triage.md, exit status).
    #expect(run.status == 1, "\(run.standardError)", sourceLocation: sourceLocation)
    // stderr is a file: no progress line.
    #expect(!run.standardError.contains("triage:"), "\(run.standardError)")
    let records = try run.standardOutput.split(separator: "\n").map {
      try JSONParser.parse(Array($0.utf8))
    }
    #expect(records.count == 3, "\(run.standardOutput)", sourceLocation: sourceLocation)
    func record(_ name: String) -> JSONValue? {
      records.first { $0["path"]?.stringValue == "./" + name }
    }
    let clean = try #require(record("a-clean.jsonl"), sourceLocation: sourceLocation)
    #expect(clean["ending"]?.stringValue == "clean", sourceLocation: sourceLocation)
    #expect(clean["actions"]?.intValue == 20, sourceLocation: sourceLocation)
    let crash = try #require(record("c-crash.jsonl"), sourceLocation: sourceLocation)
    #expect(crash["ending"]?.stringValue == "crashed", sourceLocation: sourceLocation)
    #expect(
      crash["bucket"]?.stringValue?.hasPrefix(TriageEndToEndTests.trapsBucketPrefix) == true,
      "\(crash)", sourceLocation: sourceLocation)
    #expect(
      crash["crashFrame"]?.stringValue?.contains("Traps.swift:") == true, "\(crash)",
      sourceLocation: sourceLocation)
    let runaway = try #require(record("b-\(how).jsonl"), sourceLocation: sourceLocation)
    // Its header was read before the replay that did not return: the facts are kept.
    #expect(runaway["app"]?.stringValue == "traps", sourceLocation: sourceLocation)
    #expect(runaway["actions"]?.intValue == 3, sourceLocation: sourceLocation)
    #expect(runaway["ending"]?.stringValue == "unreadable", sourceLocation: sourceLocation)
    return runaway
  }

  @Test func aReducerThatNeverReturnsPassesTheTimeLimitAndTheRunGoesOn() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      try Self.makeFolder(folder, runaway: "hang")
      let hang = try Self.triage(
        folder, runaway: "hang", options: ["--time-limit", "1", "--jobs", "2"])
      #expect(hang["bucket"]?.stringValue == "unreadable: time limit")
      #expect(
        hang["reason"]?.stringValue
          == "./b-hang.jsonl: replaying it took longer than the time limit of 1 s (a reducer "
          + "that does not return?); raise it with --time-limit SECONDS")
    }
  }

  @Test func aReducerThatTakesMemoryWithoutEndPassesTheMemoryLimitAndTheRunGoesOn() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      try Self.makeFolder(folder, runaway: "grow")
      let grow = try Self.triage(
        folder, runaway: "grow",
        options: ["--memory-limit", String(Self.memoryLimit), "--time-limit", "120", "--jobs", "2"])
      #expect(grow["bucket"]?.stringValue == "unreadable: memory limit")
      #expect(
        grow["reason"]?.stringValue
          == "./b-grow.jsonl: replaying it took more than the memory limit of "
          + "\(Self.memoryLimit) MiB; raise it with --memory-limit MB")
    }
  }

  /// The memory limit of the test, in MiB: the least `--memory-limit` takes (64), which a worker
  /// of the debug testbed replaying a small log stays well under (the clean log and the crash
  /// must not pass it), and which the runaway reducer passes at its first 64 MiB.
  static let memoryLimit = 64

  /// `script` (util-linux), which runs a command on a pseudo-terminal.
  static let script: String? = ["/usr/bin/script", "/bin/script"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Without `script`, the progress test is skipped, except in CI, where it must run.
  static let canRunOnATerminal =
    script != nil || ProcessInfo.processInfo.environment["CI"] == "true"

  @Test(.enabled(if: canRunOnATerminal, "needs script (util-linux) for a pseudo-terminal"))
  func progressIsShownOnATerminalAndNotInAFile() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      try Self.makeFolder(folder, runaway: "hang")
      let script = try #require(Self.script, "no script (util-linux) on this machine")
      let testbed = try TrapKindsTests.testbed().path
      // One worker: the clean log, then the hanging one, at least a second (its time limit)
      // after the first log was done, so the line is due (it shows after half a second), then
      // the crash.
      let command = "\(Self.quoted(testbed)) replay triage . --time-limit 1 --jobs 1"
      let terminal = try ChildProcess.run(
        URL(fileURLWithPath: script), ["-qec", command, "/dev/null"], in: folder)
      #expect(terminal.status == 1, "\(terminal.standardOutput)")
      let text = terminal.standardOutput
      // The line counts the logs done, and is erased when the last is.
      #expect(text.contains("\r\u{1B}[Ktriage: 66% (2/3)"), "\(text.debugDescription)")
      #expect(text.contains("(2/3)\r\u{1B}[K"), "\(text.debugDescription)")
      #expect(text.contains("triaged 3 logs with 1 worker: 1 crashed, 1 clean, 1 unreadable"))
      #expect(text.contains("    1  unreadable: time limit\r\n"), "\(text.debugDescription)")
      #expect(
        text.contains(
          "./b-hang.jsonl: replaying it took longer than the time limit of 1 s (a reducer "
            + "that does not return?); raise it with --time-limit SECONDS"))

      // stderr to a file, stdout still the terminal: no progress anywhere.
      let redirected = try ChildProcess.run(
        URL(fileURLWithPath: script), ["-qec", command + " 2>stderr.txt", "/dev/null"],
        in: folder)
      #expect(redirected.status == 1, "\(redirected.standardOutput)")
      #expect(redirected.standardOutput.contains("    1  unreadable: time limit\r\n"))
      #expect(!redirected.standardOutput.contains("triage:"))
      let stderr = try String(
        contentsOf: folder.appendingPathComponent("stderr.txt"), encoding: .utf8)
      #expect(!stderr.contains("triage:"), "\(stderr.debugDescription)")
    }
  }

  /// `text` as one word of `sh`.
  static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

import Foundation
import RewindJSON
import Testing

/// The built `replay` executable, run as a user would: exit status, standard output and
/// standard error — including the death of the process when an app's reducer traps.
@Suite struct ReplayBinaryTests {
  /// Runs `replay arguments` in the package root and waits for it to end.
  static func run(_ arguments: [String], environment: [String: String] = [:]) throws
    -> ChildProcess
  {
    try ChildProcess.run(
      try CLIFixture.replayExecutable(), arguments, in: CLIFixture.packageRoot,
      environment: environment)
  }

  @Test func infoOfASessionSucceeds() throws {
    let result = try Self.run(["info", "Fixtures/todo-session.jsonl"])
    #expect(result.reason == .exit)
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput.hasPrefix("log:          Fixtures/todo-session.jsonl\n"))
    #expect(result.standardOutput.contains("actions:      340 (seq 1…340)\n"))
  }

  /// The default: the reducer runs in a child process, so `replay` survives the trap, prints
  /// the last good state and reports the crash with the runtime's message and the reducer's line.
  @Test func stateOfACrashLogPrintsTheLastGoodStateAndTheCrashReport() throws {
    let result = try Self.run(
      ["state", "Fixtures/todo-crash.jsonl", "--at", "last", "--path", "todos.count"])
    #expect(result.reason == .exit)
    #expect(result.status == 3)
    #expect(result.standardOutput == "6\n")
    let lines = result.standardError.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == #"the app's reducer crashed on action 38 (type "move", log line 42): SIGILL"#
        || lines.first
          == #"the app's reducer crashed on action 38 (type "move", log line 42): SIGTRAP"#
    )
    #expect(lines.dropFirst().first?.hasPrefix("  Index out of range  (Swift/") == true)
    #expect(
      lines.contains {
        $0.hasPrefix("  #0 closure #1 in variable initialization expression of todoReducer at ")
          && $0.contains("Sources/RewindExamples/Todo.swift:")
      }, "\(lines)")
    #expect(lines.last == "the state printed is at position 37, the last one before the crash")
  }

  /// `--json`: the state on stdout, `{"position": 37, "action": {...}, "crash": {...}}` on stderr.
  @Test func stateOfACrashLogWritesTheReportAsJSON() throws {
    let result = try Self.run(["state", "Fixtures/todo-crash.jsonl", "--json", "--path", "filter"])
    #expect(result.status == 3)
    #expect(result.standardOutput == "\"active\"\n")
    let report = try JSONParser.parse(Array(result.standardError.utf8))
    #expect(report["position"]?.intValue == 37)
    #expect(report["action"]?["seq"]?.intValue == 37)
    let crash = try #require(report["crash"])
    #expect(crash["seq"]?.intValue == 38)
    #expect(crash["type"]?.stringValue == "move")
    #expect(crash["line"]?.intValue == 42)
    #expect(crash["message"]?.stringValue == "Index out of range")
    guard case .array(let frames)? = crash["frames"] else {
      Issue.record("no frames: \(result.standardError)")
      return
    }
    #expect(frames.first?["file"]?.stringValue == "Sources/RewindExamples/Todo.swift")
    #expect((frames.first?["line"]?.intValue ?? 0) > 0)
  }

  /// `--no-isolate` runs the reducer in this process: the trap ends `replay`; the crash
  /// reporter's note names the action right after the runtime's message, and then the signal
  /// goes on to the handler before it (the Swift backtracer, when enabled).
  @Test func reducerTrapInProcessKillsTheProcessAndStandardErrorNamesTheAction() throws {
    let result = try Self.run([
      "state", "Fixtures/todo-crash.jsonl", "--at", "last", "--no-isolate",
    ])
    #expect(result.reason == .uncaughtSignal)
    #expect(result.standardOutput == "")
    let lines = result.standardError.split(separator: "\n").map(String.init)
    let message = try #require(lines.firstIndex { $0.hasSuffix("Fatal error: Index out of range") })
    #expect(
      lines.dropFirst(message + 1).first
        == "replay: Fixtures/todo-crash.jsonl: the app's reducer stopped the process while "
        + #"applying action 38 (type "move") from line 42"#)
  }

  /// With the backtracer off, the note is the last line: nothing is lost when no handler came
  /// before ours.
  @Test func reducerTrapInProcessWithoutBacktracerEndsWithTheNote() throws {
    let result = try Self.run(
      ["state", "Fixtures/todo-crash.jsonl", "--at", "last", "--no-isolate"],
      environment: ["SWIFT_BACKTRACE": "enable=no"])
    #expect(result.reason == .uncaughtSignal)
    #expect(
      result.standardError.split(separator: "\n").last.map(String.init)
        == "replay: Fixtures/todo-crash.jsonl: the app's reducer stopped the process while "
        + #"applying action 38 (type "move") from line 42"#)
  }

  @Test func missingLogExitsWithStatusTwo() throws {
    let result = try Self.run(["nonexistent.jsonl"])
    #expect(result.reason == .exit)
    #expect(result.status == 2)
    #expect(result.standardOutput == "")
    #expect(
      result.standardError == "error: nonexistent.jsonl: cannot open the log: No such file or "
        + "directory\n")
  }

  @Test func sessionScriptRunsAgainstTheBinary() throws {
    let result = try Self.run(["Fixtures/counter.jsonl", "-c", "goto 12", "-c", "print count"])
    #expect(result.status == 0)
    #expect(
      result.standardOutput == """
        (replay) goto 12
        >   12    3.000s  add            -20
        (replay) print count
        95

        """)
  }

  @Test(arguments: ["next 9223372036854775807", "list 9223372036854775807"])
  func hugeCountInASessionCommandDoesNotCrashReplay(command: String) throws {
    // Run as a separate process: an arithmetic overflow here traps.
    let result = try Self.run(["Fixtures/counter.jsonl", "-c", "goto 1", "-c", command])
    #expect(result.reason == .exit)
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("12    3.000s  add            -20\n"))
  }
}

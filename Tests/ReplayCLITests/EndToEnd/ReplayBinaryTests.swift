import Foundation
import Testing

/// The built `replay` executable, run as a user would: exit status, standard output and
/// standard error — including the death of the process when an app's reducer traps.
@Suite struct ReplayBinaryTests {
  struct Execution {
    var status: Int32
    var reason: Process.TerminationReason
    var standardOutput: String
    var standardError: String
  }

  /// Runs `replay arguments` in the package root and waits for it to end.
  static func run(_ arguments: [String]) throws -> Execution {
    try CLIFixture.withTemporaryDirectory { directory in
      let outURL = directory.appendingPathComponent("stdout")
      let errURL = directory.appendingPathComponent("stderr")
      _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
      let out = try FileHandle(forWritingTo: outURL)
      let err = try FileHandle(forWritingTo: errURL)
      let process = Process()
      process.executableURL = try CLIFixture.replayExecutable()
      process.arguments = arguments
      process.currentDirectoryURL = CLIFixture.packageRoot
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = out
      process.standardError = err
      var environment = ProcessInfo.processInfo.environment
      environment["NO_COLOR"] = "1"
      process.environment = environment
      try process.run()
      process.waitUntilExit()
      try out.close()
      try err.close()
      return Execution(
        status: process.terminationStatus, reason: process.terminationReason,
        standardOutput: try String(contentsOf: outURL, encoding: .utf8),
        standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
  }

  @Test func infoOfASessionSucceeds() throws {
    let result = try Self.run(["info", "Fixtures/todo-session.jsonl"])
    #expect(result.reason == .exit)
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput.hasPrefix("log:          Fixtures/todo-session.jsonl\n"))
    #expect(result.standardOutput.contains("actions:      340 (seq 1…340)\n"))
  }

  @Test func reducerTrapKillsTheProcessAndTheLastLineOfStandardErrorNamesTheAction() throws {
    let result = try Self.run(["state", "Fixtures/todo-crash.jsonl", "--at", "last"])
    #expect(result.reason == .uncaughtSignal)
    #expect(result.standardOutput == "")
    let lastLine = result.standardError.split(separator: "\n").last.map(String.init)
    #expect(
      lastLine
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

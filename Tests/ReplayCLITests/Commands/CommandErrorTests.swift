import Testing

/// Command lines that cannot run exit with status 2 and say why on standard error, word for
/// word, with nothing on standard output.
@Suite struct CommandErrorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var standardError: String
    var testDescription: String { "replay " + arguments.joined(separator: " ") }
  }

  static let session = CLIFixture.path("todo-session.jsonl")

  @Test(
    arguments: [
      Case(
        arguments: ["info", "/nonexistent/missing.jsonl"],
        standardError: """
          error: /nonexistent/missing.jsonl: cannot open the log: No such file or directory

          """),
      Case(
        arguments: ["/nonexistent/missing.jsonl"],
        standardError: """
          error: /nonexistent/missing.jsonl: cannot open the log: No such file or directory

          """),
      Case(
        arguments: ["state", session, "--at", "999"],
        standardError: """
          error: position 999 is out of range: valid positions are 0…340
          hint: use a position from 0 to 340, 'first' or 'last'

          """),
      Case(
        arguments: ["state", session, "--at", "-1"],
        standardError: """
          error: position -1 is out of range: valid positions are 0…340
          hint: use a position from 0 to 340, 'first' or 'last'

          """),
      Case(
        arguments: ["state", session, "--at", "twelve"],
        standardError: """
          error: 'twelve' is not a position: use 0…340, first or last

          """),
    ])
  func failsWithStatusTwoAndADiagnostic(example: Case) {
    let run = ReplayRun(example.arguments)
    #expect(run.status == 2)
    #expect(run.standardOutput == "")
    #expect(run.standardError.replacingLog(Self.session) == example.standardError)
  }

  /// A usage error: its first line word for word, then the usage (whose options change as
  /// commands grow) and where to find help.
  struct UsageCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var error: String
    var help: String
    var testDescription: String { "replay " + arguments.joined(separator: " ") }
  }

  @Test(
    arguments: [
      UsageCase(
        arguments: ["info", session, "--jsn"],
        error: "Error: Unknown option '--jsn'. Did you mean '--json'?", help: "replay info --help"),
      UsageCase(
        arguments: ["stat", session], error: "Error: Unknown command 'stat'. Did you mean 'state'?",
        help: "replay --help"),
      UsageCase(
        arguments: ["repaly", session], error: "Error: Unknown command 'repaly'.",
        help: "replay --help"),
      UsageCase(
        arguments: ["info", session, "--recovery", "bogus"],
        error:
          "Error: Invalid value 'bogus' for '--recovery': expected one of tail, strict, prefix, "
          + "salvage.",
        help: "replay info --help"),
      UsageCase(
        arguments: ["actions", session, "--from", "ten"],
        error: "Error: Invalid value 'ten' for '--from': expected an integer.",
        help: "replay actions --help"),
      UsageCase(
        arguments: ["info"], error: "Error: Missing expected argument 'LOG'.",
        help: "replay info --help"),
    ])
  func usageErrorFailsWithStatusTwoSayingWhatIsWrongAndWhereHelpIs(example: UsageCase) {
    let run = ReplayRun(example.arguments)
    #expect(run.status == 2)
    #expect(run.standardOutput == "")
    let lines = run.standardError.split(separator: "\n").map(String.init)
    #expect(lines.first == example.error)
    #expect(lines.dropFirst().first?.hasPrefix("Usage: replay") == true)
    #expect(lines.last == "  See '\(example.help)'.")
  }

  @Test func strictRecoveryRefusesATornLogNamingItsLastLine() {
    let torn = CLIFixture.path("todo-torn.jsonl")
    let run = ReplayRun(["info", torn, "--recovery", "strict"])
    #expect(run.status == 2)
    #expect(
      run.standardError.replacingLog(torn) == """
        error: $LOG:131 (byte 15932): line cut off mid-write (67 bytes, no newline at the end of the file)
        note: 127 actions before it are intact
        note: 1 line from this one on would be dropped by --recovery prefix
        hint: replay $LOG --recovery prefix   # replay the 127 intact actions; or --recovery salvage to skip bad lines

        """)
  }

  @Test func helpSucceeds() {
    let run = ReplayRun(["--help"])
    #expect(run.status == 0)
    #expect(run.standardOutput.hasPrefix("OVERVIEW: "))
    #expect(ReplayRun(["help", "state"]).standardOutput.contains("USAGE: replay state LOG"))
  }
}

import ReplayCLI
import Testing

/// A command line and the whole error `replay` shows for it.
struct UsageErrorCase: CustomTestStringConvertible, Sendable {
  var arguments: [String]
  var expected: String
  var testDescription: String { arguments.joined(separator: " ") }

  init(_ arguments: [String], _ expected: String) {
    self.arguments = arguments
    self.expected = expected
  }
}

private let infoUsage = """
  Usage: replay info LOG [--json] [--recovery MODE]
    See 'replay info --help'.
  """

private let diffUsage = """
  Usage: replay diff LOG [PATH] [--from N] [--to N] [--type NAME] [--json]
    See 'replay diff --help'.
  """

private let rootUsage = """
  Usage: replay LOG [--at N] [--recovery MODE] [-c CMD ...]
    See 'replay --help'.
  """

private let programUsage = """
  Usage: replay LOG [--at N] [--recovery MODE] [-c CMD ...]
         replay COMMAND [ARG ...]
    See 'replay --help'.
  """

@Suite struct UsageErrorTests {
  static let cases: [UsageErrorCase] = [
    .init(
      ["info", "session.jsonl", "--jsn"],
      "Error: Unknown option '--jsn'. Did you mean '--json'?\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--jsn=1"],
      "Error: Unknown option '--jsn'. Did you mean '--json'?\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "-json"],
      "Error: Unknown option '-json'. Did you mean '--json'?\n" + infoUsage),
    .init(["info", "session.jsonl", "-x"], "Error: Unknown option '-x'.\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--frobnicate"],
      "Error: Unknown option '--frobnicate'.\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--recovery"],
      "Error: Missing value for option '--recovery'.\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--recovery", "--json"],
      "Error: Missing value for option '--recovery'.\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--recovery", "prefx"],
      "Error: Invalid value 'prefx' for '--recovery': expected one of tail, strict, prefix, "
        + "salvage. Did you mean 'prefix'?\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--recovery=sideways"],
      "Error: Invalid value 'sideways' for '--recovery': expected one of tail, strict, prefix, "
        + "salvage.\n" + infoUsage),
    .init(
      ["info", "session.jsonl", "--json=yes"],
      "Error: Option '--json' takes no value, but was given 'yes'.\n" + infoUsage),
    .init(["info", "a.jsonl", "b.jsonl"], "Error: Unexpected argument 'b.jsonl'.\n" + infoUsage),
    .init(["info"], "Error: Missing expected argument 'LOG'.\n" + infoUsage),
    .init(["info", "--json"], "Error: Missing expected argument 'LOG'.\n" + infoUsage),
    .init(
      ["diff", "session.jsonl", "--from", "x"],
      "Error: Invalid value 'x' for '--from': expected a non-negative integer.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "--from", "-1"],
      "Error: Invalid value '-1' for '--from': expected a non-negative integer.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "--to", "1.5"],
      "Error: Invalid value '1.5' for '--to': expected an integer.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "-t"], "Error: Missing value for option '-t'.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "-j=1"],
      "Error: Option '-j' takes no value, but was given '1'.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "-jx"], "Error: Unknown option '-x'.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "--from", "\u{1B}]52;c;aGk=\u{07}"],
      "Error: Invalid value '\\x1b]52;c;aGk=\\x07' for '--from': expected a non-negative "
        + "integer.\n" + diffUsage),
    .init(
      ["diff", "session.jsonl", "--type", "a", "--type", "b"],
      "Error: Option '--type' was given more than once.\n" + diffUsage),
    .init(
      ["session.jsonl", "--at", "1", "--at", "2"],
      "Error: Option '--at' was given more than once.\n" + rootUsage),
    .init(["session.jsonl", "-c"], "Error: Missing value for option '-c'.\n" + rootUsage),
    .init(
      ["session.jsonl", "--at", "--recovery", "strict"],
      "Error: Missing value for option '--at'.\n" + rootUsage),
    .init(
      ["session.jsonl", "\u{1B}[2J"], "Error: Unexpected argument '\\x1b[2J'.\n" + rootUsage),
    .init(
      ["inof", "session.jsonl"],
      "Error: Unknown command 'inof'. Did you mean 'info'?\n" + programUsage),
    .init(["repaly", "session.jsonl"], "Error: Unknown command 'repaly'.\n" + programUsage),
    .init(
      ["./repaly", "session.jsonl"], "Error: Unexpected argument 'session.jsonl'.\n" + rootUsage),
    .init(
      ["help", "dif"], "Error: Unknown command 'dif'. Did you mean 'diff'?\n" + programUsage),
    .init(["help", "frobnicate"], "Error: Unknown command 'frobnicate'.\n" + programUsage),
    .init(
      ["help", "info", "diff"],
      """
      Error: Unexpected argument 'diff'.
      Usage: replay help [COMMAND]
        See 'replay help --help'.
      """),
  ]

  @Test(arguments: cases)
  func usageErrorIsRenderedWordForWord(_ example: UsageErrorCase) {
    let program = SampleProgram.program
    #expect(throws: CommandUsageError.self) { try program.parse(example.arguments) }
    do {
      _ = try program.parse(example.arguments)
    } catch {
      #expect(program.render(error) == example.expected)
    }
  }

  @Test func longArgumentIsCutInTheMessage() {
    let long = String(repeating: "x", count: 1000)
    #expect(
      UsageError.unexpectedArgument(long).message
        == "Unexpected argument '" + String(repeating: "x", count: 59) + "…'.")
  }

  @Test func errorWordIsBoldRedWithColour() {
    let failure = CommandUsageError(.missingArgument("LOG"), command: SampleProgram.info)
    let rendered = SampleProgram.program.render(failure, style: .colored)
    #expect(rendered.hasPrefix("\u{1B}[1m\u{1B}[31mError:\u{1B}[39m\u{1B}[22m Missing"))
  }

  @Test func programWithoutRootCommandReportsUnknownCommandsAndOptions() {
    let program = ProgramSpec(
      name: "tool", abstract: "A tool.", commands: [SampleProgram.info])
    #expect(throws: CommandUsageError(.unknownCommand("ifno", suggestion: "info"), command: nil)) {
      try program.parse(["ifno"])
    }
    #expect(
      throws: CommandUsageError(.unknownOption("--jsn", suggestion: nil), command: nil)
    ) {
      try program.parse(["--jsn"])
    }
    let failure = CommandUsageError(.unknownCommand("x", suggestion: nil), command: nil)
    #expect(
      program.render(failure) == """
        Error: Unknown command 'x'.
        Usage: tool COMMAND [ARG ...]
          See 'tool --help'.
        """)
  }

  @Test func sessionProgramWithoutNameRendersBareCommands() {
    let session = ProgramSpec(
      name: "", abstract: "Session commands.", commands: [SampleProgram.info])
    let failure = CommandUsageError(.missingArgument("LOG"), command: SampleProgram.info)
    #expect(
      session.render(failure) == """
        Error: Missing expected argument 'LOG'.
        Usage: info LOG [--json] [--recovery MODE]
          See 'info --help'.
        """)
  }
}

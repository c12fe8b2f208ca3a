import ReplayCLI
import Testing

@Suite struct ArgumentParserTests {
  private let root = SampleProgram.root
  private let diff = SampleProgram.diff

  @Test func valuesAreAcceptedWithSpaceOrEquals() throws {
    let spaced = try root.parse(["log.jsonl", "--at", "3"])
    let joined = try root.parse(["--at=3", "log.jsonl"])
    #expect(try spaced.int("at") == 3)
    #expect(try joined.int("at") == 3)
    #expect(spaced.positional("LOG") == "log.jsonl")
    #expect(joined.positional("LOG") == "log.jsonl")
  }

  @Test func shortValuesAreAcceptedSeparateAttachedOrWithEquals() throws {
    let parsed = try root.parse(["log.jsonl", "-c", "next", "-cprint todos", "-c=quit"])
    #expect(parsed.strings("c") == ["next", "print todos", "quit"])
    #expect(parsed.string("c") == "quit")
  }

  @Test func shortAliasLooksUpTheSameOption() throws {
    let parsed = try diff.parse(["log.jsonl", "-t", "move", "-j"])
    #expect(parsed.string("type") == "move")
    #expect(parsed.string("t") == "move")
    #expect(parsed.flag("json"))
    #expect(parsed.flag("j"))
  }

  @Test func shortFlagsGroupAndTheLastMayTakeAValue() throws {
    let parsed = try diff.parse(["log.jsonl", "-jt", "move"])
    #expect(parsed.flag("json"))
    #expect(parsed.string("type") == "move")
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try diff.parse(["--json", "--", "-odd name.jsonl", "--from"])
    #expect(parsed.positionals == ["-odd name.jsonl", "--from"])
    #expect(parsed.flag("json"))
    #expect(try parsed.int("from") == nil)
  }

  @Test func loneDashIsPositional() throws {
    #expect(try root.parse(["-"]).positional("LOG") == "-")
  }

  @Test func negativeNumbersAreValuesAndPositionals() throws {
    let parsed = try diff.parse(["log.jsonl", "-2", "--to", "-1"])
    #expect(parsed.positional("PATH") == "-2")
    #expect(try parsed.int("to") == -1)
  }

  @Test func absentOptionsGiveDefaultsOrNothing() throws {
    let parsed = try root.parse(["log.jsonl"])
    #expect(parsed.string("recovery") == "tail")
    #expect(!parsed.contains("recovery"))
    #expect(parsed.strings("recovery") == ["tail"])
    #expect(try parsed.int("at") == nil)
    #expect(parsed.strings("c") == [])
    #expect(!parsed.isHelpRequested)
  }

  @Test func choicesMatchIgnoringCaseAndAreStoredAsListed() throws {
    let parsed = try root.parse(["log.jsonl", "--recovery", "PreFix"])
    #expect(parsed.string("recovery") == "prefix")
    #expect(parsed.contains("recovery"))
  }

  @Test func optionalArgumentMayBeLeftOut() throws {
    let parsed = try diff.parse(["log.jsonl"])
    #expect(parsed.positional("LOG") == "log.jsonl")
    #expect(parsed.positional("PATH") == nil)
  }

  @Test func intOfATextOptionThrowsInvalidValue() throws {
    let parsed = try diff.parse(["log.jsonl", "--type", "seven"])
    #expect(
      throws: UsageError.invalidValue(option: "--type", value: "seven", expected: "an integer")
    ) {
      try parsed.int("type")
    }
  }

  @Test(arguments: [
    ["--help"], ["-h"], ["log.jsonl", "--jsn", "--help"], ["--at", "x", "-h"], ["-jh"],
  ])
  func helpWinsOverOtherProblems(_ arguments: [String]) throws {
    #expect(try diff.parse(arguments).isHelpRequested)
  }

  @Test func helpAfterDoubleDashIsPositional() throws {
    let parsed = try diff.parse(["--", "--help"])
    #expect(!parsed.isHelpRequested)
    #expect(parsed.positional("LOG") == "--help")
  }

  @Test func emptyValueAfterEqualsIsAValue() throws {
    #expect(try diff.parse(["log.jsonl", "--type="]).string("type") == "")
    #expect(try diff.parse(["log.jsonl", "-t="]).string("type") == "")
  }

  @Test func usageElementsListArgumentsThenOptionsWithoutHelp() {
    #expect(
      diff.usageElements == [
        "LOG", "[PATH]", "[--from N]", "[--to N]", "[--type NAME]", "[--json]",
      ])
    #expect(root.usageElements.last == "[-c CMD ...]")
  }

  @Test func optionLabelsShowAliasesAndValues() {
    #expect(OptionSpec.help.label == "-h, --help")
    #expect(diff.options[2].label == "-t, --type NAME")
    #expect(root.options[2].label == "-c CMD")
  }
}

@Suite struct ProgramSpecTests {
  private let program = SampleProgram.program

  @Test func namedCommandRunsWithTheRest() throws {
    let invocation = try program.parse(["info", "log.jsonl", "--json"])
    guard case .run(let command, let arguments) = invocation else {
      Issue.record("expected a run, got \(invocation)")
      return
    }
    #expect(command == SampleProgram.info)
    #expect(arguments.flag("json"))
    #expect(arguments.positional("LOG") == "log.jsonl")
  }

  @Test func otherFirstArgumentRunsTheRootCommand() throws {
    let invocation = try program.parse(["log.jsonl", "-c", "next"])
    guard case .run(let command, let arguments) = invocation else {
      Issue.record("expected a run, got \(invocation)")
      return
    }
    #expect(command == SampleProgram.root)
    #expect(arguments.strings("c") == ["next"])
  }

  @Test(
    arguments: [
      (["--help"], nil), (["-h"], nil), (["help"], nil), (["log.jsonl", "--help"], nil),
      (["help", "info"], "info"), (["info", "--help"], "info"), (["diff", "-h"], "diff"),
      (["help", "--help"], "help"),
    ] as [([String], String?)])
  func helpIsRecognizedEverywhere(_ arguments: [String], _ commandName: String?) throws {
    let invocation = try program.parse(arguments)
    #expect(invocation == .help(commandName.flatMap(program.command(named:))))
  }

  @Test func noArgumentsWithoutRootCommandShowsTheOverview() throws {
    let program = ProgramSpec(name: "tool", abstract: "A tool.", commands: [SampleProgram.info])
    #expect(try program.parse([]) == .help(nil))
  }

  @Test func noArgumentsWithRootCommandIsItsMissingArgument() {
    #expect(throws: CommandUsageError(.missingArgument("LOG"), command: SampleProgram.root)) {
      try program.parse([])
    }
  }
}

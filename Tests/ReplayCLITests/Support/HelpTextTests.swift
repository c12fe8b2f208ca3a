import ReplayCLI
import Testing

@Suite struct HelpTextTests {
  private let program = SampleProgram.program

  @Test func commandHelpHasEverySection() {
    #expect(
      program.helpText(for: SampleProgram.info) == """
        OVERVIEW: Summarize a recorded log.

        Prints the app that recorded the log, the number of actions, the time they span,
        and every faulty line with its line number and byte offset.

          replay info LOG | grep faulty

        USAGE: replay info LOG [--json] [--recovery MODE]

        ARGUMENTS:
          LOG                     The log to read.

        OPTIONS:
          --json                  Print the summary as JSON.
          --recovery MODE         What to do with a faulty line. (values: tail, strict,
                                  prefix, salvage; default: tail)
          -h, --help              Show help information.

        EXAMPLES:
          Summarize a log:
            replay info session.jsonl

          replay info session.jsonl --json
        """)
  }

  @Test func overviewListsTheRootCommandAndEveryCommand() {
    #expect(
      program.helpText(for: nil) == """
        OVERVIEW: Step through a recorded Rewind session.

        USAGE: replay LOG [--at N] [--recovery MODE] [-c CMD ...]
               replay COMMAND [ARG ...]

        ARGUMENTS:
          LOG                     The log to read.

        OPTIONS:
          --at N                  Start at position N.
          --recovery MODE         What to do with a faulty line. (values: tail, strict,
                                  prefix, salvage; default: tail)
          -c CMD                  Run CMD, then exit. (can be repeated)
          -h, --help              Show help information.

        COMMANDS:
          info                    Summarize a recorded log.
          diff                    Show how the state changed between two positions.
          help                    Show help for a command.

          See 'replay help COMMAND' for detailed help.

        EXAMPLES:
          Open a log at its third action:
            replay session.jsonl --at 3
        """)
  }

  @Test func helpCommandExplainsItself() {
    #expect(
      program.helpText(for: program.helpCommand) == """
        OVERVIEW: Show help for a command.

        USAGE: replay help [COMMAND]

        ARGUMENTS:
          COMMAND                 The command to explain.

        OPTIONS:
          -h, --help              Show help information.
        """)
  }

  @Test func plainExamplesFollowOneAnotherAndDescribedOnesStandApart() {
    let command = CommandSpec(
      name: "state", abstract: "Print a state.",
      examples: [
        .init("replay state a.jsonl"), .init("replay state a.jsonl --json"),
        .init("replay state a.jsonl --at 3", "The state after the third action"),
        .init("replay state a.jsonl --at last"),
      ])
    #expect(
      program.helpText(for: command).hasSuffix(
        """
        EXAMPLES:
          replay state a.jsonl
          replay state a.jsonl --json

          The state after the third action:
            replay state a.jsonl --at 3

          replay state a.jsonl --at last
        """))
  }

  @Test func longUsageContinuesUnderTheFirstArgument() {
    #expect(
      program.usage(for: SampleProgram.diff, width: 40) == """
        Usage: replay diff LOG [PATH] [--from N]
                           [--to N]
                           [--type NAME]
                           [--json]
        """)
  }

  @Test func wideLabelPutsItsHelpOnTheNextLine() {
    let command = CommandSpec(
      name: "export",
      abstract: "Write the states of a log as a series of JSON documents, one per position.",
      options: [
        .option(
          "checkpoint-interval", short: "i", valueName: "COUNT", kind: .integer(minimum: 1),
          help: "Keep a full state every COUNT actions.")
      ])
    #expect(
      program.helpText(for: command, width: 60) == """
        OVERVIEW: Write the states of a log as a series of JSON
        documents, one per position.

        USAGE: replay export [--checkpoint-interval COUNT]

        OPTIONS:
          -i, --checkpoint-interval COUNT
                                  Keep a full state every COUNT
                                  actions.
          -h, --help              Show help information.
        """)
  }
}

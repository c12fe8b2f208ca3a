import ReplayCLI

/// A small `replay`-like program for the argument parser and help tests, independent of the
/// real grammar so those tests stay stable while the commands change.
enum SampleProgram {
  static let recovery = OptionSpec.option(
    "recovery", valueName: "MODE", kind: .choice(["tail", "strict", "prefix", "salvage"]),
    defaultValue: "tail", help: "What to do with a faulty line.")

  static let log = ArgumentSpec("LOG", help: "The log to read.")

  static let root = CommandSpec(
    name: "",
    abstract: "Open a session on a log.",
    arguments: [log],
    options: [
      .option("at", valueName: "N", kind: .integer(minimum: 0), help: "Start at position N."),
      recovery,
      .option("c", valueName: "CMD", isRepeatable: true, help: "Run CMD, then exit."),
    ])

  static let info = CommandSpec(
    name: "info",
    abstract: "Summarize a recorded log.",
    discussion: """
      Prints the app that recorded the log, the number of actions, the time they span, and
      every faulty line with its line number and byte offset.

        replay info LOG | grep faulty
      """,
    arguments: [log],
    options: [.flag("json", help: "Print the summary as JSON."), recovery],
    examples: [
      .init("replay info session.jsonl", "Summarize a log"),
      .init("replay info session.jsonl --json"),
    ])

  static let diff = CommandSpec(
    name: "diff",
    abstract: "Show how the state changed between two positions.",
    arguments: [log, ArgumentSpec("PATH", help: "Only this part of the state.", isOptional: true)],
    options: [
      .option("from", valueName: "N", kind: .integer(minimum: 0), help: "The earlier position."),
      .option("to", valueName: "N", kind: .integer(), help: "The later position."),
      .option("type", short: "t", valueName: "NAME", help: "Only actions of this type."),
      .flag("json", short: "j", help: "Print a JSON Patch."),
    ])

  static let program = ProgramSpec(
    name: "replay",
    abstract: "Step through a recorded Rewind session.",
    rootCommand: root,
    commands: [info, diff],
    examples: [.init("replay session.jsonl --at 3", "Open a log at its third action")])
}

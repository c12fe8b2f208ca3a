/// The live session's own commands that take arguments (`replay listen`), parsed as every
/// command's are, so a mistake reads as it does for `replay info`: `wait [N] [--timeout S]`
/// and `app N`.
enum LiveSessionCommands {
  /// `wait [N] [--timeout SECONDS]`.
  static let wait = CommandSpec(
    name: "wait",
    abstract: "Wait for N more actions (default 1), a stop, or the app's end.",
    arguments: [ArgumentSpec("N", help: "How many more actions to wait for.", isOptional: true)],
    options: [
      .option(
        "timeout", valueName: "SECONDS", kind: .integer(minimum: 1),
        help: "Stop waiting after this long.")
    ])

  /// `app N`.
  static let app = CommandSpec(
    name: "app",
    abstract: "View app N's session (apps lists the numbers).",
    arguments: [ArgumentSpec("N", help: "The app's number, as apps lists it.")])

  /// The commands, in an interactive program (no program name in their usage).
  static let program = ProgramSpec(
    name: "", abstract: "The live session's commands.", commands: [wait, app])

  /// A live session command, parsed.
  enum Parsed: Equatable {
    /// `wait [N] [--timeout SECONDS]`: N (default 1), and the time limit.
    case wait(count: Int, limit: Int?)
    /// `app N`.
    case app(Int)
    /// `wait --help`, `app --help`.
    case help(CommandSpec?)
  }

  /// Parses `words`, a command line of ``wait`` or ``app``.
  /// - Throws: The usage error, for ``ProgramSpec/render(_:style:)``.
  static func parse(_ words: [String]) throws(CommandUsageError) -> Parsed {
    switch try program.parse(words) {
    case .help(let command):
      return .help(command)
    case .run(let command, let arguments):
      let number = try Self.number(arguments, of: command)
      guard command == wait else { return .app(number ?? 1) }
      do throws(UsageError) {
        return .wait(count: number ?? 1, limit: try arguments.int("timeout"))
      } catch {
        throw CommandUsageError(error, command: command)
      }
    }
  }

  /// The positional `N` of `command`, a positive whole number, or `nil` when not given.
  private static func number(
    _ arguments: ParsedArguments, of command: CommandSpec
  ) throws(CommandUsageError) -> Int? {
    guard let text = arguments.positional("N") else { return nil }
    guard let number = Int(text), number >= 1 else {
      throw CommandUsageError(
        .invalidValue(
          option: "N", value: text, expected: ValueKind.integer(minimum: 1).expectation),
        command: command)
    }
    return number
  }
}

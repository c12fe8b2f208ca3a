import RewindReplay

/// A program of commands, like `replay`: its root command, its named commands, and the
/// built-in `help` command. Turns a whole command line into an ``Invocation``.
///
///     let replay = ProgramSpec(
///       name: "replay", abstract: "Step through a recorded Rewind session.",
///       rootCommand: debug, commands: [info, verify])
///     switch try replay.parse(Array(CommandLine.arguments.dropFirst())) {
///     case .help(let command): output.writeLine(replay.helpText(for: command))
///     case .run(let command, let arguments): …
///     }
///
/// With an empty ``name`` the same machinery serves an interactive session, where command lines
/// are typed without the program's name (`info`, `help step`).
package struct ProgramSpec: Sendable, Equatable {
  /// The executable's name, as usage lines show it; empty inside an interactive session.
  package var name: String
  /// One line on what the program does.
  package var abstract: String
  /// More on what the program does, shown in the overview after the abstract.
  package var discussion: String?
  /// The command that runs when the first argument names no command (`replay LOG`); its name
  /// should be empty. Without one, an unknown first argument is an unknown command.
  package var rootCommand: CommandSpec?
  /// The named commands, in the order the overview lists them; `help` is added after them.
  package var commands: [CommandSpec]
  /// Example command lines for the overview.
  package var examples: [CommandSpec.Example]

  /// A program with every part given.
  package init(
    name: String,
    abstract: String,
    discussion: String? = nil,
    rootCommand: CommandSpec? = nil,
    commands: [CommandSpec],
    examples: [CommandSpec.Example] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.rootCommand = rootCommand
    self.commands = commands
    self.examples = examples
  }

  /// The built-in `help [COMMAND]` command.
  package var helpCommand: CommandSpec {
    CommandSpec(
      name: "help",
      abstract: "Show help for a command.",
      arguments: [ArgumentSpec("COMMAND", help: "The command to explain.", isOptional: true)])
  }

  /// Every command a first argument may name, `help` last.
  package var allCommands: [CommandSpec] {
    commands + [helpCommand]
  }

  /// The command called `name`, or `nil`.
  package func command(named name: String) -> CommandSpec? {
    allCommands.first { $0.name == name }
  }

  /// The command name closest to `name`, for "Did you mean …?", or `nil` when none is close.
  package func suggestedCommand(for name: String) -> String? {
    closestMatch(to: name, in: allCommands.map(\.name))
  }

  /// Parses a whole command line, without the program's own name.
  ///
  /// - `help`, `help COMMAND`, `--help`, `-h`, and `COMMAND --help` ask for help;
  /// - a first argument naming a command runs it with the rest;
  /// - anything else runs the ``rootCommand`` with every argument, or is an unknown command.
  ///
  /// With a root command, `replay inof session.jsonl` would be a log named `inof` and an
  /// unexpected `session.jsonl`. When the root command finds an unexpected argument and the
  /// first argument is close to a command's name, or does not look like a path (it has no `.`
  /// or `/`, as `repaly` has none), it is reported as an unknown command instead, with any
  /// suggestion; `replay session.jsonl extra` stays an unexpected `extra`.
  ///
  /// - Throws: ``CommandUsageError``, carrying the ``UsageError`` and the command whose usage
  ///   it breaks (`nil` for the program's).
  package func parse(_ arguments: [String]) throws(CommandUsageError) -> Invocation {
    guard let first = arguments.first else {
      guard let rootCommand else { return .help(nil) }
      return try run(rootCommand, arguments)
    }
    if first == "--help" || first == "-h" {
      return .help(nil)
    }
    if first == "help" {
      return try help(Array(arguments.dropFirst()))
    }
    if let command = command(named: first) {
      return try run(command, Array(arguments.dropFirst()))
    }
    if let rootCommand {
      do {
        return try run(rootCommand, arguments)
      } catch let failure {
        let suggestion = suggestedCommand(for: first)
        if case .unexpectedArgument = failure.error, !first.hasPrefix("-"),
          suggestion != nil || !first.contains(where: { $0 == "." || $0 == "/" })
        {
          throw CommandUsageError(.unknownCommand(first, suggestion: suggestion), command: nil)
        }
        throw failure
      }
    }
    if first.hasPrefix("-") {
      // No root command takes options, so any option here is unknown; `parse` says which.
      _ = try run(CommandSpec(name: "", abstract: ""), arguments, reportingAs: nil)
    }
    throw CommandUsageError(
      .unknownCommand(first, suggestion: suggestedCommand(for: first)), command: nil)
  }

  private func run(
    _ command: CommandSpec, _ arguments: [String]
  ) throws(CommandUsageError) -> Invocation {
    try run(command, arguments, reportingAs: command)
  }

  private func run(
    _ command: CommandSpec, _ arguments: [String], reportingAs reported: CommandSpec?
  ) throws(CommandUsageError) -> Invocation {
    do {
      let parsed = try command.parse(arguments)
      if parsed.isHelpRequested {
        return .help(command.name.isEmpty ? nil : command)
      }
      return .run(command, parsed)
    } catch {
      throw CommandUsageError(error, command: reported)
    }
  }

  private func help(_ arguments: [String]) throws(CommandUsageError) -> Invocation {
    let helpCommand = self.helpCommand
    let parsed: ParsedArguments
    do {
      parsed = try helpCommand.parse(arguments)
    } catch {
      throw CommandUsageError(error, command: helpCommand)
    }
    guard !parsed.isHelpRequested, let name = parsed.positional("COMMAND") else {
      return .help(parsed.isHelpRequested ? helpCommand : nil)
    }
    guard let command = command(named: name) else {
      throw CommandUsageError(
        .unknownCommand(name, suggestion: suggestedCommand(for: name)), command: nil)
    }
    return .help(command)
  }
}

/// What a command line asks for.
package enum Invocation: Sendable, Equatable {
  /// Run `command` with the parsed arguments.
  case run(CommandSpec, ParsedArguments)
  /// Show help for a command, or the program's overview when `nil`.
  case help(CommandSpec?)
}

/// A ``UsageError`` together with the command whose usage it breaks, so it can be rendered with
/// that command's usage line by ``ProgramSpec/render(_:style:)``.
package struct CommandUsageError: Error, Sendable, Equatable {
  /// What is wrong.
  package var error: UsageError
  /// The command being parsed, or `nil` when the command line fits no command.
  package var command: CommandSpec?

  /// `error` in `command` (`nil` for the program's own usage).
  package init(_ error: UsageError, command: CommandSpec?) {
    self.error = error
    self.command = command
  }
}

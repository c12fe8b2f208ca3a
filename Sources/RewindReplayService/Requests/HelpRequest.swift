import RewindJSON
import RewindReplay

/// The commands, or one of them explained. Answered with a ``HelpResponse``.
package struct HelpRequest: ReplayRequest {
  /// The command to explain; all of them when `nil`.
  package var command: ReplayCommand?

  /// Help on `command`, or on all commands.
  package init(command: ReplayCommand?) { self.command = command }

  package func run(on service: ReplayService) throws(ReplayFailure) -> HelpResponse {
    HelpResponse(command: command)
  }

  /// `help [COMMAND]`.
  static let command = ReplayCommand(
    name: "help", alias: "h", usage: "help [COMMAND]", summary: "list commands, or explain one",
    details: "An empty line repeats the last command (not watch, break, delete, skip or unskip). "
      + "--json as the last word prints a command's result as one line of JSON.",
    arguments: .commandName
  ) { words, _ throws(ReplayFailure) in
    guard let word = words.first else { return HelpRequest(command: nil) }
    guard let command = ReplayCommandTable.lookup(word) else {
      let suggestion = closestMatch(to: word, in: ReplayCommandTable.all.map(\.name))
      throw .usage("no command '\(word)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? ""))
    }
    return HelpRequest(command: command)
  }
}

/// The command table, or one command of it.
package struct HelpResponse: ReplayResponse {
  /// The command explained; `nil` for all of them.
  package var command: ReplayCommand?
  /// `{"commands": [...]}`, or the one command (``ReplayCommand/jsonValue``).
  package var jsonValue: JSONValue {
    command?.jsonValue
      ?? .object([JSONMember("commands", .array(ReplayCommandTable.all.map(\.jsonValue)))])
  }
}

/// Ends the session. Answered with a ``QuitResponse``.
package struct QuitRequest: ReplayRequest, Equatable {
  /// The end.
  package init() {}

  package func run(on service: ReplayService) throws(ReplayFailure) -> QuitResponse {
    QuitResponse()
  }

  /// `quit`.
  static let command = ReplayCommand(
    name: "quit", alias: "q", usage: "quit", summary: "end the session",
    details: "Also: Ctrl-D (end of input)."
  ) { _, _ throws(ReplayFailure) in QuitRequest() }
}

/// The session ends.
package struct QuitResponse: ReplayResponse {
  /// `{}`.
  package var jsonValue: JSONValue { .object([]) }
}

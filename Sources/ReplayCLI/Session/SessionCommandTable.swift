/// The commands of an interactive session, gdb-style, each with a short alias.
struct SessionCommandInfo: Sendable {
  var name: String
  var alias: String
  var usage: String
  var summary: String
  var details: String
}

enum SessionCommandTable {
  static let all: [SessionCommandInfo] = [
    SessionCommandInfo(
      name: "next", alias: "n", usage: "next [N]", summary: "step forward N actions (default 1)",
      details: "Moves the cursor N positions forward and shows the action that led there."),
    SessionCommandInfo(
      name: "back", alias: "b", usage: "back [N]", summary: "step backward N actions (default 1)",
      details: "Moves the cursor N positions backward. A step back costs at most one cached "
        + "stretch of reductions, never a replay from the start."),
    SessionCommandInfo(
      name: "goto", alias: "g", usage: "goto N|first|last", summary: "jump to position N",
      details: "Position 0 is the initial state; position N is the state after action N."),
    SessionCommandInfo(
      name: "print", alias: "p", usage: "print [PATH]", summary: "show the state, or a part of it",
      details: "PATH examples: todos[2].title, filter, todos.count (length of an array or "
        + "object). Without PATH, prints the whole state."),
    SessionCommandInfo(
      name: "action", alias: "a", usage: "action", summary: "show the action that led here",
      details: "Shows the seq, time, type and payload of the action at the cursor."),
    SessionCommandInfo(
      name: "list", alias: "l", usage: "list [N]", summary: "list N actions around the cursor",
      details: "Lists N actions (default 10) around the cursor; '>' marks the cursor."),
    SessionCommandInfo(
      name: "info", alias: "i", usage: "info", summary: "describe the log and the cursor",
      details: "App, types, number of actions, checkpoints, how the log ended, bad lines."),
    SessionCommandInfo(
      name: "find", alias: "f", usage: "find [-b] TEXT|type=NAME",
      summary: "go to the next action matching TEXT or of type NAME",
      details: "Searches forward from the cursor (backward with -b) for an action whose type is "
        + "NAME (type=NAME) or whose recorded JSON contains TEXT."),
    SessionCommandInfo(
      name: "help", alias: "h", usage: "help [COMMAND]", summary: "list commands, or explain one",
      details: "An empty line repeats the last command."),
    SessionCommandInfo(
      name: "quit", alias: "q", usage: "quit", summary: "end the session",
      details: "Also: Ctrl-D (end of input)."),
  ]

  /// The command named or aliased `word`.
  static func lookup(_ word: String) -> SessionCommandInfo? {
    all.first { $0.name == word || $0.alias == word }
  }

  /// The overview that `help` prints.
  static var overview: String {
    let width = all.map(\.usage.count).max() ?? 0
    var lines = ["Commands (alias in brackets):"]
    for command in all {
      let padding = String(repeating: " ", count: width - command.usage.count + 2)
      lines.append("  \(command.usage)\(padding)[\(command.alias)]  \(command.summary)")
    }
    lines.append("An empty line repeats the last command. 'help COMMAND' explains one.")
    return lines.joined(separator: "\n")
  }
}

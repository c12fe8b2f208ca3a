import RewindJSON

/// The commands of an interactive session, gdb-style, each with a short alias.
struct SessionCommandInfo: Sendable {
  var name: String
  var alias: String
  var usage: String
  var summary: String
  var details: String
  /// Whether `--json` prints the command's result as one line of JSON (the debugger's one
  /// encoding of it) instead of text: every command but `quit`.
  var hasJSON: Bool { name != "quit" }
  /// Whether an empty line runs it again: not for commands that add, delete or skip something,
  /// which a stray empty line must not do twice.
  var repeats = true

  /// The command as `help --json` gives it: `name`, `alias`, `usage`, `summary`, `details`.
  var jsonValue: JSONValue {
    .object([
      JSONMember("name", .string(name)), JSONMember("alias", .string(alias)),
      JSONMember("usage", .string(usage)), JSONMember("summary", .string(summary)),
      JSONMember("details", .string(details)),
    ])
  }
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
      summary: "go to the next matching action",
      details: "Searches forward from the cursor (backward with -b) for an action whose type is "
        + "NAME (type=NAME) or whose recorded JSON contains TEXT."),
    SessionCommandInfo(
      name: "diff", alias: "d", usage: "diff [N [M]] [--json]",
      summary: "show what changed between two states",
      details: "'diff' shows what the action at the cursor changed; 'diff N' compares position "
        + "N with the cursor; 'diff N M' compares N with M. --json prints an RFC 6902 JSON Patch."),
    SessionCommandInfo(
      name: "watch", alias: "w", usage: "watch PATH",
      summary: "stop where the value at PATH changes",
      details: "A watchpoint: 'continue' runs forward to the next action that changes the value "
        + "at PATH, 'reverse-continue' backward to the action that last changed it.",
      repeats: false),
    SessionCommandInfo(
      name: "break", alias: "br", usage: "break type=NAME|if COND",
      summary: "stop at a type, or where COND becomes true",
      details:
        "COND is PATH OP VALUE; OP is one of == != < <= > >= contains. VALUE is JSON (3, \"Buy milk\", true) "
        + "or a bare word. A condition stops where it holds after an action and did not before.",
      repeats: false),
    SessionCommandInfo(
      name: "watches", alias: "ws", usage: "watches", summary: "list watchpoints and breakpoints",
      details: "Shows each with its id, for 'delete ID'."),
    SessionCommandInfo(
      name: "delete", alias: "del", usage: "delete ID|all", summary: "remove a watch or break",
      details: "Removes the watchpoint or breakpoint with that id, or all of them.",
      repeats: false),
    SessionCommandInfo(
      name: "continue", alias: "c", usage: "continue",
      summary: "run forward to a watch or break",
      details: "Needs a watchpoint or breakpoint; stops at the end of the log when none triggers."),
    SessionCommandInfo(
      name: "reverse-continue", alias: "rc", usage: "reverse-continue",
      summary: "run backward to a watch or break",
      details: "Needs a watchpoint or breakpoint; stops at the initial state when none triggers. "
        + "Costs about one forward pass, thanks to the cached states."),
    SessionCommandInfo(
      name: "skip", alias: "sk", usage: "skip N",
      summary: "replay as if action N never happened",
      details: "Every later state is recomputed without it; the prompt shows that skips are "
        + "active. 'unskip N' undoes it.",
      repeats: false),
    SessionCommandInfo(
      name: "unskip", alias: "us", usage: "unskip N", summary: "undo 'skip N'",
      details: "Every later state is recomputed with action N again.",
      repeats: false),
    SessionCommandInfo(
      name: "help", alias: "h", usage: "help [COMMAND]", summary: "list commands, or explain one",
      details: "An empty line repeats the last command (not watch, break, delete, skip or unskip). "
        + "--json as the last word prints a command's result as one line of JSON."),
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
    let aliasWidth = all.map(\.alias.count).max() ?? 0
    var lines = ["Commands (alias in brackets):"]
    for command in all {
      let padding = String(repeating: " ", count: width - command.usage.count + 2)
      let aliasPadding = String(repeating: " ", count: aliasWidth - command.alias.count + 2)
      lines.append(
        "  \(command.usage)\(padding)[\(command.alias)]\(aliasPadding)\(command.summary)")
    }
    lines.append(
      "--json as a command's last word prints its result (or error) as one line of JSON.")
    lines.append(
      "An empty line repeats the last command (not watch, break, delete, skip or unskip).")
    lines.append("'help COMMAND' explains one.")
    return lines.joined(separator: "\n")
  }
}

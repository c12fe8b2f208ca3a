/// Every session command, each asking for one request: the one list from which the REPL and
/// `-c` parse, `help` and completion read, the TUI's `:` prompt runs, and the protocol front ends
/// will take their command names and schemas.
package enum ReplayCommandTable {
  /// The commands, in the order `help` lists them.
  package static let all: [ReplayCommand] = [
    MoveRequest.next, MoveRequest.back, MoveRequest.goto, PrintRequest.command,
    ChildrenRequest.command,
    ActionRequest.command, ListRequest.command, WhereRequest.command, InfoRequest.command,
    FindRequest.command,
    DiffRequest.command, HistoryRequest.command, BlameRequest.command, SearchRequest.command,
    WatchRequest.command,
    BreakRequest.command, BreakpointsRequest.command,
    DeleteRequest.command, ContinueRequest.forward, ContinueRequest.backward, SkipRequest.skip,
    SkipRequest.unskip, VerifyRequest.command, CompatRequest.command, GenTestRequest.command,
    HelpRequest.command,
    QuitRequest.command,
  ]

  /// The requests only a one-shot `replay` command asks for, by that command: they need what a
  /// session does not have (a second log; a file to write), or replay the whole log several
  /// times over (`profile`).
  package static let oneShot: [(command: String, request: any ReplayRequest.Type)] = [
    ("replay diff A B", CompareRequest.self), ("replay shrink LOG", ShrinkRequest.self),
    ("replay profile LOG", ProfileRequest.self),
    ("replay actions LOG", ActionsRequest.self),
  ]

  /// The command named or aliased `word`.
  package static func lookup(_ word: String) -> ReplayCommand? {
    all.first { $0.name == word || $0.alias == word }
  }

  /// The overview that `help` prints.
  package static var overview: String {
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

import RewindJSON
import RewindReplay

extension ReplaySession {
  func help(_ arguments: [String]) {
    if wantsJSON, arguments.isEmpty {
      // The command table, for a tool that offers the commands.
      writeJSON(
        .object([JSONMember("commands", .array(SessionCommandTable.all.map(\.jsonValue)))]))
      return
    }
    guard let word = arguments.first else {
      output.writeLine(SessionCommandTable.overview)
      return
    }
    guard let command = SessionCommandTable.lookup(word) else {
      let suggestion =
        closestMatch(to: word, in: SessionCommandTable.all.map(\.name))
        .map { " Did you mean '\($0)'?" } ?? ""
      fail("no command '\(inert(word))'.\(suggestion)")
      return
    }
    if wantsJSON {
      writeJSON(command.jsonValue)
      return
    }
    output.writeLine("\(command.usage)  (alias: \(command.alias))")
    output.writeLine("  \(command.summary).")
    output.writeLine("  \(command.details)")
    if command.hasJSON && !command.usage.contains("--json") {
      output.writeLine("  --json prints the result as one line of JSON.")
    }
  }

  func printState(_ arguments: [String]) throws(SessionFailure) {
    let path = try Self.parsePath(arguments)
    let value = try perform { () throws(DebuggerError) in try debugger.value(at: path) }
    if wantsJSON {
      writeJSON(value)
    } else {
      output.writeLine(inert(value.prettyText(), keepingNewlines: true))
    }
  }

  func showAction() throws(SessionFailure) {
    let detail = try perform { () throws(DebuggerError) in try debugger.actionHere() }
    if wantsJSON {
      writeJSON(detail.jsonValue)
      return
    }
    let action = detail.action
    var header = "action \(action.seq)"
    if let time = action.time {
      header += " at \(ActionFormatter.formatTime(time).trimmingWhitespace())"
    }
    header += ", type \(inert(action.type ?? "?")), line \(action.line)"
    if action.isSanitized { header += " (sanitized when recorded)" }
    if action.isMigrated { header += " (migrated from what the app wrote, by this replay)" }
    if detail.isSkipped { header += " (skipped)" }
    output.writeLine(header)
    if let payload = action.payload {
      output.writeLine(inert(payload.prettyText(), keepingNewlines: true))
    } else {
      output.writeLine(ActionFormatter.payloadText(action))
    }
  }

  func list(_ count: Int) throws(SessionFailure) {
    let listing = try perform { () throws(DebuggerError) in try debugger.actions(around: count) }
    if wantsJSON {
      writeJSON(listing.jsonValue)
      return
    }
    guard log.actionCount > 0 else {
      output.writeLine("the log has no actions")
      return
    }
    let width = String(log.lastSeq).count
    if listing.startsAtInitialState {
      let seq = String(listing.cursor)
      output.writeLine(
        "> \(String(repeating: " ", count: max(0, width - seq.count)))\(seq)  (initial state)")
    }
    for action in listing.actions {
      output.writeLine(
        ActionFormatter.line(
          action, marker: action.seq == listing.cursor ? ">" : " ", seqWidth: width)
          + (listing.skipped.contains(action.seq) ? "  (skipped)" : ""))
    }
  }

  func showInfo() {
    let skips = opened.timeline?.skippedSeqs.sorted() ?? []
    if wantsJSON, case .object(let members) = LogSummary.json(log, appKnown: opened.timeline != nil)
    {
      let cursor = [
        JSONMember("position", .number(String(position))),
        JSONMember("skips", .array(skips.map { .number(String($0)) })),
      ]
      writeJSON(.object(members + cursor))
      return
    }
    output.writeLine(LogSummary.text(log, app: opened.timeline == nil ? nil : log.header.app))
    output.writeLine(
      "position:     \(position) of \(log.positions.lowerBound)…\(log.positions.upperBound)")
    if !skips.isEmpty {
      output.writeLine("skipped:      \(skips.map(String.init).joined(separator: ", "))")
    }
  }

  func find(_ arguments: [String]) throws(SessionFailure) {
    var words = arguments
    var direction = TimelineSearch.Direction.forward
    if words.first == "-b" {
      direction = .backward
      words.removeFirst()
    }
    let text = words.joined(separator: " ")
    guard !text.isEmpty else { throw SessionFailure("usage: find [-b] TEXT|type=NAME") }
    show(
      try perform { () throws(DebuggerError) in
        try debugger.find(ActionQuery(parsing: text), direction)
      })
  }

  static func oneLine(_ diagnostic: Diagnostic) -> String {
    var text = inert(diagnostic.message)
    if let location = diagnostic.location { text = "\(location): \(text)" }
    if let hint = diagnostic.hints.first {
      text += " (\(inert(hint.text))\(hint.comment.map { ": \(inert($0))" } ?? ""))"
    }
    return text
  }

  /// The state path the words spell (`todos[0].title`, or the whole state when there are none).
  static func parsePath(_ arguments: [String]) throws(SessionFailure) -> JSONPath {
    do throws(StatePathError) {
      return try JSONPath.parse(arguments.joined(separator: " "))
    } catch {
      throw SessionFailure(pathMessage(error))
    }
  }

  static func pathMessage(_ error: StatePathError) -> String {
    inert(error.messageWithSuggestion)
  }
}

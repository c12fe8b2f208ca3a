import RewindJSON
import RewindReplay
import RewindReplayService

/// A line of a response's text, and the channel it goes to (a warning goes to standard error).
struct ResponseLine: Sendable, Equatable {
  /// The line, made inert.
  var text: String
  /// Where it goes.
  var channel = OutputChannel.standardOutput
}

/// A response the command line shows as text: the one text rendering of each response, used by
/// the REPL, `-c` and the TUI's messages alike.
protocol TextRenderedResponse: ReplayResponse {
  /// The response's lines, in the words of a session over `service`.
  func textLines(in service: ReplayService) -> [ResponseLine]
}

extension ReplayService {
  /// The lines of `response`: its text rendering, or its JSON for a response that has none.
  func textLines(of response: any ReplayResponse) -> [ResponseLine] {
    guard let rendered = response as? any TextRenderedResponse else {
      return [ResponseLine(text: inert(response.jsonValue.jsonText))]
    }
    return rendered.textLines(in: self)
  }

  /// A failure in a session's words: the message made inert; a missing app said with the apps
  /// this binary knows, a replay error with its location and hint.
  func text(of failure: ReplayFailure) -> String {
    guard case .debugger(let error) = failure else { return inert(failure.message) }
    switch error {
    case .noReducer: return ReplaySession.oneLine(opened.missingAppDiagnostic)
    case .replay(let error):
      var text = inert(error.message)
      if let location = error.location { text = "\(inert(location)): \(text)" }
      if let hint = error.hint { text += " (\(inert(hint)))" }
      return text
    default: return inert(error.message)
    }
  }

  /// `> 12  12:00:03.200  add  {...}` for the action that led to `landing`, or what stands
  /// there instead (the initial state).
  fileprivate func positionLine(_ landing: Landing) -> ResponseLine {
    if landing.position == log.positions.lowerBound {
      return ResponseLine(text: "at position \(landing.position): the initial state")
    }
    guard let action = landing.action else {
      return ResponseLine(text: "at position \(landing.position)")
    }
    return ResponseLine(
      text: ActionFormatter.line(action, marker: ">") + (landing.isSkipped ? "  (skipped)" : ""))
  }

  /// The crash report and where the cursor landed before it.
  fileprivate func crashLines(_ report: CrashReport, _ landing: Landing) -> [ResponseLine] {
    report.lines().map { ResponseLine(text: $0) } + [
      ResponseLine(
        text: "stopped at position \(landing.position), the last state before the crash (print, "
          + "diff and back work from here)"),
      positionLine(landing),
    ]
  }

  /// The position line, and the note that the cut-off log's last action replays cleanly.
  fileprivate func arrivalLines(_ landing: Landing, lastActionReplaysCleanly: Bool)
    -> [ResponseLine]
  {
    var lines = [positionLine(landing)]
    if lastActionReplaysCleanly {
      lines.append(
        ResponseLine(
          text: "note: action \(landing.position), the last one recorded, replays without a "
            + "crash: the app stopped somewhere else (in a view, an effect, or killed by the "
            + "system)"))
    }
    return lines
  }
}

extension MotionResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    switch motion {
    case .moved:
      return service.arrivalLines(landing, lastActionReplaysCleanly: lastActionReplaysCleanly)
    case .crashed(let report, _): return service.crashLines(report, landing)
    }
  }
}

extension StopResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    switch stop {
    case .breakpoints(_, let reasons):
      return reasons.map { ResponseLine(text: "stopped by \($0.id): \(inert($0.text))") }
        + service.arrivalLines(landing, lastActionReplaysCleanly: lastActionReplaysCleanly)
    case .boundary(let end, let direction):
      let moved =
        end != from
        ? service.arrivalLines(landing, lastActionReplaysCleanly: lastActionReplaysCleanly) : []
      let word = direction == .forward ? "end" : "start"
      return moved + [
        ResponseLine(text: "reached the \(word) of the log (position \(end)) without a stop")
      ]
    case .crashed(let report, _): return service.crashLines(report, landing)
    }
  }
}

extension ValueResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    [ResponseLine(text: inert(value.prettyText(), keepingNewlines: true))]
  }
}

extension ChildrenResponse: TextRenderedResponse {
  /// `todos at 12: array, 120 elements` then a line a child (`  [0]  {…} 3 members`), and how
  /// to ask for the next page.
  func textLines(in service: ReplayService) -> [ResponseLine] {
    let name = path.components.isEmpty ? "the state" : path.description
    var size = facts.kind
    if let count = facts.count {
      let noun = facts.kind == "object" ? "member" : "element"
      size += ", \(count) \(noun)\(count == 1 ? "" : "s")"
    }
    var lines = [ResponseLine(text: inert("\(name) at \(position): \(size)"))]
    let width = min(24, children.map(\.name.count).max() ?? 0)
    for child in children {
      let padding = String(repeating: " ", count: max(0, width - child.name.count))
      lines.append(ResponseLine(text: inert("  \(child.name)\(padding)  \(child.facts.preview)")))
    }
    if let nextOffset, let count = facts.count {
      let target = path.components.isEmpty ? "" : " \(path)"
      lines.append(
        ResponseLine(
          text: inert(
            "  … \(count - nextOffset) more: members\(target) --at \(position) --offset \(nextOffset)"
          )))
    }
    return lines
  }
}

extension ActionDetail: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    var header = "action \(action.seq)"
    if let time = action.time {
      header += " at \(ActionFormatter.formatTime(time).trimmingWhitespace())"
    }
    header += ", type \(inert(action.type ?? "?")), line \(action.line)"
    if action.isSanitized { header += " (sanitized when recorded)" }
    if action.isMigrated { header += " (migrated from what the app wrote, by this replay)" }
    if isSkipped { header += " (skipped)" }
    let payload =
      action.payload.map { inert($0.prettyText(), keepingNewlines: true) }
      ?? ActionFormatter.payloadText(action)
    var lines = [ResponseLine(text: header), ResponseLine(text: payload)]
    func named(_ reference: ActionReference) -> String {
      "\(reference.seq)" + (reference.type.map { " \(inert($0))" } ?? "")
    }
    if let site = action.site { lines.append(ResponseLine(text: "dispatched at \(inert(site))")) }
    if action.via == "viewer" {
      lines.append(ResponseLine(text: "dispatched by the live viewer (replay listen's dispatch)"))
    } else if let via = action.via {
      lines.append(ResponseLine(text: "dispatched via \(inert(via))"))
    }
    if let cause { lines.append(ResponseLine(text: "caused by     action \(named(cause))")) }
    if !effects.isEmpty {
      let shown = effects.prefix(20).map(named).joined(separator: ", ")
      let more = effects.count > 20 ? ", and \(effects.count - 20) more" : ""
      let noun = effects.count == 1 ? "action" : "actions"
      lines.append(ResponseLine(text: "caused        \(noun) \(shown)\(more)"))
    }
    return lines
  }
}

extension ListResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    guard logHasActions else { return [ResponseLine(text: "the log has no actions")] }
    let width = String(lastSeq).count
    var lines: [ResponseLine] = []
    if listing.startsAtInitialState {
      let seq = String(listing.cursor)
      lines.append(
        ResponseLine(
          text:
            "> \(String(repeating: " ", count: max(0, width - seq.count)))\(seq)  (initial state)"
        ))
    }
    let rows =
      tree?.rows.map { ($0.action, $0.depth) } ?? listing.actions.map { ($0, 0) }
    for (action, depth) in rows {
      lines.append(
        ResponseLine(
          text: ActionFormatter.line(
            action, marker: action.seq == listing.cursor ? ">" : " ", seqWidth: width,
            depth: depth)
            + (listing.skipped.contains(action.seq) ? "  (skipped)" : "")))
    }
    return lines
  }
}

extension WhereResponse: TextRenderedResponse {
  /// The path an editor opens first (`path:line`), then the action and Xcode's command.
  func textLines(in service: ReplayService) -> [ResponseLine] {
    let line = site.line.map { ":\($0)" } ?? ""
    let action = "action \(site.seq)" + (site.type.map { " (\(inert($0)))" } ?? "")
    guard let path else {
      return [
        ResponseLine(text: inert(site.file) + line),
        ResponseLine(
          text: "  \(action) was dispatched there; no file \(inert(site.fileName)) under "
            + "\(inert(root)): run 'where' from the app's source folder"),
      ]
    }
    var lines = [
      ResponseLine(text: inert(path) + line),
      ResponseLine(text: "  \(action), dispatched at \(inert(site.file))\(line)"),
    ]
    if let number = site.line {
      lines.append(ResponseLine(text: "  Xcode: xed -l \(number) \(shellQuoted(path))"))
    }
    return lines
  }

  /// `text` as one shell word: as it is when it has only safe characters, else single-quoted.
  private func shellQuoted(_ text: String) -> String {
    let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-+".contains($0) }
    return safe
      ? inert(text) : "'" + inert(text).replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }
}

extension InfoResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    var lines = [
      ResponseLine(
        text: LogSummary.text(log, app: appKnown ? log.header.app : nil, isLive: service.isLive)),
      ResponseLine(
        text:
          "position:     \(position) of \(log.positions.lowerBound)…\(log.positions.upperBound)"),
    ]
    if !skips.isEmpty {
      lines.append(
        ResponseLine(text: "skipped:      \(skips.map(String.init).joined(separator: ", "))"))
    }
    return lines
  }
}

extension DiffResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    (namesPositions ? [ResponseLine(text: "position \(diff.from) → \(diff.to):")] : [])
      + [ResponseLine(text: inert(JSONDiff.render(diff.changes), keepingNewlines: true))]
  }
}

extension WatchResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    var now = "absent here"
    switch value {
    case .success(let current): now = "now \(inert(current.jsonText))"
    case .failure(let error):
      if case .noSuchKey(let key, _, let available) = error,
        let suggestion = closestMatch(to: key, in: available)
      {
        now += "; did you mean '\(inert(suggestion))'?"
      }
    }
    return [
      ResponseLine(
        text: "watchpoint \(id): \(inert(path.sessionText)) (\(truncate(now, toWidth: 70)))")
    ]
  }
}

extension BreakResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    var lines = [ResponseLine(text: "breakpoint \(id): \(inert(breakpoint.description))")]
    if let unknownType {
      let suggestion = unknownType.suggestion.map { "; did you mean type=\($0)?" } ?? ""
      lines.append(
        ResponseLine(
          text: "warning: no action of type '\(inert(unknownType.name))' is in this log"
            + inert(suggestion), channel: .standardError))
    }
    if let mismatch {
      lines.append(ResponseLine(text: "warning: \(inert(mismatch))", channel: .standardError))
    }
    return lines
  }
}

extension BreakpointsResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    guard !breakpoints.isEmpty else {
      return [
        ResponseLine(
          text: "no watchpoints or breakpoints; set one with 'watch PATH' or 'break ...'")
      ]
    }
    return breakpoints.map { ResponseLine(text: "\($0.id)  \(inert($0.breakpoint.description))") }
  }
}

extension DeleteResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    [
      ResponseLine(
        text: all
          ? "deleted \(ids.count) watchpoint(s) and breakpoint(s)"
          : "deleted \(ids.map(String.init).joined(separator: ", "))")
    ]
  }
}

extension SkipResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    [
      ResponseLine(
        text: isSkipped
          ? "skipping action \(seq): states from position \(seq) on are recomputed without it "
            + "(\(count) skipped)"
          : "action \(seq) replays again (\(count) skipped)")
    ]
  }
}

extension VerifyResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    textLines.map { ResponseLine(text: $0) }
  }

  /// What `replay verify` prints: the report's lines (or the crash's), then what the last action
  /// of a cut-off log does.
  var textLines: [String] {
    switch outcome {
    case .crashed(let crash):
      return ["\(inert(path)): does not replay: \(crash.headline)"]
        + crash.lines().dropFirst()
    case .walked(let report):
      var lines: [String] = []
      report.forEachLine { lines.append(inert($0, keepingNewlines: true)) }
      if let lastAction { lines.append(Self.lastActionText(lastAction)) }
      return lines
    }
  }

  /// What replaying a cut-off log's last action showed, in `verify`'s words.
  static func lastActionText(_ check: LastActionCheck) -> String {
    switch check {
    case .crashed(let report):
      var action = report.seq.map { "action \($0)" } ?? "an action"
      if let type = report.type { action += " (\(inert(type)))" }
      return "the log ends where the app crashed: \(action) crashes the app's reducer again "
        + "(\(report.signal)\(report.message.map { ": \(inert($0))" } ?? "")); replay it to see where"
    case .replays:
      return "note: " + check.rows.value.replacingOccurrences(of: "no — ", with: "")
    case .failed:
      return "note: the last action was not replayed: " + check.rows.value
    }
  }
}

extension GenTestResponse: TextRenderedResponse {
  /// The test's Swift text, a line each (or why it cannot be written).
  func textLines(in service: ReplayService) -> [ResponseLine] {
    var text = ""
    do { try service.writeTest(self, to: &text) } catch {
      return [ResponseLine(text: service.text(of: error), channel: .standardError)]
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
      ResponseLine(text: inert(String($0)))
    }
  }
}

extension ShrinkResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    textLines.map { ResponseLine(text: $0) }
  }

  /// What `replay shrink` prints before naming the file: the count, then each kept action.
  var textLines: [String] {
    [
      "shrunk \(recordedCount) → \(kept.count) action\(kept.count == 1 ? "" : "s") in \(replays) "
        + "replays (until \(inert(condition.description)))"
        + (isBudgetExhausted ? "; the --max-replays budget ran out, so it may shrink further" : "")
    ] + kept.map { ActionFormatter.line($0) }
  }
}

extension HelpResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] {
    guard let command else { return [ResponseLine(text: ReplayCommandTable.overview)] }
    var lines = [
      "\(command.usage)  (alias: \(command.alias))", "  \(command.summary).",
      "  \(command.details)",
    ]
    if command.hasJSON && !command.usage.contains("--json") {
      lines.append("  --json prints the result as one line of JSON.")
    }
    return lines.map { ResponseLine(text: $0) }
  }
}

extension QuitResponse: TextRenderedResponse {
  func textLines(in service: ReplayService) -> [ResponseLine] { [] }
}

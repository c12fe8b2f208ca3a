import RewindJSON
import RewindReplay

extension ReplaySession {
  func help(_ arguments: [String]) {
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
    output.writeLine("\(command.usage)  (alias: \(command.alias))")
    output.writeLine("  \(command.summary).")
    output.writeLine("  \(command.details)")
  }

  func printState(_ arguments: [String]) throws(SessionFailure) {
    let state: JSONValue
    do throws(CommandFailure) {
      state = try opened.stateJSON(at: position)
    } catch {
      throw SessionFailure(Self.oneLine(error.diagnostic))
    }
    let text = arguments.joined(separator: " ")
    let value: JSONValue
    do throws(StatePathError) {
      value = try state.value(at: JSONPath.parse(text))
    } catch {
      throw SessionFailure(Self.pathMessage(error))
    }
    output.writeLine(inert(value.prettyText(), keepingNewlines: true))
  }

  func showAction() throws(SessionFailure) {
    guard position > log.positions.lowerBound else {
      throw SessionFailure(
        "position \(position) is the initial state: no action led here ('next' shows the first)")
    }
    let action: RecordedAction
    do { action = try log.action(at: position) } catch { throw SessionFailure(error) }
    var header = "action \(action.seq)"
    if let time = action.time {
      header += " at \(ActionFormatter.formatTime(time).trimmingWhitespace())"
    }
    header += ", type \(inert(action.type ?? "?")), line \(action.line)"
    if action.isSanitized { header += " (sanitized when recorded)" }
    if action.isMigrated { header += " (migrated from what the app wrote, by this replay)" }
    if opened.timeline?.skippedSeqs.contains(action.seq) == true { header += " (skipped)" }
    output.writeLine(header)
    if let payload = action.payload {
      output.writeLine(inert(payload.prettyText(), keepingNewlines: true))
    } else {
      output.writeLine(ActionFormatter.payloadText(action))
    }
  }

  func list(_ count: Int) throws(SessionFailure) {
    guard log.actionCount > 0 else {
      output.writeLine("the log has no actions")
      return
    }
    let n = max(1, min(count, log.actionCount + 1))
    var first = max(log.firstSeq, position - n / 2)
    let last = min(log.lastSeq, first + n - 1)
    first = max(log.firstSeq, min(first, last - n + 1))
    let width = String(log.lastSeq).count
    if position == log.positions.lowerBound {
      let seq = String(position)
      output.writeLine(
        "> \(String(repeating: " ", count: max(0, width - seq.count)))\(seq)  (initial state)")
    }
    for seq in first...last {
      do {
        let action = try log.action(at: seq)
        output.writeLine(
          ActionFormatter.line(action, marker: seq == position ? ">" : " ", seqWidth: width))
      } catch {
        throw SessionFailure(error)
      }
    }
  }

  func showInfo() {
    output.writeLine(LogSummary.text(log, app: opened.timeline == nil ? nil : log.header.app))
    output.writeLine(
      "position:     \(position) of \(log.positions.lowerBound)…\(log.positions.upperBound)")
    if let skips = opened.timeline?.skippedSeqs, !skips.isEmpty {
      output.writeLine("skipped:      \(skips.sorted().map(String.init).joined(separator: ", "))")
    }
  }

  func find(_ arguments: [String]) throws(SessionFailure) {
    var words = arguments
    var backward = false
    if words.first == "-b" {
      backward = true
      words.removeFirst()
    }
    let query = words.joined(separator: " ")
    guard !query.isEmpty else { throw SessionFailure("usage: find [-b] TEXT|type=NAME") }
    let typeName = query.hasPrefix("type=") ? String(query.dropFirst(5)) : nil
    let seqs: StrideThrough<Int> =
      backward
      ? stride(from: position - 1, through: log.firstSeq, by: -1)
      : stride(from: max(position + 1, log.firstSeq), through: log.lastSeq, by: 1)
    for seq in seqs {
      let action: RecordedAction
      do { action = try log.action(at: seq) } catch { throw SessionFailure(error) }
      let matches: Bool
      if let typeName {
        matches = action.type == typeName
      } else {
        matches =
          action.payload.map { $0.jsonText.contains(query) } ?? false
          || action.type?.contains(query) == true
      }
      if matches {
        try move(to: seq)
        return
      }
    }
    var message =
      "no action \(backward ? "before" : "after") position \(position) matches '\(inert(query))'"
    if let typeName {
      let known = knownTypes()
      if !known.contains(typeName), let close = closestMatch(to: typeName, in: Array(known)) {
        message += "; did you mean type=\(close)?"
      }
    }
    throw SessionFailure(message)
  }

  func knownTypes() -> Set<String> {
    var types: Set<String> = []
    var seq = log.firstSeq
    while seq <= log.lastSeq && types.count < 64 {
      if let type = try? log.action(at: seq).type { types.insert(type) }
      seq += max(1, log.actionCount / 2000)
    }
    return types
  }

  static func oneLine(_ diagnostic: Diagnostic) -> String {
    var text = inert(diagnostic.message)
    if let location = diagnostic.location { text = "\(location): \(text)" }
    if let hint = diagnostic.hints.first {
      text += " (\(inert(hint.text))\(hint.comment.map { ": \(inert($0))" } ?? ""))"
    }
    return text
  }

  static func pathMessage(_ error: StatePathError) -> String {
    if case .noSuchKey(let key, _, let available) = error,
      let suggestion = closestMatch(to: key, in: available)
    {
      return "\(inert(error.description)); did you mean '\(inert(suggestion))'?"
    }
    return inert(error.description)
  }
}

import RewindJSON
import RewindReplay
import RewindReplayService

/// An interactive replay session: gdb-style commands, each parsed through
/// ``ReplayCommandTable`` into a typed request, run by the ``ReplayService``, and its response
/// rendered — as text, or as its one JSON form with `--json`. Reads nothing and prints only
/// through its ``TextOutput``.
final class ReplaySession {
  /// The service that answers the session's requests (a new one when a live log grew:
  /// ``reopen(_:)``).
  private(set) var service: ReplayService
  let output: any TextOutput
  /// The opened log.
  var opened: OpenedLog { service.opened }
  /// The cursor, watchpoints, breakpoints and skips.
  var debugger: Debugger { service.debugger }
  /// The cursor's position.
  var position: Int { service.position }
  private var lastCommand: String?
  /// Whether any command failed (for the exit code of `-c` runs).
  private(set) var hadError = false
  /// Whether a command met an action that crashes the app's reducer (exit status 3 for `-c`
  /// runs and scripts).
  private(set) var metCrash = false
  /// Whether the command being run was given `--json`, or the session runs in ``jsonMode``: its
  /// result (or error) is printed as one line of JSON, the response's one JSON form.
  private(set) var wantsJSON = false
  /// Whether every command prints JSON (`replay LOG --json`): one line each, its result or
  /// `{"error": …}`, for scripts and tools that drive a session.
  let jsonMode: Bool

  init(opened: OpenedLog, output: any TextOutput, jsonMode: Bool = false) {
    self.service = ReplayService(opened: opened)
    self.output = output
    self.jsonMode = jsonMode
  }

  var log: ReplayLog { opened.log }

  /// Goes on with `opened`, the same log read again after it grew (`replay listen`): the
  /// cursor, watchpoints and breakpoints are kept.
  func reopen(_ opened: OpenedLog) {
    let next = ReplayService(opened: opened)
    next.debugger.adopt(service.debugger)
    next.isLive = service.isLive
    service = next
  }

  /// The prompt: `(replay 12/340) `, with `skips` when actions are skipped.
  var prompt: String {
    let skips = opened.timeline?.skippedSeqs.count ?? 0
    let marker = skips > 0 ? " skips:\(skips)" : ""
    return "(replay \(position)/\(log.lastSeq)\(marker)) "
  }

  /// The lines printed when the session starts.
  func printBanner() {
    let count = log.actionCount
    var line =
      "\(inert(log.path)): app \(inert(log.header.app)), \(count) action\(count == 1 ? "" : "s")"
    if count > 0 { line += " (seq \(log.firstSeq)…\(log.lastSeq))" }
    line += ", \(log.checkpointSeqs.count) checkpoint\(log.checkpointSeqs.count == 1 ? "" : "s")"
    output.writeLine(line)
    if let recordedBy = log.recordedBy {
      output.writeLine(
        "recorded by \(inert(recordedBy))"
          + (log.migration.map { "; migrated by this replay (schema \($0.description))" } ?? ""))
    }
    if log.isCutOff && !service.isLive {
      output.writeLine("the log was \(LogSummary.endText(log))")
    }
    for fault in log.faults { output.emit(fault.warning) }
    if opened.timeline == nil { output.emit(opened.missingAppDiagnostic) }
    let atStart = position == log.positions.lowerBound
    if log.isInitialStateMissing {
      output.writeLine(
        "the file's initial state is not in it: "
          + (atStart
            ? "no state can be rebuilt from this file alone"
            : "states from the checkpoint at position \(position) on can be rebuilt")
          + " (\(output.voice.name) \(inert(log.path)) info)")
    }
    let what =
      service.isLive
      ? "the newest state; live: the cursor follows new actions until you move it"
      : !atStart
        ? "the first checkpoint"
        : log.isInitialStateMissing ? "initial state, not in the file" : "initial state"
    output.writeLine("at position \(position) (\(what)). Type 'help' for commands.")
  }

  /// Runs one command line. Returns `false` when the session should end.
  @discardableResult
  func execute(_ rawLine: String) -> Bool {
    var line = rawLine.trimmingWhitespace()
    if line.isEmpty {
      // Repeating the last command is for people at a prompt; a tool's empty line is nothing.
      guard !jsonMode, let lastCommand else { return true }
      line = lastCommand
    }
    var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let word = words.first else { return true }
    wantsJSON = jsonMode || (words.count > 1 && words.last == "--json")
    let command = ReplayCommandTable.lookup(word)
    lastCommand = command?.repeats == true ? line : nil
    // Only as the last word: a path or a search text may hold `--json` itself.
    if words.count > 1, words.last == "--json" {
      words.removeLast()
      wantsJSON = command?.hasJSON ?? wantsJSON
    }
    do throws(ReplayFailure) {
      let request = try service.request(words)
      let response = try service.perform(request)
      if response is QuitResponse { return false }
      show(response)
    } catch {
      fail(service.text(of: error))
    }
    return true
  }

  /// Reports a failed command: `error: …` on standard error, or `{"error": …}` on standard output
  /// for a command given `--json` (so that each prints one line there).
  func fail(_ message: String) {
    hadError = true
    if wantsJSON {
      writeJSON(.object([JSONMember("error", .string(message))]))
    } else {
      output.writeLine("error: \(message)", to: .standardError)
    }
  }

  /// Prints a response: its JSON form with `--json`, else its text.
  func show(_ response: any ReplayResponse) {
    if response.crash != nil { metCrash = true }
    if wantsJSON {
      writeJSON(response.jsonValue)
      return
    }
    // Help names command lines of the binary (`As 'replay verify LOG'`): said in its voice.
    let isHelp = response is HelpResponse
    for line in service.textLines(of: response) {
      output.writeLine(isHelp ? output.voice.speaking(line.text) : line.text, to: line.channel)
    }
  }

  /// Prints a result as one line of JSON.
  private func writeJSON(_ value: JSONValue) {
    output.writeLine(value.jsonText)
  }

  static func oneLine(_ diagnostic: Diagnostic) -> String {
    var text = inert(diagnostic.message)
    if let location = diagnostic.location { text = "\(location): \(text)" }
    if let hint = diagnostic.hints.first {
      text += " (\(inert(hint.text))\(hint.comment.map { ": \(inert($0))" } ?? ""))"
    }
    return text
  }

  /// A path error in a session's words, with a suggestion when a key is close.
  static func pathMessage(_ error: StatePathError) -> String {
    inert(error.messageWithSuggestion)
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}

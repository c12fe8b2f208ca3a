import RewindJSON
import RewindReplay
import RewindReplayService

/// An interactive replay session: gdb-style commands over a ``Debugger`` (the cursor,
/// watchpoints, breakpoints and skips), whose typed results it renders as text. Reads nothing and
/// prints only through its ``TextOutput``.
final class ReplaySession {
  let opened: OpenedLog
  let output: any TextOutput
  /// The cursor, watchpoints, breakpoints and skips.
  let debugger: Debugger
  /// The cursor's position.
  var position: Int { debugger.position }
  private var lastCommand: String?
  /// Whether any command failed (for the exit code of `-c` runs).
  private(set) var hadError = false
  /// Whether a command met an action that crashes the app's reducer (exit status 3 for `-c`
  /// runs and scripts).
  private(set) var metCrash = false
  /// Whether the note that the cut-off log's last action replays without a crash was shown.
  private var toldCleanLastAction = false
  /// Whether the command being run was given `--json`, or the session runs in ``jsonMode``: its
  /// result (or error) is printed as one line of JSON, the debugger's encoding of it.
  private(set) var wantsJSON = false
  /// Whether every command prints JSON (`replay LOG --json`): one line each, its result or
  /// `{"error": …}`, for scripts and tools that drive a session.
  let jsonMode: Bool

  init(opened: OpenedLog, output: any TextOutput, jsonMode: Bool = false) {
    self.opened = opened
    self.output = output
    self.jsonMode = jsonMode
    debugger = Debugger(log: opened.log, timeline: opened.timeline)
  }

  var log: ReplayLog { opened.log }

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
    if let recordedBy = BuildComparison.recordedBy(log) {
      output.writeLine(
        "recorded by \(inert(recordedBy))"
          + (log.migration.map { "; migrated by this replay (schema \($0.description))" } ?? ""))
    }
    if log.isCutOff {
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
          + " (replay \(inert(log.path)) info)")
    }
    let what =
      !atStart
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
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let word = words.first else { return true }
    wantsJSON = jsonMode || (words.count > 1 && words.last == "--json")
    guard let command = SessionCommandTable.lookup(word) else {
      lastCommand = nil
      let names = SessionCommandTable.all.map(\.name)
      let suggestion = closestMatch(to: word, in: names).map { " Did you mean '\($0)'?" } ?? ""
      fail("unknown command '\(inert(word))'.\(suggestion) Type 'help' for the list.")
      return true
    }
    lastCommand = command.repeats ? line : nil
    var arguments = Array(words.dropFirst())
    // Only as the last word: a path or a search text may hold `--json` itself.
    if arguments.last == "--json" {
      arguments.removeLast()
      wantsJSON = command.hasJSON
    }
    do throws(SessionFailure) {
      switch command.name {
      case "quit": return false
      case "help": help(arguments)
      case "next": try step(by: try count(arguments, default: 1))
      case "back": try step(by: -(try count(arguments, default: 1)))
      case "goto": try goto(arguments)
      case "print": try printState(arguments)
      case "action": try showAction()
      case "list": try list(try count(arguments, default: 10))
      case "info": showInfo()
      case "find": try find(arguments)
      case "diff": try diff(arguments)
      case "watch": try watch(arguments)
      case "break": try addBreak(arguments)
      case "watches": listBreakpoints()
      case "delete": try deleteBreakpoint(arguments)
      case "continue": try continueRun(.forward)
      case "reverse-continue": try continueRun(.backward)
      case "skip": try setSkip(arguments, true)
      case "unskip": try setSkip(arguments, false)
      default: fail("'\(command.name)' is not available in this session")
      }
    } catch {
      fail(error.message)
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

  // MARK: Moving

  private func count(_ arguments: [String], default value: Int) throws(SessionFailure) -> Int {
    guard let first = arguments.first else { return value }
    guard arguments.count == 1, let n = Int(first), n >= 0 else {
      throw SessionFailure(
        "expected a number of steps, not '\(inert(arguments.joined(separator: " ")))'")
    }
    return n
  }

  private func step(by delta: Int) throws(SessionFailure) {
    show(try perform { () throws(DebuggerError) in try debugger.step(by: delta) })
  }

  private func goto(_ arguments: [String]) throws(SessionFailure) {
    guard arguments.count == 1 else { throw SessionFailure("usage: goto N|first|last") }
    let target = try perform { () throws(DebuggerError) in
      try Debugger.position(arguments[0], in: log)
    }
    try move(to: target)
  }

  /// Moves the cursor, rebuilding the state there, and shows the action that led to it — or,
  /// when an action on the way crashes the app's reducer, the crash report and the last good
  /// position before it.
  func move(to target: Int) throws(SessionFailure) {
    show(try perform { () throws(DebuggerError) in try debugger.move(to: target) })
  }

  /// Runs a debugger operation; its error becomes the session's one-line failure.
  func perform<Result>(_ body: () throws(DebuggerError) -> Result) throws(SessionFailure)
    -> Result
  {
    do { return try body() } catch { throw SessionFailure(error, opened: opened) }
  }

  /// Prints a result as one line of JSON (`--json`); `crashed` when the app's reducer crashed on
  /// the way, as it counts for the exit status.
  func writeJSON(_ value: JSONValue, crashed: Bool = false) {
    if crashed { metCrash = true }
    output.writeLine(value.jsonText)
  }

  /// Shows where a move ended.
  func show(_ motion: Debugger.Motion) {
    if wantsJSON {
      writeJSON(debugger.jsonValue(motion), crashed: motion.crash != nil)
      return
    }
    switch motion {
    case .moved(let target):
      showPositionLine()
      if log.isCutOff, target == log.lastSeq, log.actionCount > 0,
        let timeline = opened.timeline, !timeline.skippedSeqs.contains(target),
        LastActionCheck.logEndsWhereTheAppStopped(log), !toldCleanLastAction
      {
        toldCleanLastAction = true
        output.writeLine(
          "note: action \(target), the last one recorded, replays without a crash: the app "
            + "stopped somewhere else (in a view, an effect, or killed by the system)")
      }
    case .crashed(let report, let lastGood):
      showCrash(report, landedAt: lastGood)
    }
  }

  /// Shows a crash met on the way and the last good position the cursor landed on.
  func showCrash(_ report: CrashReport, landedAt lastGood: Int) {
    metCrash = true
    for line in report.lines() { output.writeLine(line) }
    output.writeLine(
      "stopped at position \(lastGood), the last state before the crash (print, diff and back "
        + "work from here)")
    showPositionLine()
  }

  private func showPositionLine() {
    if position == log.positions.lowerBound {
      output.writeLine("at position \(position): the initial state")
      return
    }
    guard let action = try? log.action(at: position) else {
      output.writeLine("at position \(position)")
      return
    }
    let skipped = opened.timeline?.skippedSeqs.contains(position) == true ? "  (skipped)" : ""
    output.writeLine(ActionFormatter.line(action, marker: ">") + skipped)
  }
}

/// A session command's failure: one line of text.
struct SessionFailure: Error {
  var message: String
  init(_ message: String) { self.message = message }
  /// A debugger's error, in the session's words: the core's message (``DebuggerError/message``),
  /// made inert; a missing app said with the apps this binary knows, a replay error with its
  /// hint.
  init(_ error: DebuggerError, opened: OpenedLog) {
    switch error {
    case .noReducer: self.init(ReplaySession.oneLine(opened.missingAppDiagnostic))
    case .replay(let error): self.init(error)
    default: self.init(inert(error.message))
    }
  }
  init(_ error: ReplayError) {
    var text = inert(error.message)
    if let location = error.location { text = "\(inert(location)): \(text)" }
    if let hint = error.hint { text += " (\(inert(hint)))" }
    message = text
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

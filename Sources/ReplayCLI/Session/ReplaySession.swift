import RewindJSON
import RewindReplay

/// An interactive replay session: a cursor over the positions of a log, moved and inspected by
/// gdb-style commands. Reads nothing and prints only through its ``TextOutput``.
final class ReplaySession {
  let opened: OpenedLog
  let output: any TextOutput
  private(set) var position: Int
  private var lastCommand: String?
  /// Whether any command failed (for the exit code of `-c` runs).
  private(set) var hadError = false
  /// Whether a command met an action that crashes the app's reducer (exit status 3 for `-c`
  /// runs and scripts).
  private(set) var metCrash = false
  /// Whether the note that the cut-off log's last action replays without a crash was shown.
  private var toldCleanLastAction = false
  /// Watchpoints and breakpoints, in the order set, with their ids.
  var breakpoints: [(id: Int, breakpoint: Breakpoint)] = []
  var nextBreakpointID = 1

  init(opened: OpenedLog, output: any TextOutput) {
    self.opened = opened
    self.output = output
    self.position = opened.log.positions.lowerBound
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
    output.writeLine("at position \(position) (initial state). Type 'help' for commands.")
  }

  /// Runs one command line. Returns `false` when the session should end.
  @discardableResult
  func execute(_ rawLine: String) -> Bool {
    var line = rawLine.trimmingWhitespace()
    if line.isEmpty {
      guard let lastCommand else { return true }
      line = lastCommand
    } else {
      lastCommand = line
    }
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let word = words.first else { return true }
    guard let command = SessionCommandTable.lookup(word) else {
      let names = SessionCommandTable.all.map(\.name)
      let suggestion = closestMatch(to: word, in: names).map { " Did you mean '\($0)'?" } ?? ""
      fail("unknown command '\(inert(word))'.\(suggestion) Type 'help' for the list.")
      return true
    }
    let arguments = Array(words.dropFirst())
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

  func fail(_ message: String) {
    hadError = true
    output.writeLine("error: \(message)", to: .standardError)
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
    let range = log.positions
    if delta > 0 && position == range.upperBound {
      throw SessionFailure(
        "already at the last position (\(range.upperBound)); 'back' steps backward")
    }
    if delta < 0 && position == range.lowerBound {
      throw SessionFailure(
        "already at the first position (\(range.lowerBound)); 'next' steps forward")
    }
    // Clamped without overflow: `next 9223372036854775807` goes to the last position.
    let target =
      delta >= 0
      ? (delta >= range.upperBound - position ? range.upperBound : position + delta)
      : (-delta >= position - range.lowerBound ? range.lowerBound : position + delta)
    try move(to: target)
  }

  private func goto(_ arguments: [String]) throws(SessionFailure) {
    guard arguments.count == 1 else { throw SessionFailure("usage: goto N|first|last") }
    let range = log.positions
    let target: Int
    switch arguments[0] {
    case "first", "start": target = range.lowerBound
    case "last", "end": target = range.upperBound
    default:
      guard let n = Int(arguments[0]) else {
        throw SessionFailure(
          "'\(inert(arguments[0]))' is not a position: use \(range.lowerBound)…\(range.upperBound), first or last"
        )
      }
      guard range.contains(n) else {
        throw SessionFailure(
          "position \(n) is out of range: valid positions are \(range.lowerBound)…\(range.upperBound)"
        )
      }
      target = n
    }
    try move(to: target)
  }

  /// Moves the cursor, rebuilding the state there, and shows the action that led to it.
  ///
  /// When an action on the way crashes the app's reducer, the cursor stops at the last good
  /// position before it and the crash report is shown instead.
  func move(to target: Int) throws(SessionFailure) {
    if let timeline = opened.timeline {
      do { try timeline.reach(target) } catch {
        try landBeforeCrash(error, target: target)
        return
      }
    }
    position = target
    showPositionLine()
    if log.isCutOff, target == log.lastSeq, log.actionCount > 0, let timeline = opened.timeline,
      !timeline.skippedSeqs.contains(target), LastActionCheck.logEndsWhereTheAppStopped(log),
      !toldCleanLastAction
    {
      toldCleanLastAction = true
      output.writeLine(
        "note: action \(target), the last one recorded, replays without a crash: the app stopped "
          + "somewhere else (in a view, an effect, or killed by the system)")
    }
  }

  /// For an error met on the way to `target`: when it is a crash of the app's reducer at an
  /// action before `target`, shows the report and moves to the last good position before the
  /// crash; any other error is thrown.
  func landBeforeCrash(_ error: ReplayError, target: Int) throws(SessionFailure) {
    guard case .reducerCrashed(let report) = error, let lastGood = report.lastGood,
      log.positions.contains(lastGood), lastGood < target, let timeline = opened.timeline
    else { throw SessionFailure(error) }
    metCrash = true
    for line in report.lines() { output.writeLine(line) }
    do { try timeline.reach(lastGood) } catch { throw SessionFailure(error) }
    position = lastGood
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

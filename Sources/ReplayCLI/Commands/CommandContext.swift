import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

/// Everything a command needs: its parsed arguments, the known apps, and where to write.
struct CommandContext {
  let arguments: ParsedArguments
  let apps: [ReplayApp]
  let output: any TextOutput
  let input: any LineInput
  let program: ProgramSpec
  let command: CommandSpec
  /// Whether the app's reducer runs in a child process unless `--no-isolate` is given.
  var isolatesByDefault = false

  /// Runs the command and returns the exit status.
  func runCommand() -> Int32 {
    do throws(CommandFailure) {
      switch command.name {
      case ReplayProgram.info.name: return try runInfo()
      case ReplayProgram.actions.name: return try runActions()
      case ReplayProgram.state.name: return try runState()
      case ReplayProgram.diff.name: return try runDiff()
      case ReplayProgram.verify.name: return try runVerify()
      case ReplayProgram.compat.name: return try runCompat()
      case ReplayProgram.shrink.name: return try runShrink()
      case ReplayProgram.genTest.name: return try runGenTest()
      case ReplayProgram.export.name: return try runExport()
      case ReplayProgram.importCommand.name: return try runImport()
      case ReplayProgram.tail.name: return try runTail()
      case ReplayProgram.tui.name: return try runTUI()
      default: return try runSession()
      }
    } catch {
      output.emit(error.diagnostic)
      return ExitStatus.trouble
    }
  }

  /// Whether the command declares the option `name` (asking for an undeclared one is a bug).
  func declares(_ name: String) -> Bool {
    command.allOptions.contains { $0.name == name }
  }

  var recovery: RecoveryMode {
    arguments.string("recovery").flatMap(RecoveryMode.init(rawValue:)) ?? .tail
  }

  var wantsJSON: Bool { arguments.flag("json") }

  /// Whether this command runs the app's reducer in a child process: `--isolate`, or the
  /// default of the `replay` binary unless `--no-isolate`.
  var isolates: Bool {
    guard declares("isolate") else { return false }
    if arguments.flag("isolate") { return true }
    return isolatesByDefault && !arguments.flag("no-isolate")
  }

  /// Where this command runs the app's reducer (``isolates``); `interactive` for a session.
  func isolation(interactive: Bool = false) -> OpenedLog.Isolation {
    isolates ? .worker(interactive: interactive) : .inProcess
  }

  /// Opens the `LOG` argument; `interactive` for a session (see ``OpenedLog``).
  ///
  /// - Parameter needsInitialState: Whether the command needs the state before the first action
  ///   (it replays from there, or writes it): a file whose initial state never came
  ///   (``ReplayLog/isInitialStateMissing``) is then refused, saying how to read it.
  func openLog(
    _ argument: String = "LOG", usesCheckpoints: Bool = true, interactive: Bool = false,
    needsInitialState: Bool = false
  ) throws(CommandFailure) -> OpenedLog {
    let path = logPath(argument)
    do throws(ReplayError) {
      let opened = try OpenedLog(
        path: path, recovery: recovery, apps: apps, usesCheckpoints: usesCheckpoints,
        isolation: isolation(interactive: interactive))
      if needsInitialState && opened.log.isInitialStateMissing {
        throw opened.log.initialStateError
      }
      if let note = opened.buildNote { output.emit(note) }
      opened.showProgress(on: output)
      return opened
    } catch {
      throw .replay(error)
    }
  }

  /// The file a log argument names: itself, or for a recordings folder its newest session (with
  /// a note on stderr saying so).
  func logPath(_ argument: String) -> String {
    let (path, note) = RecordingsFolderArgument.resolve(arguments.positional(argument) ?? "")
    if let note { output.emit(note) }
    return path
  }

  /// Opens the `A` and `B` arguments, one after the other (opening a large log already keeps
  /// both cores busy: one reads it while the other indexes it); fails with `A`'s error first.
  func openLogPair() throws(CommandFailure) -> (a: OpenedLog, b: OpenedLog) {
    var logs: [ReplayLog] = []
    for name in ["A", "B"] {
      do throws(ReplayError) {
        let log = try ReplayLog(path: logPath(name), recovery: recovery)
        // The initial states are compared.
        if log.isInitialStateMissing { throw log.initialStateError }
        logs.append(log)
      } catch {
        throw .replay(error)
      }
    }
    let pair = (logs[0], logs[1])
    let a = OpenedLog(log: pair.0, apps: apps, isolation: isolation())
    let b = OpenedLog(log: pair.1, apps: apps, isolation: isolation())
    for opened in [a, b] {
      if let note = opened.buildNote { output.emit(note) }
      opened.showProgress(on: output)
    }
    return (a, b)
  }

  /// Reports the faults that the recovery mode let past, as warnings on stderr.
  func reportFaults(_ log: ReplayLog) {
    for fault in log.faults {
      var warning = fault.warning
      switch log.recovery {
      case .tail:
        warning.notes = ["the last line was dropped: the app was cut off while writing it"]
      case .prefix: warning.notes = ["stopped here: the lines from this one on were dropped"]
      case .salvage:
        if case .seqGap = fault.reason {
          warning.notes = ["the missing actions are skipped; later states are flagged as suspect"]
        } else {
          warning.notes = ["skipped this line; later states are flagged as suspect"]
        }
      case .strict: break
      }
      output.emit(warning)
    }
  }

  func runInfo() throws(CommandFailure) -> Int32 {
    let argument = arguments.positional("LOG") ?? ""
    if let sessions = RecordingsFolderArgument.sessions(at: argument) {
      output.writeLine(
        wantsJSON
          ? RecordingsFolderArgument.json(argument, sessions).jsonText
          : RecordingsFolderArgument.text(argument, sessions))
      return ExitStatus.success
    }
    let opened = try openLog()
    let check = LastActionCheck.run(opened)
    if wantsJSON {
      var summary = opened.log.summaryJSON(appKnown: opened.timeline != nil)
      if let check, case .object(var members) = summary {
        members.append(JSONMember("replay", check.json))
        summary = .object(members)
      }
      output.writeLine(summary.jsonText)
    } else {
      let note = opened.noTimelineReason.map { _ in
        "known to this replay binary, but recorded with other type names"
      }
      output.writeLine(
        LogSummary.text(
          opened.log, app: opened.timeline == nil ? nil : opened.log.app, appNote: note,
          lastAction: check))
    }
    return ExitStatus.success
  }

  func runActions() throws(CommandFailure) -> Int32 {
    let opened = try openLog()
    let log = opened.log
    reportFaults(log)
    let from: Int?
    let to: Int?
    do throws(UsageError) {
      from = try arguments.int("from")
      to = try arguments.int("to")
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    let type = arguments.string("type")
    guard log.actionCount > 0 else { return ExitStatus.success }
    let first = max(from ?? log.firstSeq, log.firstSeq)
    let last = min(to ?? log.lastSeq, log.lastSeq)
    guard first <= last else {
      // The range as asked (one end may be open): the log's range is not to blame.
      let asked = "\(from.map(String.init) ?? "")…\(to.map(String.init) ?? "")"
      if let from, let to, from > to {
        output.emit(Diagnostic.warning("--from \(from) is after --to \(to): no actions to list"))
      } else {
        output.emit(
          Diagnostic.warning(
            "no actions in seq \(asked): the log's actions are \(log.firstSeq)…\(log.lastSeq)"))
      }
      return ExitStatus.success
    }
    let width = String(last).count
    var matched = 0
    for seq in first...last {
      let action: RecordedAction
      do { action = try log.action(at: seq) } catch { throw .replay(error) }
      if let type, action.type != type { continue }
      matched += 1
      if wantsJSON {
        output.writeLine(action.jsonValue.jsonText)
      } else {
        output.writeLine(ActionFormatter.line(action, seqWidth: width))
      }
    }
    if let type, matched == 0 {
      var types: Set<String> = []
      for seq in first...last { if let name = try? log.actionType(at: seq) { types.insert(name) } }
      let suggestion =
        closestMatch(to: type, in: types.sorted()).map { "; did you mean '\($0)'?" } ?? ""
      output.emit(
        Diagnostic.warning(
          "no action of type '\(inert(type))' in seq \(first)…\(last)\(suggestion)"))
    }
    return ExitStatus.success
  }

  func runState() throws(CommandFailure) -> Int32 {
    let opened = try openLog()
    reportFaults(opened.log)
    let target = try parsePosition(arguments.string("at") ?? "last", in: opened.log)
    // A position request, then the state there: the cursor lands on the last good position
    // when the app's reducer crashes on the way, as a session's goto does.
    let service = ReplayService(opened: opened)
    let moved: MotionResponse
    do { moved = try service.perform(MoveRequest(.position(target))) } catch {
      throw opened.commandFailure(error)
    }
    let position = service.position
    let crash = moved.crash
    let path = arguments.string("path")
    // The state is read as the encoder writes it and never held as a tree: written as it is
    // (`--json`), or indented (text); a path is looked up in that text, and the text of the value
    // it leads to printed the same way.
    let text = try opened.commandStateText(at: position)
    var shown = text[...]
    if let path {
      // The value's own text, printed as a whole state is.
      do throws(StatePathError) {
        shown = try JSONPath.parse(path).text(inText: text)
      } catch {
        throw .diagnostic(Diagnostic.error(ReplaySession.pathMessage(error)))
      }
    }
    if wantsJSON {
      // Written from the encoder's bytes: no `String` copy of a state that may be large.
      shown.withUnsafeBytes { output.write(bytes: $0, to: .standardOutput) }
      output.write("\n", to: .standardOutput)
    } else {
      // Printable ASCII is inert as it is, and so is its indented form (the indenter adds line
      // feeds and spaces): written as it is indented, a piece at a time.
      if shown.allSatisfy({ (0x20..<0x7F).contains($0) }) {
        shown.withUnsafeBytes { compact in
          JSONIndenter.indent(compact) { output.write(bytes: $0, to: .standardOutput) }
        }
        output.write("\n", to: .standardOutput)
      } else {
        let indented = shown.withUnsafeBytes { JSONIndenter.indented($0) }
        shown = []
        output.writeLine(inert(String(decoding: indented, as: UTF8.self), keepingNewlines: true))
      }
    }
    guard let crash else { return ExitStatus.success }
    if wantsJSON {
      // The landing as a session's `goto --json` prints it: one JSON form of a crash met.
      output.writeLine(moved.jsonValue.jsonText, to: .standardError)
    } else {
      for line in crash.lines() { output.writeLine(line, to: .standardError) }
      output.writeLine(
        "the state printed is at position \(position), the last one before the crash",
        to: .standardError)
    }
    return ExitStatus.reducerCrashed
  }

  func parsePosition(_ text: String, in log: ReplayLog) throws(CommandFailure) -> Int {
    do { return try Debugger.position(text, in: log) } catch {
      if case .positionOutOfRange(let n, let valid) = error {
        throw .replay(.positionOutOfRange(n, valid: valid))
      }
      throw .diagnostic(Diagnostic.error(inert(error.message)))
    }
  }

  func runSession() throws(CommandFailure) -> Int32 {
    let opened = try openLog(interactive: true)
    let jsonMode = arguments.flag("json")
    let session = ReplaySession(opened: opened, output: output, jsonMode: jsonMode)
    // A `-c` value of several lines (a script in one argument) is one command per line that is
    // not empty (any line ending).
    let scripted = arguments.strings("command").flatMap { value -> [String] in
      guard value.contains(where: \.isNewline) else { return [value] }
      return value.split(whereSeparator: \.isNewline).map(String.init)
    }
    if !scripted.isEmpty || jsonMode {
      // Commands from `-c`, else (with `--json`) from standard input; with `--json`, one line of
      // JSON each and nothing else on standard output.
      reportFaults(opened.log)
      var lines = scripted.makeIterator()
      // Plain lines even at a terminal: the line editor would draw its prompt on standard
      // output, which holds only the results' JSON.
      let source: any LineInput = input is TerminalLineInput ? StandardInput() : input
      while let line = scripted.isEmpty ? source.readLine() : lines.next() {
        if !jsonMode { output.writeLine("(replay) \(line)") }
        guard session.execute(line) else { break }
        output.flush()
      }
      if session.hadError { return ExitStatus.trouble }
      return session.metCrash ? ExitStatus.reducerCrashed : ExitStatus.success
    }
    session.printBanner()
    let interactive = input.isInteractive
    let editor = input as? TerminalLineInput
    editor?.attach(to: session)
    while true {
      if interactive && editor == nil { output.write(session.prompt, to: .standardOutput) }
      output.flush()
      guard let line = input.readLine() else { break }
      if !interactive { output.writeLine("\(session.prompt)\(line)") }
      guard session.execute(line) else { break }
    }
    if interactive && editor == nil { output.writeLine() }
    if interactive { return ExitStatus.success }
    if session.hadError { return ExitStatus.trouble }
    return session.metCrash ? ExitStatus.reducerCrashed : ExitStatus.success
  }
}

import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay export LOG --redux-devtools FILE`: every action and the state after it, in the
  /// format the Redux DevTools extension imports.
  func exportReduxDevTools(_ opened: OpenedLog, to file: String) throws(CommandFailure) {
    let log = opened.log
    guard let timeline = opened.timeline else { throw .diagnostic(opened.missingAppDiagnostic) }
    let started = Self.epochMilliseconds(log.header.recordedAt) ?? 0
    let last = try lastExportedSeq(opened, timeline: timeline)
    // The actions first (DevTools' document lists them before the states), then each state's
    // text written into the file as it is made: none is built as a tree, and only one is held.
    var actions: [(action: JSONValue, timestamp: Double)] = []
    var positions = [log.positions.lowerBound]
    // A replay worker starts, opens the log and rebuilds the first batch of states meanwhile.
    (timeline as? IsolatedTimeline)?.askAhead(
      statesFrom: log.positions.lowerBound, through: last, maxBytes: StateTextWalk.batchBytes)
    do {
      if last >= log.firstSeq {
        for seq in log.firstSeq...last {
          let action = try log.action(at: seq)
          guard let payload = action.payload else { continue }
          actions.append((payload, started + (action.time ?? 0) * 1000))
          positions.append(seq)
        }
      }
    } catch {
      throw .replay(error)
    }
    // The states a batch at a time from the debugger's core (one round trip to the worker each).
    var walk = StateTextWalk(log: log, timeline: timeline, through: last)
    try OutputFile.stream(
      to: file, inputs: [log.path], replacesLogs: arguments.flag("overwrite")
    ) { writer throws(CommandFailure) in
      try ReduxDevTools.export(
        actions: actions, startedAt: started,
        state: { index throws(CommandFailure) in
          do throws(DebuggerError) {
            return try walk.text(at: positions[index])
          } catch {
            throw opened.commandFailure(error)
          }
        },
        write: { bytes throws(CommandFailure) in try writer.write(bytes) })
    }
    output.writeLine(
      "wrote \(inert(file)): \(actions.count) actions and their states as a Redux DevTools lifted "
        + "state (DevTools recomputes the states with the connected app's reducer: docs/interop.md)"
    )
  }

  /// The last action whose state an export holds: a cut-off log's last action (the one the app
  /// stopped in) only when its replay, in the worker, does not crash the reducer, as the HTML
  /// page has it; without isolation it is left out, since its reducer may trap again in this
  /// process. Warns when it is left out.
  private func lastExportedSeq(
    _ opened: OpenedLog, timeline: any ReplayTimeline
  ) throws(CommandFailure) -> Int {
    let log = opened.log
    guard log.isCutOff && log.actionCount > 0 else { return log.lastSeq }
    guard let isolated = timeline as? IsolatedTimeline else {
      output.emit(
        Diagnostic.warning(
          "action \(log.lastSeq) is left out: the app stopped while running it, so its state is "
            + "not computed without crash isolation (drop --no-isolate to replay it in a "
            + "separate process)"))
      return log.lastSeq - 1
    }
    do {
      try isolated.reach(log.lastSeq)
      return log.lastSeq
    } catch {
      guard case .reducerCrashed(let report) = error, report.seq == log.lastSeq else {
        throw .replay(error)
      }
      output.emit(
        Diagnostic.warning(
          "action \(log.lastSeq) is left out: \(report.headline), so it has no state after it"))
      return log.lastSeq - 1
    }
  }

  /// `replay import FILE --app NAME -o LOG [--initial-state FILE] [--lenient]`.
  func runImport() throws(CommandFailure) -> Int32 {
    let path = arguments.positional("FILE") ?? ""
    guard let appName = arguments.string("app"), let out = arguments.string("output") else {
      throw .diagnostic(Diagnostic.error("import needs --app NAME and -o LOG"))
    }
    guard let app = apps.first(where: { $0.name == appName }) else {
      let names = apps.map(\.name).joined(separator: ", ")
      throw .diagnostic(
        Diagnostic.error(
          "this replay binary does not know the app \"\(inert(appName))\" (it knows \(names))",
          hints: [
            Diagnostic.Hint("build a replay binary for your app", comment: "docs/embedding.md")
          ]))
    }
    let inputs = [path] + (arguments.string("initial-state").map { [$0] } ?? [])
    try OutputFile.check(out, inputs: inputs, replacesLogs: arguments.flag("overwrite"))
    let session = try readDevToolsFile(path, lenient: arguments.flag("lenient"))
    for warning in session.warnings {
      output.emit(Diagnostic.warning(warning, at: Diagnostic.Location(file: path)))
    }
    for (position, message) in session.reducerErrors {
      output.emit(
        Diagnostic.warning(
          "DevTools recorded an error of the JavaScript reducer at action \(position): "
            + inert(message),
          at: Diagnostic.Location(file: path),
          notes: [
            "its computed state is the one before; 'replay verify' will say if this app's "
              + "reducer computes another"
          ]))
    }
    let (initialState, initialSource) = try importInitialState(session, app: app, file: path)
    // Times: the `@@INIT` action's, to the whole second, is the log's start; each action's time
    // is its offset from it, so a round trip through DevTools keeps both.
    let startedAt = session.startedAt ?? session.actions.first?.timestamp
    let startSecond = startedAt.map { ($0 / 1000).rounded(.down) }
    var header = LogComposer.Header(
      app: app.name, actionType: app.actionType, stateType: app.stateType, state: initialState)
    if let startSecond {
      header.recordedAt = LogComposer.timestamp(Date(timeIntervalSince1970: startSecond))
    }
    var composer = LogComposer(header: header, checkpointInterval: 100)
    for (n, entry) in session.actions.enumerated() {
      var time: Double?
      if let timestamp = entry.timestamp, let startSecond {
        time = (timestamp - startSecond * 1000) / 1000
      }
      composer.appendAction(entry.action, time: time)
      if let state = entry.state, (n + 1) % 100 == 0 || n == session.actions.count - 1 {
        composer.appendCheckpoint(state)
      }
    }
    let actionCount = composer.actionCount
    try writeChecked(
      (consume composer).finished(), to: out, app: app, file: path, inputs: inputs,
      replacesLogs: arguments.flag("overwrite"))
    var line = "wrote \(inert(out)): \(actionCount) actions of app \(app.name)"
    switch session.shape {
    case .liftedState:
      line += " from a Redux DevTools lifted state"
      if session.skippedCount > 0 {
        line += " (\(session.skippedCount) action(s) toggled off in DevTools left out)"
      }
    case .actions:
      line += " from a Redux DevTools actions export"
    }
    output.writeLine(line)
    output.writeLine("initial state: \(initialSource)")
    output.writeLine(
      startSecond == nil
        ? "times: none (this shape has no timestamps)"
        : "times: from DevTools' timestamps, recordedAt \(header.recordedAt)")
    if session.actions.isEmpty {
      output.writeLine(
        "warning: \(inert(path)): the file holds no actions of the app"
          + (session.skippedCount > 0 ? " that were not toggled off" : "")
          + " (Redux's own @@INIT is never imported): the log holds the initial state only",
        to: .standardError)
    } else if session.shape == .actions {
      output.writeLine(
        "states: none in this shape, so 'replay verify \(inert(out))' can check only that every "
          + "action decodes")
    } else {
      output.writeLine(
        "check that this app's reducer reproduces the recorded states: replay verify \(inert(out))")
    }
    return ExitStatus.success
  }

  /// Reads and converts a DevTools file, with positioned errors.
  private func readDevToolsFile(_ path: String, lenient: Bool) throws(CommandFailure)
    -> ReduxDevTools.Session
  {
    if case .success(let file) = Platform.openForReading(path) {
      Platform.close(file.fd)
      guard file.isRegular else { throw .replay(.notARegularFile(path: path, kind: file.kind)) }
    }
    var bytes = Data()
    do {
      bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      return try ReduxDevTools.import(
        JSONParser.parse(bytes, limits: ReaderLimits.default.json), lenient: lenient)
    } catch let error as InteropError {
      throw .diagnostic(Diagnostic.error(error.description, at: Diagnostic.Location(file: path)))
    } catch let error as JSONParseError {
      // DevTools exports are often pretty-printed: the line of the byte, and where it starts.
      let before = bytes.prefix(error.offset)
      let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
      let line = before.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
      throw .diagnostic(
        Diagnostic.error(
          error.description,
          at: Diagnostic.Location(file: path, line: line, byteOffset: lineStart - bytes.startIndex))
      )
    } catch {
      throw .diagnostic(
        Diagnostic.error(
          "cannot read the file: \(error.localizedDescription)", at: Diagnostic.Location(file: path)
        ))
    }
  }

  /// The state the imported log starts from, and where it came from: `--initial-state`, the
  /// file, or the app's registered default.
  private func importInitialState(
    _ session: ReduxDevTools.Session, app: ReplayApp, file: String
  ) throws(CommandFailure) -> (JSONValue, String) {
    if let statePath = arguments.string("initial-state") {
      do {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: statePath))
        return (
          try JSONParser.parse(bytes, limits: ReaderLimits.default.json),
          "from --initial-state \(inert(statePath))"
            + (session.initialState != nil ? " (instead of the file's)" : "")
        )
      } catch let error as JSONParseError {
        throw .diagnostic(
          Diagnostic.error(error.description, at: Diagnostic.Location(file: statePath)))
      } catch {
        throw .diagnostic(
          Diagnostic.error(
            "cannot read the initial state: \(error.localizedDescription)",
            at: Diagnostic.Location(file: statePath)))
      }
    }
    if let state = session.initialState {
      return (
        state,
        session.shape == .actions ? "the file's preloadedState" : "the file's first computed state"
      )
    }
    if let state = app.defaultState {
      return (state, "the app's default (\(app.stateType) as registered): the file has none")
    }
    throw .diagnostic(
      Diagnostic.error(
        "the file has no initial state (no preloadedState) and the app \"\(app.name)\" registers "
          + "no default", at: Diagnostic.Location(file: file),
        hints: [
          Diagnostic.Hint(
            "replay import \(inert(file)) --app \(app.name) --initial-state STATE.json -o LOG",
            comment: "the state the app started from, as JSON")
        ]))
  }

  /// Writes an imported log to `out` only if its actions and states decode with `app`'s types:
  /// a file of another app's actions (a wrong `--app`) is refused, and nothing is written. The
  /// log is written beside `out` first and renamed into place once checked.
  private func writeChecked(
    _ bytes: [UInt8], to out: String, app: ReplayApp, file: String, inputs: [String],
    replacesLogs: Bool
  ) throws(CommandFailure) {
    try OutputFile.check(out, inputs: inputs, replacesLogs: replacesLogs)
    let folder = URL(fileURLWithPath: out).deletingLastPathComponent().path
    let draft = folder + "/.replay-import-\(UUID().uuidString).jsonl"
    try OutputFile.write(bytes, to: draft, inputs: inputs, replacesLogs: false)
    let report: CompatibilityReport
    do {
      report = app.compatibility(of: try ReplayLog(path: draft))
    } catch {
      Platform.removeFile(draft)
      throw .replay(error)
    }
    guard report.isCompatible else {
      Platform.removeFile(draft)
      var notes: [String] = []
      if let first = report.failingTypes.first {
        let path = first.codingPath.isEmpty ? "" : "\(first.codingPath): "
        notes.append(
          "the first is the file's action \(first.firstSeq) (type \"\(first.type)\"): "
            + "\(path)\(first.reason)")
      } else if let state = report.failingStates.first {
        notes.append("the \(state.what) does not decode: \(state.codingPath) \(state.reason)")
      }
      let names = apps.map(\.name).joined(separator: ", ")
      throw .diagnostic(
        .error(
          "\(inert(file)) does not hold app \"\(app.name)\"'s actions: \(report.failingActions) "
            + "of \(report.actionsChecked) do not decode as \(app.actionType)"
            + (report.failingStates.isEmpty ? "" : ", nor its states as \(app.stateType)")
            + "; nothing was written",
          notes: notes,
          hints: [
            Diagnostic.Hint(
              "replay import \(inert(file)) --app NAME -o \(inert(out))",
              comment: "the app whose actions these are (this binary knows \(names))")
          ]))
    }
    guard Platform.rename(draft, to: out) == 0 else {
      Platform.removeFile(draft)
      throw .diagnostic(
        .error(
          "cannot write \(inert(out)): renaming the checked log into place failed",
          hints: [Diagnostic.Hint("check that the folder is writable")]))
    }
  }

  static func epochMilliseconds(_ iso: String) -> Double? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: iso).map { $0.timeIntervalSince1970 * 1000 }
  }
}

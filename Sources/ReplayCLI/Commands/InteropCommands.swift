import Foundation
import Rewind
import RewindJSON
import RewindReplay

extension CommandContext {
  /// `replay export LOG --redux-devtools FILE`: every action and the state after it, in the
  /// format the Redux DevTools extension imports.
  func exportReduxDevTools(_ opened: OpenedLog, to file: String) throws(CommandFailure) {
    let log = opened.log
    guard let timeline = opened.timeline else { throw .diagnostic(opened.missingAppDiagnostic) }
    let started = Self.epochMilliseconds(log.header.recordedAt) ?? 0
    var actions: [(action: JSONValue, state: JSONValue, timestamp: Double)] = []
    var last = log.lastSeq
    if log.isCutOff && log.actionCount > 0 {
      last -= 1
      output.emit(
        Diagnostic.warning(
          "action \(log.lastSeq) is left out: the app stopped while running it, so its state "
            + "cannot be computed"))
    }
    do {
      if last >= log.firstSeq {
        for seq in log.firstSeq...last {
          let action = try log.action(at: seq)
          guard let payload = action.payload else { continue }
          actions.append(
            (payload, try timeline.stateJSON(at: seq), started + (action.time ?? 0) * 1000))
        }
      }
      let document = ReduxDevTools.export(
        initialState: try timeline.stateJSON(at: log.positions.lowerBound), actions: actions,
        startedAt: started)
      try write(document.serializedBytes, to: file)
    } catch {
      throw .replay(error)
    }
    output.writeLine("wrote \(inert(file)): \(actions.count) actions for Redux DevTools (Import)")
  }

  /// `replay import FILE --app NAME -o LOG`.
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
    if case .success(let file) = Platform.openForReading(path) {
      Platform.close(file.fd)
      guard file.isRegular else { throw .replay(.notARegularFile(path: path, kind: file.kind)) }
    }
    let session: ReduxDevTools.Session
    do {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      session = try ReduxDevTools.import(JSONParser.parse(bytes, limits: ReaderLimits.default.json))
    } catch let error as InteropError {
      throw .diagnostic(Diagnostic.error(error.description, at: Diagnostic.Location(file: path)))
    } catch let error as JSONParseError {
      throw .diagnostic(Diagnostic.error(error.description, at: Diagnostic.Location(file: path)))
    } catch {
      throw .diagnostic(
        Diagnostic.error(
          "cannot read the file: \(error.localizedDescription)", at: Diagnostic.Location(file: path)
        ))
    }
    var composer = LogComposer(
      header: LogComposer.Header(
        app: app.name, actionType: app.actionType, stateType: app.stateType,
        state: session.initialState),
      checkpointInterval: 100)
    let started = session.actions.first?.timestamp ?? 0
    for (n, entry) in session.actions.enumerated() {
      composer.appendAction(entry.action, time: entry.timestamp.map { ($0 - started) / 1000 })
      if let state = entry.state, (n + 1) % 100 == 0 || n == session.actions.count - 1 {
        composer.appendCheckpoint(state)
      }
    }
    do {
      try write(composer.finished(), to: out)
    } catch {
      throw .replay(error)
    }
    var line = "wrote \(inert(out)): \(composer.actionCount) actions of app \(app.name)"
    if session.skippedCount > 0 {
      line += " (\(session.skippedCount) action(s) toggled off in DevTools left out)"
    }
    output.writeLine(line)
    output.writeLine(
      "check that this app's reducer reproduces the recorded states: replay verify \(inert(out))")
    return ExitStatus.success
  }

  private func write(_ bytes: [UInt8], to file: String) throws(ReplayError) {
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: file))
    } catch {
      throw .cannotOpen(path: file, reason: "cannot write it: \(error.localizedDescription)")
    }
  }

  static func epochMilliseconds(_ iso: String) -> Double? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: iso).map { $0.timeIntervalSince1970 * 1000 }
  }
}

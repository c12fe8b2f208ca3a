import RewindJSON
import RewindReplay

/// A log opened for a command: the log, and its timeline when this binary knows the log's app.
final class OpenedLog {
  let log: ReplayLog
  /// The timeline every command replays with: in a child process unless isolation is off.
  let timeline: (any AnyTimeline)?
  /// The timeline in this process, for what only the app's own types can do (Swift literals for
  /// `gen-test`), used after ``timeline`` has shown that the states asked for do not trap.
  let localTimeline: (any AnyTimeline)?
  /// Why there is no timeline (an unknown app, or a type-name mismatch), for messages.
  let noTimelineReason: ReplayError?
  let knownApps: [ReplayApp]
  /// What to say up front when the log comes from another build than this binary's
  /// registration of its app (another schema, another version), or `nil`.
  let buildNote: Diagnostic?

  /// Opens `path` with `recovery` and finds its app among `apps`.
  ///
  /// - Parameters:
  ///   - interactive: Whether a session steps through it: an isolated timeline then rebuilds
  ///     states ahead of the one shown while the user looks at it.
  convenience init(
    path: String, recovery: RecoveryMode, apps: [ReplayApp], usesCheckpoints: Bool = true,
    isolated: Bool = false, interactive: Bool = false
  ) throws(ReplayError) {
    self.init(
      log: try ReplayLog(path: path, recovery: recovery), apps: apps,
      usesCheckpoints: usesCheckpoints, isolated: isolated, interactive: interactive)
  }

  /// Finds the app of `log`, opened already, among `apps`.
  init(
    log: ReplayLog, apps: [ReplayApp], usesCheckpoints: Bool = true, isolated: Bool = false,
    interactive: Bool = false
  ) {
    let path = log.path
    let recovery = log.recovery
    knownApps = apps
    let app = ReplayApp.recording(log.header, among: apps)
    buildNote = app.flatMap { BuildComparison.note(log: log, app: $0) }
    // Read through the app's migrations when the log's schema is older.
    self.log = (app.flatMap { try? $0.prepared(log) }) ?? log
    if let app {
      do {
        // The log as prepared above; when its migration failed, preparing again gives the error.
        let local = try app.timeline(for: self.log, usesCheckpoints: usesCheckpoints)
        localTimeline = local
        timeline =
          isolated
          ? IsolatedTimeline(
            local: local, recovery: recovery, usesCheckpoints: usesCheckpoints,
            runsAhead: interactive)
          : local
        noTimelineReason = nil
      } catch {
        timeline = nil
        localTimeline = nil
        noTimelineReason = error
      }
    } else {
      timeline = nil
      localTimeline = nil
      noTimelineReason = nil
    }
    StepMarker.setLog(path)
  }

  /// Shows a progress line on stderr during long rebuilds, when stderr is a terminal.
  func showProgress(on output: any TextOutput) {
    guard ProgressLine.isAvailable, let timeline else { return }
    let line = ProgressLine(output: output, label: "rebuilding states")
    timeline.progress = { done, total in line.update(done, total) }
  }

  /// The diagnostic that says why states between checkpoints cannot be rebuilt.
  var missingAppDiagnostic: Diagnostic {
    if let noTimelineReason { return noTimelineReason.diagnostic }
    let names = knownApps.map { "\"\($0.name)\"" }.joined(separator: ", ")
    let checkpoints = ([log.positions.lowerBound] + log.checkpointSeqs.prefix(8)).map(String.init)
      .joined(separator: ", ")
    return Diagnostic.error(
      "this replay binary does not know the app \"\(log.header.app)\" (it knows \(names))",
      at: Diagnostic.Location(file: log.path, line: 1),
      notes: [
        "info, actions, and states at recorded checkpoints work without the app's reducer: "
          + "positions \(checkpoints)\(log.checkpointSeqs.count > 8 ? ", …" : "")"
      ],
      hints: [
        Diagnostic.Hint(
          "build a replay binary for your app in a few lines", comment: "see docs/embedding.md")
      ])
  }

  /// The state at `position` as JSON: rebuilt with the app's reducer, or — without it — read from
  /// the header or a recorded checkpoint.
  func stateJSON(at position: Int) throws(CommandFailure) -> JSONValue {
    do {
      return try Debugger.state(of: log, timeline: timeline, at: position)
    } catch {
      throw failure(error)
    }
  }

  /// ``stateJSON(at:)`` as compact JSON text, without building a `JSONValue` tree where the
  /// state can be encoded straight to text.
  func stateText(at position: Int) throws(CommandFailure) -> [UInt8] {
    do {
      return try Debugger.stateText(of: log, timeline: timeline, at: position)
    } catch {
      throw failure(error)
    }
  }

  /// The state at `position` as a ``StateDocument``, read a level at a time (the TUI's state
  /// pane, path completion). Without the app, a header's or checkpoint's state is the text the
  /// file holds, checked when the log was read: no tree of it is built.
  func stateDocument(at position: Int) throws(CommandFailure) -> StateDocument {
    if timeline == nil, let text = recordedStateText(at: position) {
      return StateDocument(checkedText: text)
    }
    return StateDocument(checkedText: try stateText(at: position))
  }

  /// The text the file holds of the state at `position` — the header's, a checkpoint's — or
  /// `nil` where it holds none as text (or reads it through a migration).
  private func recordedStateText(at position: Int) -> [UInt8]? {
    guard log.positions.contains(position) else { return nil }
    guard position == log.positions.lowerBound else { return log.checkpointStateText(at: position) }
    guard !log.isInitialStateMissing else { return nil }
    return log.header.stateText?.withUnsafeBytes { Array($0) }
  }

  /// What a command says when the debugger could not give a state.
  private func failure(_ error: DebuggerError) -> CommandFailure {
    switch error {
    case .noReducer: return .diagnostic(missingAppDiagnostic)
    case .positionOutOfRange(let position, let valid):
      return .replay(.positionOutOfRange(position, valid: valid))
    case .replay(let error): return .replay(error)
    default: return .diagnostic(Diagnostic.error("\(error)"))
    }
  }
}

/// Why a command failed: a replay error, a usage error, or a ready-made diagnostic.
enum CommandFailure: Error {
  case replay(ReplayError)
  case diagnostic(Diagnostic)

  var diagnostic: Diagnostic {
    switch self {
    case .replay(let error): return error.diagnostic
    case .diagnostic(let diagnostic): return diagnostic
    }
  }
}

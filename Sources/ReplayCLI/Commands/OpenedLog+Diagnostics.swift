import RewindJSON
import RewindReplay
import RewindReplayService

extension OpenedLog {
  /// What to say up front when the log comes from another build than this binary's
  /// registration of its app (another schema, another version), or `nil`.
  var buildNote: Diagnostic? {
    app.flatMap { BuildComparison.note(log: recordedLog, app: $0) }
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

  /// The state at `position` as compact JSON text, or what a command says when there is none.
  func commandStateText(at position: Int) throws(CommandFailure) -> [UInt8] {
    do { return try stateText(at: position) } catch { throw commandFailure(error) }
  }

  /// What a command says when a request to the replay service failed.
  func commandFailure(_ failure: ReplayFailure) -> CommandFailure {
    guard case .debugger(let error) = failure else {
      return .diagnostic(Diagnostic.error(inert(failure.message)))
    }
    return commandFailure(error)
  }

  /// What a command says when the debugger failed.
  func commandFailure(_ error: DebuggerError) -> CommandFailure {
    switch error {
    case .noReducer: return .diagnostic(missingAppDiagnostic)
    case .positionOutOfRange(let position, let valid):
      return .replay(.positionOutOfRange(position, valid: valid))
    case .replay(let error): return .replay(error)
    default: return .diagnostic(Diagnostic.error(inert(error.message)))
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

import RewindJSON
import RewindReplay

/// A log opened for a front end: the log (read through the app's migrations when its schema is
/// older), its app, and its timeline when this binary knows the app — reduced in a worker process
/// (``IsolatedTimeline``) or in this one, as ``Isolation`` says.
///
/// Every front end opens logs here: the command line, the session and the TUI, the exports, and
/// the protocol front ends to come. What a front end says about an opened log (a note on another
/// build, why there is no reducer) is its own rendering of these facts.
package final class OpenedLog {
  /// Where the app's reducer runs.
  package enum Isolation: Sendable, Equatable {
    /// In this process: a reducer that traps ends the front end.
    case inProcess
    /// In a child `replay __worker` process: a trap becomes ``ReplayError/reducerCrashed(_:)``.
    /// `interactive` for a front end that steps through the log (a session, the TUI, an editor):
    /// the worker then rebuilds the states ahead of the one shown while the user looks at it.
    case worker(interactive: Bool)
  }

  /// The log, as read through the app's migrations when its schema is older.
  package let log: ReplayLog
  /// The log as the file holds it (before any migration): what its header says of the build
  /// that recorded it.
  package let recordedLog: ReplayLog
  /// The log's app among the known ones, when this binary registers it.
  package let app: ReplayApp?
  /// The timeline every request replays with: in a worker process unless isolation is off.
  package let timeline: (any ReplayTimeline)?
  /// The timeline in this process, for what only the app's own types can do (Swift literals for
  /// `gen-test`), used after ``timeline`` has shown that the states asked for do not trap.
  package let localTimeline: (any ReplayTimeline)?
  /// Why there is no timeline although the app is known (a type-name mismatch, a migration that
  /// fails on the header's state).
  package let noTimelineReason: ReplayError?
  /// The apps this binary knows.
  package let knownApps: [ReplayApp]
  /// Where the reducer runs.
  package let isolation: Isolation
  /// Whether the timeline starts from recorded checkpoints (`false`: from the initial state
  /// always, as `verify` needs).
  package let usesCheckpoints: Bool

  /// Opens `path` with `recovery` and finds its app among `apps`.
  package convenience init(
    path: String, recovery: RecoveryMode, apps: [ReplayApp], usesCheckpoints: Bool = true,
    isolation: Isolation = .inProcess
  ) throws(ReplayError) {
    self.init(
      log: try ReplayLog(path: path, recovery: recovery), apps: apps,
      usesCheckpoints: usesCheckpoints, isolation: isolation)
  }

  /// Finds the app of `log`, opened already, among `apps`.
  package init(
    log: ReplayLog, apps: [ReplayApp], usesCheckpoints: Bool = true,
    isolation: Isolation = .inProcess
  ) {
    let path = log.path
    let recovery = log.recovery
    knownApps = apps
    recordedLog = log
    self.isolation = isolation
    self.usesCheckpoints = usesCheckpoints
    let app = ReplayApp.recording(log.header, among: apps)
    self.app = app
    // Read through the app's migrations when the log's schema is older.
    self.log = (app.flatMap { try? $0.prepared(log) }) ?? log
    if let app {
      do {
        // The log as prepared above; when its migration failed, preparing again gives the error.
        let local = try app.timeline(for: self.log, usesCheckpoints: usesCheckpoints)
        localTimeline = local
        switch isolation {
        case .inProcess: timeline = local
        case .worker(let interactive):
          timeline = IsolatedTimeline(
            local: local, recovery: recovery, usesCheckpoints: usesCheckpoints,
            runsAhead: interactive)
        }
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

  /// The state at `position` as compact JSON text: rebuilt with the app's reducer, or — without
  /// it — read from the header or a recorded checkpoint; never built as a `JSONValue` tree where
  /// the state can be encoded straight to text.
  package func stateText(at position: Int) throws(DebuggerError) -> [UInt8] {
    try Debugger.stateText(of: log, timeline: timeline, at: position)
  }

  /// The text the file holds of the state at `position` — the header's, a checkpoint's — or
  /// `nil` where it holds none as text (or reads it through a migration).
  package func recordedStateText(at position: Int) -> [UInt8]? {
    guard log.positions.contains(position) else { return nil }
    guard position == log.positions.lowerBound else { return log.checkpointStateText(at: position) }
    guard !log.isInitialStateMissing else { return nil }
    return log.header.stateText?.withUnsafeBytes { Array($0) }
  }
}

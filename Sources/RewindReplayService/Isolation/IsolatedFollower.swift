import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// A follower whose reducer runs first in a child `replay __follow` process
/// (``FollowerWorkerMode``), then — once the child came through the action — in this one: a
/// reducer that traps on a new action kills the child, and `tail` reports the crash and goes on
/// printing actions.
package final class IsolatedFollower: StateFollower {
  private let local: any StateFollower
  private let app: ReplayApp
  private let log: String
  private var worker: WorkerProcess?

  /// Follows with `local`, checked by a child process of the app `app` (for `log`'s actions).
  package init(local: any StateFollower, app: ReplayApp, log: String) {
    self.local = local
    self.app = app
    self.log = log
  }

  package var stateJSON: JSONValue { local.stateJSON }

  package func reset(to state: JSONValue) throws(ReplayError) {
    try local.reset(to: state)
    worker = nil  // the next action starts a child from this state
  }

  package func apply(_ action: JSONValue, seq: Int, type: String?, line: Int) throws(ReplayError)
    -> JSONValue
  {
    if worker == nil { try start() }
    try exchange(.apply(action: action, seq: seq, type: type, line: line))
    // The child came through it: the same action here cannot trap.
    return try local.apply(action, seq: seq, type: type, line: line)
  }

  private func start() throws(ReplayError) {
    do {
      worker = try WorkerProcess(
        arguments: [FollowerWorkerMode.command, app.name, log, app.actionType, app.stateType],
        reportsFrames: true)
    } catch {
      throw .cannotOpen(
        path: log,
        reason: "cannot start a replay worker process (\(error)); run with --no-isolate to "
          + "follow states in this process")
    }
    try exchange(.reset(state: local.stateJSON))
  }

  /// Sends `request`; a failure the child answered is thrown as it threw it.
  private func exchange(_ request: FollowerRequest) throws(ReplayError) {
    guard let worker else { return }
    switch worker.exchange(request.line, progress: nil) {
    case .reply(let line):
      switch try WorkerReply(line: line) {
      case .failed(let error): throw error
      case .done: return
      default:
        throw .encodingFailed(
          what: "follower reply", reason: "it does not answer the \(request.name) request")
      }
    case .stuckAhead:
      // Only a session's worker rebuilds ahead, never this one; were it to, it has been ended.
      self.worker = nil
    case .died(let signal, let stderr):
      self.worker = nil
      throw .reducerCrashed(
        CrashReport(
          workerStandardError: stderr, signal: signal,
          relativeTo: FileManager.default.currentDirectoryPath))
    }
  }
}

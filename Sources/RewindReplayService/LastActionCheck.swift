import RewindJSON
import RewindReplay

/// What replaying the last action of a cut-off log through the app's reducer, in a worker
/// process, showed: `info`'s "crashed at" section.
package enum LastActionCheck: Sendable {
  /// The reducer crashed on an action: the report.
  case crashed(CrashReport)
  /// The last action replays without a crash: the app stopped somewhere else.
  case replays(seq: Int)
  /// The state could not be rebuilt for another reason (the message).
  case failed(String)

  /// Replays up to the last action of `opened`'s log in its worker, when the log is cut off, has
  /// actions, and the timeline is crash-isolated; `nil` otherwise (nothing to check, or a check
  /// that could crash this process).
  package static func run(_ opened: OpenedLog) -> LastActionCheck? {
    let log = opened.log
    guard log.isCutOff, log.actionCount > 0, logEndsWhereTheAppStopped(log),
      let timeline = opened.timeline as? IsolatedTimeline
    else { return nil }
    do {
      // Rebuilt, not sent back: however large the state, no tree of it is built here (where no
      // reducer runs, the state is decoded here, from its checkpoint).
      try timeline.reach(log.lastSeq)
      return .replays(seq: log.lastSeq)
    } catch {
      if case .reducerCrashed(let report) = error { return .crashed(report) }
      return .failed(error.message)
    }
  }

  /// Whether the log's last action is the last one the app recorded: no recovery mode stopped
  /// reading early or skipped lines (a torn last line, dropped by `--recovery tail`, is the app's
  /// own end).
  package static func logEndsWhereTheAppStopped(_ log: ReplayLog) -> Bool {
    log.faults.isEmpty || log.recovery == .tail
  }

  /// `info --json`'s `replay` member: `{"crash": report}`, `{"crash": null}` when the last
  /// action replays, `{"error": message}` otherwise.
  package var json: JSONValue {
    switch self {
    case .crashed(let report): return .object([JSONMember("crash", report.json)])
    case .replays: return .object([JSONMember("crash", .null)])
    case .failed(let message): return .object([JSONMember("error", .string(message))])
    }
  }
}

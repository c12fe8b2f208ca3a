import RewindJSON
import RewindReplay

/// Runs forward (`continue`) or backward (`reverse-continue`) to where a watchpoint or
/// breakpoint triggers, else to the end or start of the log. Answered with a ``StopResponse``.
package struct ContinueRequest: ReplayRequest, Equatable {
  /// Which way.
  package var direction: TimelineSearch.Direction

  /// A run `direction` from the cursor.
  package init(_ direction: TimelineSearch.Direction) { self.direction = direction }

  package func run(on service: ReplayService) throws(ReplayFailure) -> StopResponse {
    let from = service.position
    let stop = try service.debug { () throws(DebuggerError) in
      try service.debugger.continueRun(direction)
    }
    var note = false
    switch stop {
    case .breakpoints(let position, _), .boundary(let position, _):
      // The note on a cut-off log's last action, as a move there gives it.
      if position != from || stop.isBreakpoint {
        note = service.response(to: .moved(to: position)).lastActionReplaysCleanly
      }
    case .crashed: break
    }
    return StopResponse(
      stop: stop, from: from, landing: service.landing(), lastActionReplaysCleanly: note)
  }

  /// `continue`.
  static let forward = ReplayCommand(
    name: "continue", alias: "c", usage: "continue",
    summary: "run forward to a watch or break",
    details: "Needs a watchpoint or breakpoint; stops at the end of the log when none triggers."
  ) { _, _ throws(ReplayFailure) in
    ContinueRequest(.forward)
  }

  /// `reverse-continue`.
  static let backward = ReplayCommand(
    name: "reverse-continue", alias: "rc", usage: "reverse-continue",
    summary: "run backward to a watch or break",
    details: "Needs a watchpoint or breakpoint; stops at the initial state when none triggers. "
      + "Costs about one forward pass, thanks to the cached states."
  ) { _, _ throws(ReplayFailure) in
    ContinueRequest(.backward)
  }
}

/// Where a `continue` or `reverse-continue` stopped, and why.
package struct StopResponse: ReplayResponse {
  /// The stop.
  package var stop: Debugger.Stop
  /// The position the run started from.
  package var from: Int
  /// Where the cursor is.
  package var landing: Landing
  /// Whether the stop is, for the first time in the session, at the last action of a cut-off
  /// log that replays without a crash (as ``MotionResponse/lastActionReplaysCleanly``).
  package var lastActionReplaysCleanly: Bool

  /// The position and action as for a ``MotionResponse``, and why —
  /// `"stoppedBy": [{"id": 1, "reason": "todos.count: 3 → 4"}]`, `"reached": "end"` (or
  /// `"start"`) with nothing triggered, or `"crash"`.
  package var jsonValue: JSONValue {
    let why: JSONMember
    switch stop {
    case .breakpoints(_, let reasons):
      let stoppedBy = reasons.map { reason in
        JSONValue.object([
          JSONMember("id", .number(String(reason.id))), JSONMember("reason", .string(reason.text)),
        ])
      }
      why = JSONMember("stoppedBy", .array(stoppedBy))
    case .boundary(_, let direction):
      why = JSONMember("reached", .string(direction == .forward ? "end" : "start"))
    case .crashed(let report, _):
      why = JSONMember("crash", report.json)
    }
    return .object(landing.jsonMembers + [why])
  }

  package var crash: CrashReport? { stop.crash }
}

extension Debugger.Stop {
  /// Whether watchpoints or breakpoints triggered.
  fileprivate var isBreakpoint: Bool {
    if case .breakpoints = self { return true }
    return false
  }
}

import RewindJSON
import RewindReplay

/// Moves the cursor: to a position (`goto`), or a number of positions forward or backward
/// (`next`, `back`; clamped to the log). Answered with a ``MotionResponse``.
package struct MoveRequest: ReplayRequest, Equatable {
  /// Where to go.
  package enum Target: Sendable, Equatable {
    /// To this position.
    case position(Int)
    /// This many positions forward (backward when negative).
    case steps(Int)
  }

  /// Where to go.
  package var target: Target

  /// A move to `target`.
  package init(_ target: Target) { self.target = target }

  package func run(on service: ReplayService) throws(ReplayFailure) -> MotionResponse {
    let motion = try service.debug { () throws(DebuggerError) in
      switch target {
      case .position(let position): return try service.debugger.move(to: position)
      case .steps(let delta): return try service.debugger.step(by: delta)
      }
    }
    return service.response(to: motion)
  }

  /// `next [N]`.
  static let next = ReplayCommand(
    name: "next", alias: "n", usage: "next [N]", summary: "step forward N actions (default 1)",
    details: "Moves the cursor N positions forward and shows the action that led there."
  ) { words, _ throws(ReplayFailure) in
    MoveRequest(.steps(try ReplayCommand.count(words, default: 1)))
  }

  /// `back [N]`.
  static let back = ReplayCommand(
    name: "back", alias: "b", usage: "back [N]", summary: "step backward N actions (default 1)",
    details: "Moves the cursor N positions backward. A step back costs at most one cached "
      + "stretch of reductions, never a replay from the start."
  ) { words, _ throws(ReplayFailure) in
    MoveRequest(.steps(-(try ReplayCommand.count(words, default: 1))))
  }

  /// `goto N|first|last`.
  static let goto = ReplayCommand(
    name: "goto", alias: "g", usage: "goto N|first|last", summary: "jump to position N",
    details: "Position 0 is the initial state; position N is the state after action N.",
    arguments: .positions
  ) { words, service throws(ReplayFailure) in
    guard words.count == 1 else { throw .usage("usage: goto N|first|last") }
    return MoveRequest(.position(try ReplayCommand.position(words[0], in: service)))
  }
}

/// Where a move ended: at the target, or — when the app's reducer crashed on an action on the
/// way — at the last good position before it, with the crash report.
package struct MotionResponse: ReplayResponse {
  /// How the move ended.
  package var motion: Debugger.Motion
  /// Where the cursor is.
  package var landing: Landing
  /// Whether the cursor reached, for the first time in the session, the last action of a
  /// cut-off log and it replays without a crash: the app stopped somewhere else (a note says
  /// so once).
  package var lastActionReplaysCleanly: Bool

  /// `{"position": N, "action": {...}}` (no `action` at the initial state), and `"crash"`
  /// (``CrashReport/json``) when the app's reducer crashed on the way.
  package var jsonValue: JSONValue {
    .object(landing.jsonMembers + (crash.map { [JSONMember("crash", $0.json)] } ?? []))
  }

  package var crash: CrashReport? { motion.crash }
}

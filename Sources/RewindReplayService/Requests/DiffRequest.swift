import RewindJSON
import RewindReplay

/// What changed between two states: the action at the cursor's (`diff`), another position's
/// state against the cursor's (`diff N`), or two positions (`diff N M`). Answered with a
/// ``DiffResponse``.
package struct DiffRequest: ReplayRequest, Equatable {
  /// Which states.
  package enum States: Sendable, Equatable {
    /// The one before the cursor and the cursor's: what its action changed.
    case actionAtCursor
    /// This position's and the cursor's.
    case againstCursor(Int)
    /// These two positions'.
    case between(Int, Int)
  }

  /// Which states.
  package var states: States

  /// A diff of `states`.
  package init(_ states: States) { self.states = states }

  package func run(on service: ReplayService) throws(ReplayFailure) -> DiffResponse {
    let position = service.position
    let from: Int
    let to: Int
    switch states {
    case .actionAtCursor:
      guard position > service.log.positions.lowerBound else {
        throw .usage(
          "position \(position) is the initial state: no action led here; use 'diff N' to "
            + "compare with another position")
      }
      (from, to) = (position - 1, position)
    case .againstCursor(let other): (from, to) = (other, position)
    case .between(let first, let second): (from, to) = (first, second)
    }
    return DiffResponse(
      diff: try service.debug { () throws(DebuggerError) in
        try service.diff(from: from, to: to)
      }, namesPositions: states != .actionAtCursor)
  }

  /// `diff [N [M]]`.
  static let command = ReplayCommand(
    name: "diff", alias: "d", usage: "diff [N [M]] [--json]",
    summary: "show what changed between two states",
    details: "'diff' shows what the action at the cursor changed; 'diff N' compares position "
      + "N with the cursor; 'diff N M' compares N with M. --json prints an RFC 6902 JSON Patch.",
    arguments: .positions
  ) { words, service throws(ReplayFailure) in
    switch words.count {
    case 0: return DiffRequest(.actionAtCursor)
    case 1: return DiffRequest(.againstCursor(try ReplayCommand.position(words[0], in: service)))
    case 2:
      return DiffRequest(
        .between(
          try ReplayCommand.position(words[0], in: service),
          try ReplayCommand.position(words[1], in: service)))
    default: throw .usage("usage: diff [N [M]] [--json]")
    }
  }
}

/// What changed between two states.
package struct DiffResponse: ReplayResponse {
  /// The changes.
  package var diff: StateDiff
  /// Whether the request named the positions (the text then says which).
  package var namesPositions: Bool
  /// The changes as an RFC 6902 JSON Patch (``StateDiff/jsonValue``).
  package var jsonValue: JSONValue { diff.jsonValue }
}

import RewindJSON
import RewindReplay

/// Replays as if an action never happened (`skip N`), or with it again (`unskip N`). Answered
/// with a ``SkipResponse``.
package struct SkipRequest: ReplayRequest, Equatable {
  /// The action's seq.
  package var seq: Int
  /// Skip it (`true`) or replay it again (`false`).
  package var isSkipped: Bool

  /// Skips (or unskips) the action `seq`.
  package init(seq: Int, isSkipped: Bool) {
    self.seq = seq
    self.isSkipped = isSkipped
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> SkipResponse {
    let count = try service.debug { () throws(DebuggerError) in
      try service.debugger.setSkipped(seq, isSkipped)
    }
    service.forgetStates()
    return SkipResponse(seq: seq, isSkipped: isSkipped, count: count, skips: service.skips)
  }

  /// `skip N` or `unskip N`.
  private static func parse(_ isSkipped: Bool)
    -> @Sendable ([String], ReplayService)
    throws(ReplayFailure) -> any ReplayRequest
  {
    { words, service throws(ReplayFailure) in
      _ = try service.debug { () throws(DebuggerError) in try service.debugger.requireTimeline() }
      guard words.count == 1, let seq = Int(words[0]) else {
        throw .usage("usage: \(isSkipped ? "skip" : "unskip") N (the seq of an action)")
      }
      return SkipRequest(seq: seq, isSkipped: isSkipped)
    }
  }

  /// `skip N`.
  static let skip = ReplayCommand(
    name: "skip", alias: "sk", usage: "skip N",
    summary: "replay as if action N never happened",
    details: "Every later state is recomputed without it; the prompt shows that skips are "
      + "active. 'unskip N' undoes it.",
    repeats: false, parse: parse(true))

  /// `unskip N`.
  static let unskip = ReplayCommand(
    name: "unskip", alias: "us", usage: "unskip N", summary: "undo 'skip N'",
    details: "Every later state is recomputed with action N again.",
    repeats: false, parse: parse(false))
}

/// The skips after a `skip` or `unskip`.
package struct SkipResponse: ReplayResponse {
  /// The action's seq.
  package var seq: Int
  /// Whether it is skipped now.
  package var isSkipped: Bool
  /// How many actions are skipped now.
  package var count: Int
  /// The seqs skipped, ascending.
  package var skips: [Int]
  /// `{"skips": [seqs]}`.
  package var jsonValue: JSONValue {
    .object([JSONMember("skips", .array(skips.map { .number(String($0)) }))])
  }
}

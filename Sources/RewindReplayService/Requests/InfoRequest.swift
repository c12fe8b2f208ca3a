import RewindJSON
import RewindReplay

/// Describes the log and the cursor. Answered with an ``InfoResponse``.
package struct InfoRequest: ReplayRequest, Equatable {
  /// The description.
  package init() {}

  package func run(on service: ReplayService) throws(ReplayFailure) -> InfoResponse {
    InfoResponse(
      log: service.log, appKnown: service.opened.timeline != nil, position: service.position,
      skips: service.skips)
  }

  /// `info`.
  static let command = ReplayCommand(
    name: "info", alias: "i", usage: "info", summary: "describe the log and the cursor",
    details: "App, types, number of actions, checkpoints, how the log ended, bad lines."
  ) { _, _ throws(ReplayFailure) in InfoRequest() }
}

/// The log and the cursor.
package struct InfoResponse: ReplayResponse {
  /// The log.
  package var log: ReplayLog
  /// Whether this binary knows the log's app (its states can be rebuilt).
  package var appKnown: Bool
  /// The cursor's position.
  package var position: Int
  /// The seqs the replay skips, ascending.
  package var skips: [Int]

  /// ``ReplayLog/summaryJSON(appKnown:)`` with `"position"` and `"skips"`.
  package var jsonValue: JSONValue {
    guard case .object(let members) = log.summaryJSON(appKnown: appKnown) else {
      return log.summaryJSON(appKnown: appKnown)
    }
    return .object(
      members + [
        JSONMember("position", .number(String(position))),
        JSONMember("skips", .array(skips.map { .number(String($0)) })),
      ])
  }
}

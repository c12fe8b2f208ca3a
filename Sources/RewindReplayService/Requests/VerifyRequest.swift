import RewindJSON
import RewindReplay

/// Replays the whole log from its initial state through today's reducer, never trusting its
/// checkpoints, and compares every checkpoint (``Verifier``); for a cut-off log that reproduces,
/// it also replays the last action to say whether the app's crash was the reducer's. One request
/// of the worker for the walk. Answered with a ``VerifyResponse``.
package struct VerifyRequest: ReplayRequest, Equatable {
  /// The walk of the service's log.
  package init() {}

  package func run(on service: ReplayService) throws(ReplayFailure) -> VerifyResponse {
    // A session's timeline starts from checkpoints: verify opens the log again without them.
    let opened =
      service.opened.usesCheckpoints
      ? OpenedLog(
        log: service.opened.recordedLog, apps: service.opened.knownApps, usesCheckpoints: false,
        isolation: service.opened.isolation)
      : service.opened
    guard !opened.log.isInitialStateMissing else {
      throw .debugger(.replay(opened.log.initialStateError))
    }
    guard let timeline = opened.timeline else { throw .debugger(.noReducer) }
    let report: VerifyReport
    do { report = try Verifier.verify(timeline) } catch {
      // A reducer that crashes is what verify looks for: the log no longer replays.
      guard case .reducerCrashed(let crash) = error else { throw .debugger(.replay(error)) }
      return VerifyResponse(path: opened.log.path, outcome: .crashed(crash), lastAction: nil)
    }
    return VerifyResponse(
      path: opened.log.path, outcome: .walked(report),
      lastAction: report.isReproduced ? LastActionCheck.run(opened) : nil)
  }

  /// `verify`.
  static let command = ReplayCommand(
    name: "verify", alias: "ver", usage: "verify",
    summary: "replay the whole log and compare every checkpoint",
    details: "Replays from the initial state through this binary's reducer, never trusting the "
      + "checkpoints, and shows the first state that differs from a recorded one; the cursor "
      + "stays where it is. As 'replay verify LOG'."
  ) { _, _ throws(ReplayFailure) in VerifyRequest() }
}

/// What `verify` found.
package struct VerifyResponse: ReplayResponse {
  /// How the walk ended.
  package enum Outcome: Sendable {
    /// It walked the whole log.
    case walked(VerifyReport)
    /// The app's reducer crashed on an action: the log no longer replays.
    case crashed(CrashReport)
  }

  /// The log's path.
  package var path: String
  /// How the walk ended.
  package var outcome: Outcome
  /// For a cut-off log that reproduces, what its last action does when replayed again.
  package var lastAction: LastActionCheck?

  /// Whether every checkpoint was reproduced and every action decoded.
  package var isReproduced: Bool {
    if case .walked(let report) = outcome { return report.isReproduced }
    return false
  }

  package var crash: CrashReport? {
    if case .crashed(let report) = outcome { return report }
    return nil
  }

  /// `{"path", "reproduced", "checkpointsCompared", "hasCheckpoints", "divergence",
  /// "undecodable"}` (and `"lastAction"` for a cut-off log), or `{"path", "reproduced": false,
  /// "crash"}` when the reducer crashed.
  package var jsonValue: JSONValue {
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    guard case .walked(let report) = outcome else {
      return .object([
        JSONMember("path", .string(path)), JSONMember("reproduced", .bool(false)),
        JSONMember("crash", crash?.json ?? .null),
      ])
    }
    var members: [JSONMember] = [
      JSONMember("path", .string(report.path)),
      JSONMember("reproduced", .bool(report.isReproduced)),
      JSONMember("checkpointsCompared", number(report.checkpointsCompared)),
      JSONMember("hasCheckpoints", .bool(report.hasCheckpoints)),
    ]
    if let divergence = report.divergence {
      members.append(
        JSONMember(
          "divergence",
          .object([
            JSONMember("seq", number(divergence.seq)),
            JSONMember("line", number(divergence.line)),
            JSONMember(
              "actions", .array([number(divergence.lastMatching + 1), number(divergence.seq)])),
            JSONMember("patch", JSONPatch(changes: divergence.changes).jsonValue),
          ])))
    } else {
      members.append(JSONMember("divergence", .null))
    }
    members.append(
      JSONMember(
        "undecodable",
        .array(
          report.undecodable.map {
            .object([
              JSONMember("seq", number($0.seq)), JSONMember("error", .string($0.error.message)),
            ])
          })))
    if let lastAction { members.append(JSONMember("lastAction", lastAction.json)) }
    return .object(members)
  }
}

import RewindJSON
import RewindReplay

/// Compares the service's log (A) with another recording of the same app (B): where their action
/// sequences diverge, and — when this binary knows the app — how the states differ after the
/// first differing stretch and at the end (`replay diff A B`). Answered with a
/// ``CompareResponse``. B is opened as the service's log was (the same apps, isolation and
/// progress); the few states compared are rebuilt by each log's timeline (in its worker when
/// isolated), never one round trip per action.
package struct CompareRequest: ReplayRequest {
  /// The other log, B, read already.
  package var other: ReplayLog

  /// A comparison of the service's log with `other`.
  package init(with other: ReplayLog) {
    self.other = other
  }

  /// - Throws: ``ReplayFailure/usage(_:)`` for logs of two different apps; a replay error when a
  ///   state cannot be rebuilt.
  package func run(on service: ReplayService) throws(ReplayFailure) -> CompareResponse {
    let a = service.opened
    let b = OpenedLog(log: other, apps: a.knownApps, isolation: a.isolation)
    b.timeline?.progress = a.timeline?.progress
    guard a.log.header.app == b.log.header.app else {
      throw .usage(
        "cannot compare sessions of different apps: A is \"\(a.log.header.app)\", B is "
          + "\"\(b.log.header.app)\"")
    }
    var timelines: (any ReplayTimeline, any ReplayTimeline)?
    if let ta = a.timeline, let tb = b.timeline { timelines = (ta, tb) }
    do {
      return CompareResponse(
        diff: try LogDiff(a.log, b.log, timelines: timelines), comparesStates: timelines != nil)
    } catch {
      throw .debugger(.replay(error))
    }
  }
}

/// What comparing two logs found.
package struct CompareResponse: ReplayResponse {
  /// The comparison.
  package var diff: LogDiff
  /// Whether states were compared (this binary knows the app); `false`: the actions only.
  package var comparesStates: Bool

  /// A crash of either log's reducer met while rebuilding the compared states.
  package var crash: CrashReport? { diff.crashA ?? diff.crashB }

  /// `{"a", "b", "equivalent", "comparedStates", "initialStatesDiffer", "crashA", "crashB",
  /// "firstDivergence", "hunks"}`, and when states were compared `"divergenceStatePositions"`,
  /// `"divergenceStatePatch"` and `"finalStatePatch"` (RFC 6902, A → B).
  package var jsonValue: JSONValue {
    let result = diff
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    func patch(_ changes: StateChanges?) -> JSONValue {
      (changes.map { JSONPatch(changes: $0) } ?? JSONPatch()).jsonValue
    }
    func range(_ r: ClosedRange<Int>?) -> JSONValue {
      r.map { .array([number($0.lowerBound), number($0.upperBound)]) } ?? .null
    }
    var members: [JSONMember] = [
      JSONMember("a", .string(result.a.path)),
      JSONMember("b", .string(result.b.path)),
      JSONMember("equivalent", .bool(result.isEquivalent)),
      JSONMember("comparedStates", .bool(result.comparedStates)),
      JSONMember("initialStatesDiffer", .bool(result.initialStatesDiffer)),
      JSONMember("crashA", result.crashA?.json ?? .null),
      JSONMember("crashB", result.crashB?.json ?? .null),
    ]
    if let first = result.firstDivergence {
      members.append(
        JSONMember(
          "firstDivergence",
          .object([JSONMember("a", number(first.a)), JSONMember("b", number(first.b))])))
    } else {
      members.append(JSONMember("firstDivergence", .null))
    }
    members.append(
      JSONMember(
        "hunks",
        .array(
          result.hunks.map {
            .object([
              JSONMember("onlyInA", range($0.seqsInA)), JSONMember("onlyInB", range($0.seqsInB)),
            ])
          })))
    if result.comparedStates {
      members.append(
        JSONMember(
          "divergenceStatePositions",
          result.divergencePositions.map {
            .object([JSONMember("a", number($0.a)), JSONMember("b", number($0.b))])
          } ?? .null))
      members.append(JSONMember("divergenceStatePatch", patch(result.divergenceChanges)))
      members.append(JSONMember("finalStatePatch", patch(result.finalChanges)))
    }
    return .object(members)
  }
}

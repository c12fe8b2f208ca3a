import RewindJSON
import RewindReplay

/// What each action cost the app's reducer: the log replayed from its initial state several
/// times, each action's reduction timed and the least time kept, reported per action type with
/// the slowest actions; optionally compared with a ``ProfileBaseline`` from another build.
/// `replay profile LOG`. One request of the worker when isolated
/// (``ReplayTimeline/actionProfile(through:passes:top:type:)``). Answered with a
/// ``ProfileResponse``.
///
/// An action the reducer crashes on is not timed: the profile ends before it (a crash log's last
/// action). In this process, the last action of a cut-off log is never run — it may be the
/// crash that cut the log off, which would end the process.
package struct ProfileRequest: ReplayRequest, Equatable {
  /// How many times the log is replayed (each action's time is the least of them).
  package var passes: Int
  /// How many of the slowest actions to list.
  package var top: Int
  /// Only actions of this type, when set.
  package var type: String?
  /// The profile to compare with, when set.
  package var baseline: ProfileBaseline?

  /// A profile of `passes` replays listing the `top` slowest actions.
  package init(
    passes: Int = 3, top: Int = 10, type: String? = nil, baseline: ProfileBaseline? = nil
  ) {
    self.passes = passes
    self.top = top
    self.type = type
    self.baseline = baseline
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ProfileResponse {
    let opened = service.opened
    let log = opened.log
    guard passes >= 1 else { throw .usage("--repeat takes a number of passes (1 or more)") }
    guard top >= 0 else { throw .usage("--top takes a number of actions (0 or more)") }
    guard !log.isInitialStateMissing else { throw .debugger(.replay(log.initialStateError)) }
    guard let timeline = opened.timeline else { throw .debugger(.noReducer) }
    if let type, log.actionCount > 0, !Self.types(of: log).contains(type) {
      let known = Self.types(of: log).sorted()
      let suggestion = closestMatch(to: type, in: known).map { " Did you mean '\($0)'?" }
      throw .usage(
        "no action of type '\(type)' in \(log.path).\(suggestion ?? "") Its types: "
          + known.joined(separator: ", "))
    }
    var last = log.lastSeq
    var notTimed: ProfileResponse.NotTimed?
    // In this process a trap would end it: a cut-off log's last action may be the crash.
    if log.actionCount > 0, log.isCutOff, LastActionCheck.logEndsWhereTheAppStopped(log),
      !(timeline is IsolatedTimeline)
    {
      notTimed = ProfileResponse.NotTimed(
        seq: last, type: try? log.actionType(at: last), crash: nil)
      last -= 1
    }
    let profile: ActionProfile
    do {
      profile = try timeline.actionProfile(through: last, passes: passes, top: top, type: type)
    } catch {
      // The reducer crashed (in the worker): time every action before the one it crashed on.
      guard case .reducerCrashed(let crash) = error, let seq = crash.seq, seq <= last,
        seq >= log.positions.lowerBound + 1
      else { throw .debugger(.replay(error)) }
      notTimed = ProfileResponse.NotTimed(seq: seq, type: crash.type, crash: crash)
      last = seq - 1
      do {
        profile = try timeline.actionProfile(through: last, passes: passes, top: top, type: type)
      } catch {
        throw .debugger(.replay(error))
      }
    }
    var comparison: ProfileComparison?
    if let baseline {
      let baseTypes = type.map { type in baseline.types.filter { $0.type == type } }
      comparison = ProfileComparison(profile.types, baseline: baseTypes ?? baseline.types)
    }
    return ProfileResponse(
      path: log.path, app: log.app, lastSeq: log.lastSeq, profile: profile, notTimed: notTimed,
      comparison: comparison, baselinePath: baseline?.path)
  }

  /// The action types of `log`'s actions.
  private static func types(of log: ReplayLog) -> Set<String> {
    guard log.actionCount > 0 else { return [] }
    var types: Set<String> = []
    for seq in log.firstSeq...log.lastSeq {
      if let type = try? log.actionType(at: seq) { types.insert(type) }
    }
    return types
  }
}

/// What `profile` measured: the ``ActionProfile``, the action left out (if any) and why, and the
/// comparison with a baseline when one was given.
package struct ProfileResponse: ReplayResponse {
  /// An action that was not timed, and why.
  package struct NotTimed: Sendable, Equatable {
    /// Its seq.
    package var seq: Int
    /// Its type, when known.
    package var type: String?
    /// The crash of the app's reducer on it; `nil` when it was left out without being run (the
    /// last action of a cut-off log, in this process).
    package var crash: CrashReport?
  }

  /// The log's path.
  package var path: String
  /// The log's app.
  package var app: String
  /// The log's last seq (the profile may end before it).
  package var lastSeq: Int
  /// The times.
  package var profile: ActionProfile
  /// The action the profile ended before, when it did not reach the log's end.
  package var notTimed: NotTimed?
  /// The comparison with the baseline, when one was given.
  package var comparison: ProfileComparison?
  /// The baseline's file, when one was given.
  package var baselinePath: String?

  /// The crash of the reducer that ended the profile early.
  package var crash: CrashReport? { notTimed?.crash }

  /// Whether a type got slower than the baseline beyond the threshold.
  package var hasRegression: Bool { comparison?.hasRegression ?? false }

  /// `{"path", "app", "unit": "ns", "passes", "from", "through", "lastSeq", "timed",
  /// "notReduced", "type", "types": [{"type", "replayed": {"count", "total", "p50", "p99",
  /// "max"}, "recorded": {…the same, as the recorder measured them, when the log has them}}],
  /// "slowest": [{"seq", "type", "nanoseconds"}], "notTimed"}`, and with a baseline
  /// `"comparison": {"baseline", "threshold", "floor", "regression", "types": [{"type",
  /// "verdict", "p50Ratio", "totalRatio", "current", "baseline"}]}`. Times are integers of
  /// nanoseconds. `"notTimed"` is `null` or `{"seq", "type", "reason": "crash" | "cut off",
  /// "crash"}`. A baseline for `--compare` is this form, saved.
  package var jsonValue: JSONValue {
    var members: [JSONMember] = [
      JSONMember("path", .string(path)), JSONMember("app", .string(app)),
      JSONMember("unit", .string("ns")), JSONMember("passes", Self.number(profile.passes)),
      JSONMember("from", Self.number(profile.first)),
      JSONMember("through", Self.number(profile.through)),
      JSONMember("lastSeq", Self.number(lastSeq)), JSONMember("timed", Self.number(profile.timed)),
      JSONMember("notReduced", Self.number(profile.notReduced)),
      JSONMember("type", profile.type.map(JSONValue.string) ?? .null),
      JSONMember(
        "types",
        .array(
          profile.types.map {
            .object(
              [
                JSONMember("type", .string($0.type)),
                JSONMember("replayed", Self.json($0.replayed)),
              ] + ($0.recorded.map { [JSONMember("recorded", Self.json($0))] } ?? []))
          })),
      JSONMember(
        "slowest",
        .array(
          profile.slowest.map {
            .object([
              JSONMember("seq", Self.number($0.seq)), JSONMember("type", .string($0.type)),
              JSONMember("nanoseconds", Self.number($0.nanoseconds)),
            ])
          })),
    ]
    if let notTimed {
      members.append(
        JSONMember(
          "notTimed",
          .object([
            JSONMember("seq", Self.number(notTimed.seq)),
            JSONMember("type", notTimed.type.map(JSONValue.string) ?? .null),
            JSONMember("reason", .string(notTimed.crash == nil ? "cut off" : "crash")),
            JSONMember("crash", notTimed.crash?.json ?? .null),
          ])))
    } else {
      members.append(JSONMember("notTimed", .null))
    }
    if let comparison {
      members.append(JSONMember("comparison", Self.json(comparison, baseline: baselinePath)))
    }
    return .object(members)
  }

  private static func number<N: BinaryInteger>(_ n: N) -> JSONValue { .number(String(n)) }

  private static func number(_ ratio: Double?) -> JSONValue {
    guard let ratio, ratio.isFinite else { return .null }
    return .number(String((ratio * 1000).rounded() / 1000))
  }

  private static func json(_ stats: ReductionStats?) -> JSONValue {
    guard let stats else { return .null }
    return .object([
      JSONMember("count", number(stats.count)), JSONMember("total", number(stats.total)),
      JSONMember("p50", number(stats.p50)), JSONMember("p99", number(stats.p99)),
      JSONMember("max", number(stats.max)),
    ])
  }

  private static func json(_ comparison: ProfileComparison, baseline: String?) -> JSONValue {
    .object([
      JSONMember("baseline", baseline.map(JSONValue.string) ?? .null),
      JSONMember("threshold", number(comparison.threshold)),
      JSONMember("floor", number(comparison.floor)),
      JSONMember("regression", .bool(comparison.hasRegression)),
      JSONMember(
        "types",
        .array(
          comparison.rows.map {
            .object([
              JSONMember("type", .string($0.type)),
              JSONMember("verdict", .string($0.verdict.rawValue)),
              JSONMember("p50Ratio", number($0.p50Ratio)),
              JSONMember("totalRatio", number($0.totalRatio)),
              JSONMember("current", json($0.current)), JSONMember("baseline", json($0.baseline)),
            ])
          })),
    ])
  }
}

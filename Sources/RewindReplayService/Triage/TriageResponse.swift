import RewindJSON
import RewindReplay

/// Logs that ended the same way: one line of `replay triage`'s table.
package struct TriageBucket: Sendable, Equatable {
  /// The bucket's key (``TriageRecord/bucket``).
  package var key: String
  /// How its logs ended.
  package var ending: TriageRecord.Ending
  /// How many logs it holds.
  package var count: Int
  /// When the earliest of them started recording.
  package var firstRecorded: String?
  /// When the last action of the latest of them was recorded.
  package var lastRecorded: String?
  /// The builds that recorded them (``TriageRecord/build``), sorted; logs without a stamp are
  /// not counted.
  package var builds: [String]
  /// The log to open first: the one with the fewest actions (then the first by path).
  package var representative: TriageRecord
  /// The shrunk reproduction written beside the representative (`--shrink`), if any.
  package var shrunk: String?
  /// How many actions the shrunk reproduction kept.
  package var shrunkActions: Int?

  /// `{"key", "ending", "count", "firstRecorded", "lastRecorded", "builds", "representative",
  /// "crashActionType", "crashMessage", "crashFrame", "reason", "shrunk"}`.
  package var jsonValue: JSONValue {
    func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    return .object([
      JSONMember("key", .string(key)),
      JSONMember("ending", .string(ending.rawValue)),
      JSONMember("count", .number(String(count))),
      JSONMember("firstRecorded", text(firstRecorded)),
      JSONMember("lastRecorded", text(lastRecorded)),
      JSONMember("builds", .array(builds.map(JSONValue.string))),
      JSONMember("representative", .string(representative.path)),
      JSONMember("crashActionType", text(representative.crashActionType)),
      JSONMember("crashMessage", text(representative.crashMessage)),
      JSONMember("crashFrame", text(representative.crashFrame)),
      JSONMember("reason", text(representative.reason)),
      JSONMember("shrunk", text(shrunk)),
    ])
  }
}

/// What `replay triage` found: every log's record and the buckets they fall in.
package struct TriageResponse: ReplayResponse {
  /// One record per log, in the order the logs were found.
  package var records: [TriageRecord]
  /// The buckets: crashes first, then logs that stopped elsewhere, unreadable ones, those of an
  /// unknown app, and clean ones; within each, the largest first.
  package var buckets: [TriageBucket]

  /// Groups `records` into buckets.
  package init(records: [TriageRecord]) {
    self.records = records
    var groups: [String: [TriageRecord]] = [:]
    for record in records { groups[record.bucket, default: []].append(record) }
    buckets = groups.compactMap { key, members -> TriageBucket? in
      guard
        let representative = members.min(by: {
          ($0.actions, $0.path) < ($1.actions, $1.path)
        })
      else { return nil }
      return TriageBucket(
        key: key, ending: representative.ending, count: members.count,
        firstRecorded: members.compactMap(\.firstRecorded).min(),
        lastRecorded: members.compactMap(\.lastRecorded).max(),
        builds: Set(members.compactMap(\.build)).sorted(), representative: representative)
    }
    buckets.sort {
      (Self.rank($0.ending), -$0.count, $0.key) < (Self.rank($1.ending), -$1.count, $1.key)
    }
  }

  private static func rank(_ ending: TriageRecord.Ending) -> Int {
    switch ending {
    case .crashed: return 0
    case .stoppedElsewhere: return 1
    case .unreadable: return 2
    case .unknownApp: return 3
    case .clean: return 4
    }
  }

  /// How many logs ended `ending`.
  package func count(_ ending: TriageRecord.Ending) -> Int {
    records.count { $0.ending == ending }
  }

  /// Whether any log crashes the reducer, cannot be read, or is of an unknown app: a finding
  /// (exit status 1).
  package var hasFindings: Bool {
    records.contains { $0.ending != .clean && $0.ending != .stoppedElsewhere }
  }

  /// `{"logs", "endings": {ending: count}, "buckets": [bucket…]}`.
  package var jsonValue: JSONValue {
    .object([
      JSONMember("logs", .number(String(records.count))),
      JSONMember(
        "endings",
        .object(
          TriageRecord.Ending.allCases.map {
            JSONMember($0.rawValue, .number(String(count($0))))
          })),
      JSONMember("buckets", .array(buckets.map(\.jsonValue))),
    ])
  }
}

/// What each action of a log cost the app's reducer when replayed: per action type, the count,
/// total, median, 99th percentile and longest reduction, slowest type first, and the slowest
/// actions themselves. Made from a walk's ``ReductionTimes`` (``init(_:log:top:type:)``).
///
/// Each action's time is the least of ``passes`` replays of the whole log ("repeated, least
/// taken"): what the reducer costs without the machine's interruptions.
public struct ActionProfile: Sendable, Equatable, Codable {
  /// One action type's reductions.
  ///
  /// The stats are a member of their own so that another set measured elsewhere (the time the
  /// recorder saw) can sit beside ``replayed``.
  public struct TypeCost: Sendable, Equatable, Codable {
    /// The action type (its enum case name); `?` for lines without one.
    public var type: String
    /// Its reductions when replayed.
    public var replayed: ReductionStats
    /// The same actions' reducer times as the recorder measured them in the app, when the log
    /// has them (``Rewind/RecordingOptions/recordsReducerTimes``); of the timed actions that have
    /// one.
    public var recorded: ReductionStats?

    /// The cost of `type`.
    public init(type: String, replayed: ReductionStats, recorded: ReductionStats? = nil) {
      self.type = type
      self.replayed = replayed
      self.recorded = recorded
    }
  }

  /// One action and how long its reduction took.
  public struct TimedAction: Sendable, Equatable, Codable {
    /// The action's seq.
    public var seq: Int
    /// Its type.
    public var type: String
    /// Its reduction's time, in nanoseconds.
    public var nanoseconds: UInt64

    /// The time of the action `seq` of `type`.
    public init(seq: Int, type: String, nanoseconds: UInt64) {
      self.seq = seq
      self.type = type
      self.nanoseconds = nanoseconds
    }
  }

  /// How many times the whole log was replayed (each action's time is its least).
  public var passes: Int
  /// The first seq walked.
  public var first: Int
  /// The last seq walked (`first - 1` when none was).
  public var through: Int
  /// How many actions were timed (of ``type`` alone when it is set).
  public var timed: Int
  /// Actions walked but not reduced: not recorded (`skipped` lines, seqs missing under
  /// `--recovery salvage`) or skipped in the session.
  public var notReduced: Int
  /// Only actions of this type were reported, when set.
  public var type: String?
  /// Per action type, the largest total first.
  public var types: [TypeCost]
  /// The slowest actions, slowest first (at most the number asked for).
  public var slowest: [TimedAction]

  /// The profile of `times`, each timed action's type read from `log`.
  ///
  /// - Parameters:
  ///   - top: How many of the slowest actions to keep.
  ///   - type: Only actions of this type, when given.
  /// - Throws: What reading an action's type from `log` throws (a damaged line).
  /// - Complexity: O(*n* log *n*) for *n* actions.
  public init(_ times: ReductionTimes, log: ReplayLog, top: Int, type: String? = nil)
    throws(ReplayError)
  {
    var byType: [String: [UInt64]] = [:]
    var recordedByType: [String: [UInt64]] = [:]
    let recorded = log.recordedReducerTimes()
    var actions: [TimedAction] = []
    var notReduced = 0
    for (offset, nanoseconds) in times.nanoseconds.enumerated() {
      guard nanoseconds != ReductionTimes.notReduced else {
        notReduced += 1
        continue
      }
      let seq = times.first + offset
      let name = try log.actionType(at: seq) ?? "?"
      if let type, name != type { continue }
      byType[name, default: []].append(nanoseconds)
      if let time = recorded[seq] { recordedByType[name, default: []].append(UInt64(time)) }
      actions.append(TimedAction(seq: seq, type: name, nanoseconds: nanoseconds))
    }
    passes = times.passes
    first = times.first
    through = times.first + times.nanoseconds.count - 1
    timed = actions.count
    self.notReduced = notReduced
    self.type = type
    types = byType.compactMap { name, nanoseconds in
      ReductionStats(nanoseconds: nanoseconds).map {
        TypeCost(
          type: name, replayed: $0,
          recorded: recordedByType[name].flatMap { ReductionStats(nanoseconds: $0) })
      }
    }.sorted { ($0.replayed.total, $1.type) > ($1.replayed.total, $0.type) }
    slowest = Array(
      actions.sorted { ($0.nanoseconds, $1.seq) > ($1.nanoseconds, $0.seq) }.prefix(max(0, top)))
  }

  /// The cost of `type`, when it was timed.
  public func cost(of type: String) -> TypeCost? {
    types.first { $0.type == type }
  }
}

/// Each action type's cost against a baseline's (a profile saved from another build): which got
/// slower, which faster, which are new or gone. What `replay profile --compare` reports.
///
/// A type is ``Verdict/slower`` when its median reduction is at least ``threshold`` times the
/// baseline's *and* at least ``floor`` nanoseconds longer: the floor keeps the noise of types
/// that take well under a microsecond from being flagged. ``Verdict/faster`` is the same the
/// other way.
public struct ProfileComparison: Sendable, Equatable {
  /// How a type's cost compares with the baseline's.
  public enum Verdict: String, Sendable, Equatable {
    /// Slower beyond the threshold and the floor: a regression.
    case slower
    /// Faster beyond the threshold and the floor.
    case faster
    /// Within the threshold or the floor.
    case same
    /// Timed now, not in the baseline.
    case new
    /// In the baseline, not timed now.
    case missing
  }

  /// One type, now and in the baseline.
  public struct Row: Sendable, Equatable {
    /// The action type.
    public var type: String
    /// Its cost now (`nil` when it is ``Verdict/missing``).
    public var current: ReductionStats?
    /// Its cost in the baseline (`nil` when it is ``Verdict/new``).
    public var baseline: ReductionStats?
    /// How it compares.
    public var verdict: Verdict

    /// The median now over the baseline's, when both exist and the baseline's is not 0.
    public var p50Ratio: Double? { ratio(\.p50) }
    /// The total now over the baseline's, when both exist and the baseline's is not 0.
    public var totalRatio: Double? { ratio(\.total) }

    private func ratio(_ figure: KeyPath<ReductionStats, UInt64>) -> Double? {
      guard let current, let baseline, baseline[keyPath: figure] > 0 else { return nil }
      return Double(current[keyPath: figure]) / Double(baseline[keyPath: figure])
    }
  }

  /// The default ``threshold``: 1.25×.
  public static let defaultThreshold = 1.25
  /// The default ``floor``: 1 µs.
  public static let defaultFloor: UInt64 = 1_000

  /// The ratio of medians from which a type is slower (or, inverted, faster).
  public var threshold: Double
  /// The least difference of medians, in nanoseconds, for a type to be slower or faster.
  public var floor: UInt64
  /// Every type of either profile: the slower first (largest median ratio first), then the
  /// faster, the new, the missing, and the same, each by name.
  public var rows: [Row]

  /// `current`'s types compared with `baseline`'s.
  public init(
    _ current: [ActionProfile.TypeCost], baseline: [ActionProfile.TypeCost],
    threshold: Double = defaultThreshold, floor: UInt64 = defaultFloor
  ) {
    self.threshold = threshold
    self.floor = floor
    var rows: [Row] = []
    let before = Dictionary(baseline.map { ($0.type, $0.replayed) }) { first, _ in first }
    let now = Set(current.map(\.type))
    for cost in current {
      let old = before[cost.type]
      rows.append(
        Row(
          type: cost.type, current: cost.replayed, baseline: old,
          verdict: old.map { Self.verdict(cost.replayed, $0, threshold, floor) } ?? .new))
    }
    for cost in baseline where !now.contains(cost.type) {
      rows.append(Row(type: cost.type, current: nil, baseline: cost.replayed, verdict: .missing))
    }
    let order: [Verdict] = [.slower, .faster, .new, .missing, .same]
    self.rows = rows.sorted { a, b in
      let (rankA, rankB) = (
        order.firstIndex(of: a.verdict) ?? 0, order.firstIndex(of: b.verdict) ?? 0
      )
      if rankA != rankB { return rankA < rankB }
      if a.verdict == .slower, let ratioA = a.p50Ratio, let ratioB = b.p50Ratio, ratioA != ratioB {
        return ratioA > ratioB
      }
      return a.type < b.type
    }
  }

  /// The types that got slower: the regressions.
  public var slower: [Row] { rows.filter { $0.verdict == .slower } }
  /// Whether some type got slower.
  public var hasRegression: Bool { rows.contains { $0.verdict == .slower } }

  private static func verdict(
    _ now: ReductionStats, _ before: ReductionStats, _ threshold: Double, _ floor: UInt64
  ) -> Verdict {
    let (new, old) = (Double(now.p50), Double(before.p50))
    if now.p50 >= before.p50, now.p50 - before.p50 >= floor, new >= old * threshold {
      return .slower
    }
    if before.p50 >= now.p50, before.p50 - now.p50 >= floor, old >= new * threshold {
      return .faster
    }
    return .same
  }
}

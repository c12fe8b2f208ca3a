/// How long a set of reductions took, in nanoseconds: how many, their sum, the median, the 99th
/// percentile and the longest. What `replay profile` shows for each action type.
///
/// Percentiles are nearest-rank: the p-th percentile of `n` times is the `⌈p·n/100⌉`-th
/// smallest, always one of the times measured.
public struct ReductionStats: Sendable, Equatable, Codable {
  /// How many reductions.
  public var count: Int
  /// Their sum.
  public var total: UInt64
  /// The median.
  public var p50: UInt64
  /// The 99th percentile.
  public var p99: UInt64
  /// The longest.
  public var max: UInt64

  /// Stats with these figures (a baseline read back from its JSON).
  public init(count: Int, total: UInt64, p50: UInt64, p99: UInt64, max: UInt64) {
    self.count = count
    self.total = total
    self.p50 = p50
    self.p99 = p99
    self.max = max
  }

  /// The stats of `nanoseconds`, or `nil` when there are none.
  ///
  /// - Complexity: O(*n* log *n*): the times are sorted.
  public init?(nanoseconds: [UInt64]) {
    guard !nanoseconds.isEmpty else { return nil }
    let sorted = nanoseconds.sorted()
    count = sorted.count
    total = sorted.reduce(0) { $0 &+ $1 }
    p50 = Self.percentile(50, ofSorted: sorted)
    p99 = Self.percentile(99, ofSorted: sorted)
    max = sorted[sorted.count - 1]
  }

  /// The nearest-rank `percent`-th percentile of `sorted`, which is not empty.
  static func percentile(_ percent: Int, ofSorted sorted: [UInt64]) -> UInt64 {
    let rank = (percent * sorted.count + 99) / 100
    return sorted[Swift.max(0, Swift.min(sorted.count, rank) - 1)]
  }
}

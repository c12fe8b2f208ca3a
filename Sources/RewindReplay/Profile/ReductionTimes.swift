/// How long the app's reducer took on each action of a stretch of the log, in nanoseconds: the
/// least of ``passes`` replays (``Timeline/reductionTimes(through:passes:)``).
public struct ReductionTimes: Sendable, Equatable, Codable {
  /// The time of an action that was walked but not reduced (not recorded, or skipped).
  public static let notReduced = UInt64.max

  /// The seq of the first action.
  public var first: Int
  /// Each action's time from ``first`` on, ``notReduced`` where there was no reduction.
  public var nanoseconds: [UInt64]
  /// How many replays each time is the least of.
  public var passes: Int

  /// The times of the actions from `first` on.
  public init(first: Int, nanoseconds: [UInt64], passes: Int) {
    self.first = first
    self.nanoseconds = nanoseconds
    self.passes = passes
  }
}

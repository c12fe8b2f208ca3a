/// What `replay compat` found: which recorded actions and states still decode with the app's
/// types (after its migrations, unless they are off), without running the reducer.
public struct CompatibilityReport: Sendable {
  /// The actions of one type that do not decode.
  public struct FailingType: Sendable, Equatable {
    /// The log's `type` (after migrations, when they ran).
    public var type: String
    /// How many lines of that type fail.
    public var count: Int
    /// The first one's seq and line.
    public var firstSeq: Int
    /// The first one's line number.
    public var line: Int
    /// The first one's coding path (`add.title`; empty for the top level).
    public var codingPath: String
    /// The first one's reason (`key not found`).
    public var reason: String
  }

  /// A state (the header's, a checkpoint) that does not decode.
  public struct FailingState: Sendable, Equatable {
    /// Which state (`header's initial state`, `checkpoint at seq 20`).
    public var what: String
    /// Its line number.
    public var line: Int
    /// The coding path.
    public var codingPath: String
    /// The reason.
    public var reason: String
  }

  /// How many action lines were decoded (`skipped` lines and missing seqs are not).
  public var actionsChecked: Int
  /// The action types that fail, by first seq.
  public var failingTypes: [FailingType]
  /// How many states were decoded.
  public var statesChecked: Int
  /// The states that fail, in file order.
  public var failingStates: [FailingState]

  /// Whether a line of a log opened without checking each line's JSON
  /// (``ReaderLimits/checksJSONAtOpen``) turned out not to be JSON: the check is then to be run
  /// again on the log opened with the check, whose open reports that line (where, and why).
  /// Always `false` for a log opened with it.
  public var hasUncheckedInvalidLine: Bool

  /// A report.
  public init(
    actionsChecked: Int, failingTypes: [FailingType], statesChecked: Int,
    failingStates: [FailingState], hasUncheckedInvalidLine: Bool = false
  ) {
    self.actionsChecked = actionsChecked
    self.failingTypes = failingTypes
    self.statesChecked = statesChecked
    self.failingStates = failingStates
    self.hasUncheckedInvalidLine = hasUncheckedInvalidLine
  }

  /// Whether every action and state decodes.
  public var isCompatible: Bool { failingTypes.isEmpty && failingStates.isEmpty }

  /// How many action lines fail.
  public var failingActions: Int { failingTypes.reduce(0) { $0 + $1.count } }
}

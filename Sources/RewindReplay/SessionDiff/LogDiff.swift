import RewindJSON

/// The comparison of two recorded sessions of one app: their action sequences aligned (Myers'
/// difference algorithm over the encoded actions), where they first diverge, and — when the app's
/// reducer is known — the state differences at the divergence and at the end.
public struct LogDiff: Sendable {
  /// A stretch where the sessions differ: actions only in A and actions only in B.
  public struct Hunk: Sendable, Equatable {
    /// Seqs of A's actions in this stretch (empty when B only inserted actions).
    public var seqsInA: ClosedRange<Int>?
    /// Seqs of B's actions in this stretch.
    public var seqsInB: ClosedRange<Int>?
    /// The seq in A before which the stretch sits (for an insertion in B).
    public var beforeA: Int
    /// The seq in B before which the stretch sits (for a removal from A).
    public var beforeB: Int
  }

  /// The two logs.
  public let a: ReplayLog
  /// The second log.
  public let b: ReplayLog
  /// The stretches that differ, in order.
  public let hunks: [Hunk]
  /// The state difference right after the first differing stretch — A's state after its side
  /// of it → B's after its own (``divergencePositions``) — when the reducer is known.
  public let divergenceChanges: StateChanges?
  /// The positions whose states ``divergenceChanges`` compares: the last action of each side's
  /// first differing stretch (the position before it, for a side with none), or `nil`.
  public let divergencePositions: (a: Int, b: Int)?
  /// The difference between the final states (A → B), when the reducer is known.
  public let finalChanges: StateChanges?
  /// Whether states were compared (the reducer was known).
  public let comparedStates: Bool
  /// Where the app's reducer crashed replaying A, if it did: A's states are then compared up to
  /// the last good position before it.
  public let crashA: CrashReport?
  /// The same for B.
  public let crashB: CrashReport?

  /// Whether the sessions are equivalent: the same actions, and (when compared) the same final
  /// state, and the reducer crashes on neither or on the same action of both.
  public var isEquivalent: Bool {
    hunks.isEmpty && finalChanges == nil && !initialStatesDiffer && crashA?.seq == crashB?.seq
  }

  /// Whether the sessions start from different initial states (their headers' states differ).
  public var initialStatesDiffer: Bool { initialChanges != nil }

  /// The changes from A's initial state to B's (the headers' states), or `nil` when they are
  /// equal.
  public let initialChanges: StateChanges?

  /// The seqs (in A and in B) of the first actions that differ, or `nil` when the action
  /// sequences are equal.
  public var firstDivergence: (a: Int, b: Int)? {
    guard let hunk = hunks.first else { return nil }
    return (hunk.seqsInA?.lowerBound ?? hunk.beforeA, hunk.seqsInB?.lowerBound ?? hunk.beforeB)
  }

  /// Compares two logs.
  ///
  /// - Parameters:
  ///   - timelines: The two timelines, when this binary knows the app; `nil` compares actions
  ///     only.
  /// - Throws: `ReplayError` when an action cannot be read or a state rebuilt.
  /// - Complexity: O((N+M)·D) action comparisons for logs of N and M actions that differ by D
  ///   insertions and removals, after hashing every action once; plus the replays to the
  ///   divergence and the end when states are compared.
  public init(
    _ a: ReplayLog, _ b: ReplayLog, timelines: (any ReplayTimeline, any ReplayTimeline)?
  ) throws(ReplayError) {
    self.a = a
    self.b = b
    let hunks = try ReplayLog.actionHunks(a, b)
    self.hunks = hunks.map { hunk in
      Hunk(
        seqsInA: hunk.old.isEmpty
          ? nil : (a.firstSeq + hunk.old.lowerBound)...(a.firstSeq + hunk.old.upperBound - 1),
        seqsInB: hunk.new.isEmpty
          ? nil : (b.firstSeq + hunk.new.lowerBound)...(b.firstSeq + hunk.new.upperBound - 1),
        beforeA: a.firstSeq + hunk.old.lowerBound, beforeB: b.firstSeq + hunk.new.lowerBound)
    }
    comparedStates = timelines != nil
    initialChanges = try Self.initialChanges(a.header, b.header)
    var crashes: (a: CrashReport?, b: CrashReport?) = (nil, nil)
    if let (timelineA, timelineB) = timelines {
      if let first = self.hunks.first {
        let positionA = min(first.seqsInA?.upperBound ?? (first.beforeA - 1), a.lastSeq)
        let positionB = min(first.seqsInB?.upperBound ?? (first.beforeB - 1), b.lastSeq)
        divergencePositions = (positionA, positionB)
        divergenceChanges = try Self.changes(
          timelineA, at: positionA, crash: &crashes.a, timelineB, at: positionB,
          crash: &crashes.b)
      } else {
        divergencePositions = nil
        divergenceChanges = nil
      }
      finalChanges = try Self.changes(
        timelineA, at: a.lastSeq, crash: &crashes.a, timelineB, at: b.lastSeq, crash: &crashes.b)
    } else {
      divergencePositions = nil
      divergenceChanges = nil
      finalChanges = nil
    }
    (crashA, crashB) = crashes
  }

  /// The changes from `a`'s state to `b`'s, found from their texts (neither built as a tree)
  /// when the headers hold them as text, or `nil` when they are equal.
  private static func initialChanges(
    _ a: LogHeader, _ b: LogHeader
  ) throws(ReplayError) -> StateChanges? {
    if let textA = a.stateText, let textB = b.stateText {
      return try StateChanges(from: textA, to: textB, what: "initial states")
    }
    return StateChanges(JSONDiff.diff(a.state, b.state))
  }

  /// The changes from A's state at `positionA` to B's at `positionB` (``state(at:crash:_:)``
  /// each), or `nil` when they are equal, found from the states' encoded texts: neither is built
  /// as a tree, which for a large state costs many times its text.
  private static func changes(
    _ timelineA: any ReplayTimeline, at positionA: Int, crash crashA: inout CrashReport?,
    _ timelineB: any ReplayTimeline, at positionB: Int, crash crashB: inout CrashReport?
  ) throws(ReplayError) -> StateChanges? {
    let (textA, atA) = try state(at: positionA, crash: &crashA) {
      (position) throws(ReplayError) in try timelineA.stateJSONText(at: position)
    }
    let (textB, atB) = try state(at: positionB, crash: &crashB) {
      (position) throws(ReplayError) in try timelineB.stateJSONText(at: position)
    }
    return try StateChanges(
      from: StateText(textA), to: StateText(textB), what: "states at \(atA) and \(atB)")
  }

  /// `read`'s result for the state at `position`, or — when the reducer crashes on the way —
  /// for the last good state before the crash, which `crash` then reports; with the position
  /// read.
  private static func state<T>(
    at position: Int, crash: inout CrashReport?, _ read: (Int) throws(ReplayError) -> T
  ) throws(ReplayError) -> (T, Int) {
    if let crash, let lastGood = crash.lastGood, position > lastGood {
      return (try read(lastGood), lastGood)
    }
    do {
      return (try read(position), position)
    } catch {
      guard case .reducerCrashed(let report) = error, let lastGood = report.lastGood,
        lastGood < position
      else { throw error }
      crash = report
      return (try read(lastGood), lastGood)
    }
  }
}

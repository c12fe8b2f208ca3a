import Rewind

extension Timeline {
  /// How long the app's reducer takes on each action from the first through `last`: the log
  /// replayed from its initial state `passes` times, each action's time the least of them.
  ///
  /// Only the reducer's call is timed, on the recorder's clock (``RecordingClock``: the CPU's
  /// constant-rate counter where it has one). The walk keeps no other reference to the state —
  /// no cache, no cursor, a freshly decoded initial state each pass — so that a reducer's first
  /// change to a copy-on-write buffer never copies it inside the timed call. Decoding each action
  /// happens before its timing starts. The timeline's cursor and caches are left as they were.
  ///
  /// - Parameters:
  ///   - last: The seq of the last action timed (an earlier one than the log's last, to leave
  ///     out an action known to crash the reducer).
  ///   - passes: How many times to replay (at least 1).
  /// - Throws: `ReplayError.positionOutOfRange` when `last` is past the log's end; what
  ///   decoding the initial state or an action throws.
  /// - Complexity: `passes` reductions of every action through `last`.
  public func reductionTimes(through last: Int, passes: Int) throws(ReplayError)
    -> ReductionTimes
  {
    let first = positions.lowerBound + 1
    guard last <= positions.upperBound else {
      throw .positionOutOfRange(last, valid: positions)
    }
    let passes = max(1, passes)
    guard last >= first else {
      return ReductionTimes(first: first, nanoseconds: [], passes: passes)
    }
    var least = [UInt64](repeating: ReductionTimes.notReduced, count: last - first + 1)
    var clock = RecordingClock(source: SystemClockSource())
    let total = passes * least.count
    let reportsProgress = progress != nil && total > 4096
    var done = 0
    let marks = StepMarker.claim()
    defer { if marks { StepMarker.release() } }
    for _ in 0..<passes {
      var state = try decodedInitialState()
      for seq in first...last {
        done += 1
        if reportsProgress, done & 4095 == 0 { progress?(done, total) }
        if !skippedSeqs.isEmpty && skippedSeqs.contains(seq) { continue }
        guard try decodeToApply(seq, marks: marks) else { continue }
        let action = actionSlot.move()
        let start = clock.now()
        reducer.reduce(&state, action)
        let elapsed = clock.now() &- start
        let index = seq - first
        if elapsed < least[index] { least[index] = elapsed }
      }
    }
    if reportsProgress { progress?(total, total) }
    return ReductionTimes(first: first, nanoseconds: least, passes: passes)
  }

  /// ``reductionTimes(through:passes:)`` made into an ``ActionProfile``.
  /// - Throws: What ``reductionTimes(through:passes:)`` throws.
  public func actionProfile(through last: Int, passes: Int, top: Int, type: String?)
    throws(ReplayError) -> ActionProfile
  {
    try ActionProfile(
      try reductionTimes(through: last, passes: passes), log: log, top: top, type: type)
  }

  /// Decodes the action `seq` into ``actionSlot`` as a rebuild would apply it; `false` when it
  /// was not recorded (nothing to apply, the slot left empty).
  private func decodeToApply(_ seq: Int, marks: Bool) throws(ReplayError) -> Bool {
    if let line = lines.action(
      Action.self, seq: seq, in: log, direct: directAction, into: actionSlot)
    {
      if marks { StepMarker.willApply(seq: seq, type: line.type.string, line: line.line) }
      return true
    }
    try throwLastFailure(seq: seq)
    let record = try log.action(at: seq)
    guard record.status == .recorded, let payload = record.payload else { return false }
    actionSlot.initialize(to: try decodeAction(payload, record: record))
    if marks { StepMarker.willApply(seq: seq, type: record.type, line: record.line) }
    return true
  }
}

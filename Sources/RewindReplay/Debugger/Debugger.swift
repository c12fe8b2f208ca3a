import RewindJSON

/// A debugger over one log, for any front end: the cursor, the watchpoints and breakpoints, the
/// skipped actions, and what happens when the app's reducer crashes on the way. Every operation
/// returns a typed result (``Motion``, ``Stop``) or throws a typed ``DebuggerError``; the REPL,
/// the TUI and later front ends render those, and none reads another's text.
public final class Debugger {
  /// Where a move ended.
  public enum Motion: Sendable {
    /// At the target.
    case moved(to: Int)
    /// The app's reducer crashed on an action before the target: the cursor is at the last good
    /// position before it.
    case crashed(CrashReport, landedAt: Int)

    /// The crash met on the way, if any.
    public var crash: CrashReport? {
      guard case .crashed(let report, _) = self else { return nil }
      return report
    }
  }

  /// Where `continue` or `reverse-continue` stopped, and why.
  public enum Stop: Sendable {
    /// At `position`, because these watchpoints and breakpoints triggered (id, and a line on
    /// what happened: `todos.count: 3 → 4`).
    case breakpoints(position: Int, reasons: [(id: Int, text: String)])
    /// At the end (forward) or start (backward) of the log, with nothing triggered on the way.
    case boundary(position: Int, direction: TimelineSearch.Direction)
    /// The app's reducer crashed on the way: the cursor is at the last good position.
    case crashed(CrashReport, landedAt: Int)

    /// The crash met on the way, if any.
    public var crash: CrashReport? {
      guard case .crashed(let report, _) = self else { return nil }
      return report
    }

    /// The position the cursor is at after the stop.
    public var position: Int {
      switch self {
      case .breakpoints(let position, _), .boundary(let position, _): return position
      case .crashed(_, let landedAt): return landedAt
      }
    }
  }

  /// The log.
  public let log: ReplayLog
  /// The timeline, when the app's reducer is known (else only recorded states and actions).
  public let timeline: (any ReplayTimeline)?
  /// The cursor: the position whose state is shown.
  public private(set) var position: Int
  /// The watchpoints and breakpoints, in the order set, with their ids.
  public private(set) var breakpoints: [(id: Int, breakpoint: Breakpoint)] = []
  private var nextBreakpointID = 1
  /// ``ReplayLog/causeLinks()``, read the first time a cause is asked for.
  var cachedCauseLinks: CauseLinks?

  /// A debugger over `log`, at its first position — or, in a file whose initial state never came
  /// (``ReplayLog/isInitialStateMissing``), at its first checkpoint, the first state known.
  public init(log: ReplayLog, timeline: (any ReplayTimeline)?) {
    self.log = log
    self.timeline = timeline
    position =
      log.isInitialStateMissing
      ? log.checkpointSeqs.first { log.positions.contains($0) } ?? log.positions.lowerBound
      : log.positions.lowerBound
  }

  /// The timeline, or why there is none.
  public func requireTimeline() throws(DebuggerError) -> any ReplayTimeline {
    guard let timeline else { throw .noReducer }
    return timeline
  }

  // MARK: Moving

  /// Moves the cursor to `target`, rebuilding the state there; when an action on the way crashes
  /// the app's reducer, to the last good position before it.
  public func move(to target: Int) throws(DebuggerError) -> Motion {
    guard log.positions.contains(target) else {
      throw .positionOutOfRange(target, valid: log.positions)
    }
    if let timeline {
      do { try timeline.reach(target) } catch {
        return try landBeforeCrash(error, target: target)
      }
    }
    position = target
    return .moved(to: target)
  }

  /// Puts the cursor at `target` without rebuilding the state there: for a viewer that stands on
  /// a position whose state it does not rebuild — an action at or after one that crashes the
  /// app's reducer (its crash is shown instead), or the last action of a cut-off log that the
  /// user has not yet asked to rebuild in this process.
  public func place(at target: Int) throws(DebuggerError) {
    guard log.positions.contains(target) else {
      throw .positionOutOfRange(target, valid: log.positions)
    }
    position = target
  }

  /// Takes over `other`'s watchpoints, breakpoints and cursor (the cursor where this log has
  /// that position, else its last): for a front end that reopens a log that grew (`replay
  /// listen`), so that the session goes on where it was.
  public func adopt(_ other: Debugger) {
    breakpoints = other.breakpoints
    nextBreakpointID = other.nextBreakpointID
    position = min(max(other.position, log.positions.lowerBound), log.positions.upperBound)
  }

  /// The position `text` names in `log`: a number, `first` (or `start`), or `last` (or `end`).
  /// Every front end reads a position the user typed here.
  /// - Throws: ``DebuggerError/notAPosition(_:valid:)``, or
  ///   ``DebuggerError/positionOutOfRange(_:valid:)`` for a number outside the log.
  public static func position(_ text: String, in log: ReplayLog) throws(DebuggerError) -> Int {
    let range = log.positions
    switch text {
    case "first", "start": return range.lowerBound
    case "last", "end": return range.upperBound
    default:
      guard let n = Int(text) else { throw .notAPosition(text, valid: range) }
      guard range.contains(n) else { throw .positionOutOfRange(n, valid: range) }
      return n
    }
  }

  /// Moves `delta` positions (clamped to the log's), forward or backward.
  public func step(by delta: Int) throws(DebuggerError) -> Motion {
    let range = log.positions
    if delta > 0 && position == range.upperBound { throw .atLastPosition(range.upperBound) }
    if delta < 0 && position == range.lowerBound { throw .atFirstPosition(range.lowerBound) }
    // Clamped without overflow: `next 9223372036854775807` goes to the last position.
    let target =
      delta >= 0
      ? (delta >= range.upperBound - position ? range.upperBound : position + delta)
      : (-delta >= position - range.lowerBound ? range.lowerBound : position + delta)
    return try move(to: target)
  }

  /// For an error met on the way to `target`: a crash of the app's reducer at an action before
  /// `target` lands the cursor on the last good position before it; any other error is thrown.
  private func landBeforeCrash(_ error: ReplayError, target: Int) throws(DebuggerError) -> Motion {
    guard case .reducerCrashed(let report) = error, let lastGood = report.lastGood,
      log.positions.contains(lastGood), lastGood < target, let timeline
    else { throw .replay(error) }
    do { try timeline.reach(lastGood) } catch { throw .replay(error) }
    position = lastGood
    return .crashed(report, landedAt: lastGood)
  }

  // MARK: Watchpoints and breakpoints

  /// Sets a watchpoint on `path`: `continue` stops where the value there changes.
  /// - Returns: Its id, and the value at the cursor (`nil` when absent there).
  public func watch(_ path: JSONPath) throws(DebuggerError) -> (
    id: Int, value: Result<JSONValue, StatePathError>
  ) {
    let timeline = try requireTimeline()
    let current: JSONValue
    do { current = try timeline.stateJSON(at: position) } catch { throw .replay(error) }
    let value: Result<JSONValue, StatePathError>
    do throws(StatePathError) { value = .success(try current.value(at: path)) } catch {
      value = .failure(error)
    }
    return (add(.watch(path)), value)
  }

  /// Sets a breakpoint; a condition needs the app's reducer.
  /// - Returns: Its id.
  public func addBreakpoint(_ breakpoint: Breakpoint) throws(DebuggerError) -> Int {
    if case .condition = breakpoint { _ = try requireTimeline() }
    return add(breakpoint)
  }

  private func add(_ breakpoint: Breakpoint) -> Int {
    let id = nextBreakpointID
    nextBreakpointID += 1
    breakpoints.append((id, breakpoint))
    return id
  }

  /// Deletes the watchpoint or breakpoint `id`.
  public func deleteBreakpoint(_ id: Int) throws(DebuggerError) {
    guard let index = breakpoints.firstIndex(where: { $0.id == id }) else {
      throw .noSuchBreakpoint(String(id), ids: breakpoints.map(\.id))
    }
    breakpoints.remove(at: index)
  }

  /// Deletes every watchpoint and breakpoint; returns how many there were.
  public func deleteAllBreakpoints() -> Int {
    defer { breakpoints.removeAll() }
    return breakpoints.count
  }

  /// Runs forward or backward to the next position where a watchpoint or breakpoint triggers,
  /// else to the end or start of the log.
  public func continueRun(_ direction: TimelineSearch.Direction) throws(DebuggerError) -> Stop {
    guard !breakpoints.isEmpty else { throw .nothingToStopAt }
    if breakpoints.contains(where: {
      if case .actionType = $0.breakpoint { return false } else { return true }
    }) {
      _ = try requireTimeline()
    }
    return try search(direction)
  }

  private func search(_ direction: TimelineSearch.Direction) throws(DebuggerError) -> Stop {
    let hit: TimelineSearch.Hit?
    if let timeline {
      do {
        hit = try TimelineSearch.run(
          timeline, from: position, direction: direction, breakpoints: breakpoints)
      } catch {
        let motion = try landBeforeCrash(error, target: log.positions.upperBound)
        if case .crashed(let report, let landedAt) = motion {
          return .crashed(report, landedAt: landedAt)
        }
        return .boundary(position: position, direction: direction)
      }
    } else {
      hit = try typeOnlySearch(direction)
    }
    guard let hit else {
      let end = direction == .forward ? log.positions.upperBound : log.positions.lowerBound
      if position != end {
        if case .crashed(let report, let landedAt) = try move(to: end) {
          return .crashed(report, landedAt: landedAt)
        }
      }
      return .boundary(position: end, direction: direction)
    }
    if case .crashed(let report, let landedAt) = try move(to: hit.position) {
      return .crashed(report, landedAt: landedAt)
    }
    return .breakpoints(position: hit.position, reasons: hit.reasons)
  }

  /// Searches type breakpoints through the log alone (no reducer needed).
  private func typeOnlySearch(_ direction: TimelineSearch.Direction) throws(DebuggerError)
    -> TimelineSearch.Hit?
  {
    let names = breakpoints.compactMap { entry -> (Int, String)? in
      if case .actionType(let name) = entry.breakpoint { return (entry.id, name) }
      return nil
    }
    let seqs: StrideThrough<Int> =
      direction == .forward
      ? stride(from: max(position + 1, log.firstSeq), through: log.lastSeq, by: 1)
      : stride(from: position - 1, through: log.firstSeq, by: -1)
    for seq in seqs {
      var reasons: [(id: Int, text: String)] = []
      for (id, name) in names {
        let matches: Bool
        do { matches = try log.action(at: seq, isOfType: name) } catch { throw .replay(error) }
        if matches { reasons.append((id, "action \(seq) is a '\(name)'")) }
      }
      if !reasons.isEmpty { return TimelineSearch.Hit(position: seq, reasons: reasons) }
    }
    return nil
  }

  // MARK: Skipping

  /// Replays as if the action `seq` had (`true`) or had not (`false`) been skipped.
  /// - Returns: How many actions are skipped now.
  public func setSkipped(_ seq: Int, _ isSkipped: Bool) throws(DebuggerError) -> Int {
    let timeline = try requireTimeline()
    guard log.actionCount > 0, (log.firstSeq...log.lastSeq).contains(seq) else {
      throw .noSuchAction(seq, valid: log.actionCount > 0 ? log.firstSeq...log.lastSeq : nil)
    }
    if !isSkipped && !timeline.skippedSeqs.contains(seq) { throw .notSkipped(seq) }
    if isSkipped && timeline.skippedSeqs.contains(seq) { throw .alreadySkipped(seq) }
    timeline.setSkipped(seq, isSkipped)
    return timeline.skippedSeqs.count
  }
}

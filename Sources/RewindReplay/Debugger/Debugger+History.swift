import RewindJSON

/// The "why" questions about one value: every action that changed it (`history`), and the last
/// ones that set it (`blame`).
extension Debugger {
  /// What ``history(of:from:through:limit:)`` found, and where rebuilding stopped short.
  public struct HistoryResult: Sendable {
    /// The changes found.
    public var history: ValueHistory
    /// The crash of the app's reducer that ended the walk before the end asked for: the
    /// history runs up to the last good position before it.
    public var crash: CrashReport?
  }

  /// Every action from position `first` through `last` (the first and last positions when
  /// `nil`) that changed the value at `path` or anything under it, oldest first, at most `limit`:
  /// one pass over the timeline (in its worker when isolated), never a search per change. A
  /// crash of the app's reducer on the way ends the history before it, and is returned with it.
  /// - Throws: `.noReducer`; `.positionOutOfRange`; `.replay` when a state cannot be rebuilt.
  public func history(
    of path: JSONPath, from first: Int? = nil, through last: Int? = nil, limit: Int? = nil
  ) throws(DebuggerError) -> HistoryResult {
    let timeline = try requireTimeline()
    let first = first ?? log.positions.lowerBound
    let last = last ?? log.positions.upperBound
    for position in [first, last] where !log.positions.contains(position) {
      throw .positionOutOfRange(position, valid: log.positions)
    }
    guard first <= last else {
      throw .replay(.positionOutOfRange(first, valid: log.positions.lowerBound...last))
    }
    do {
      return HistoryResult(
        history: try timeline.valueHistory(of: path, from: first, through: last, limit: limit),
        crash: nil)
    } catch {
      guard case .reducerCrashed(let report) = error, let seq = report.seq, seq > first else {
        throw .replay(error)
      }
      do {
        return HistoryResult(
          history: try timeline.valueHistory(
            of: path, from: first, through: seq - 1, limit: limit),
          crash: report)
      } catch {
        throw .replay(error)
      }
    }
  }

  /// The last action up to the cursor that set the value at `path`, and the one before it
  /// (oldest first; fewer when the value changed less often): ``history(of:from:through:limit:)``
  /// from the first position to the cursor, keeping its last two changes.
  public func blame(_ path: JSONPath) throws(DebuggerError) -> HistoryResult {
    var result = try history(of: path, through: position)
    result.history.changes = Array(result.history.changes.suffix(2))
    return result
  }
}

import RewindJSON

/// Searching inside the state: at the cursor (every key or value that matches), and across time
/// (the next or previous position where the state starts or stops having a match).
extension Debugger {
  /// What matches in the state at the cursor.
  public struct StateSearchResult: Sendable {
    /// The position searched.
    public var position: Int
    /// The matches, in document order.
    public var matches: [StateMatch]
    /// Whether there were more than the limit.
    public var isTruncated: Bool
  }

  /// Where a search across time moved the cursor: the motion, and whether a match appeared
  /// there (`false`: the last match went away).
  public struct StateSearchMotion: Sendable {
    /// The move (`.crashed` when the app's reducer crashed before the state changed).
    public var motion: Motion
    /// Whether the state has a match where the cursor landed.
    public var isPresent: Bool
  }

  /// Every key or value in the state at the cursor that matches `query`, at most `limit`.
  /// - Throws: What reading the state throws.
  public func searchState(_ query: StateQuery, limit: Int = 200) throws(DebuggerError)
    -> StateSearchResult
  {
    let text = try Self.stateText(of: log, timeline: timeline, at: position)
    let state: JSONValue
    do { state = try JSONParser.parse(text, limits: .unlimited) } catch {
      throw .replay(.encodingFailed(what: "state at position \(position)", reason: "\(error)"))
    }
    let matches = query.matches(in: state, limit: limit + 1)
    return StateSearchResult(
      position: position, matches: Array(matches.prefix(limit)),
      isTruncated: matches.count > limit)
  }

  /// Moves to the next position (or, backward, the previous one) where having a match for
  /// `query` changes: forward, the action that made a match appear or the last one go; backward,
  /// the last position that still has what the cursor's state lacks (or lacks what it has). The
  /// states are read a batch at a time (one request of a worker each).
  /// - Throws: `.noReducer`; `.stateMatchUnchanged` when it never changes that way.
  public func searchState(_ query: StateQuery, _ direction: TimelineSearch.Direction)
    throws(DebuggerError) -> StateSearchMotion
  {
    let timeline = try requireTimeline()
    let start = position
    let here = query.isPresent(inText: try Self.stateText(of: log, timeline: timeline, at: start))
    let target: Int?
    do throws(ReplayError) {
      target = try timeline.presenceChange(
        of: query, from: start, direction: direction, isPresent: here)
    } catch {
      guard case .reducerCrashed(let report) = error, let seq = report.seq else {
        throw .replay(error)
      }
      // Lands before the crash, as a move there does.
      return StateSearchMotion(motion: try move(to: seq), isPresent: here)
    }
    guard let target else {
      throw .stateMatchUnchanged(query, direction, from: start, isPresent: here)
    }
    return StateSearchMotion(motion: try move(to: target), isPresent: !here)
  }
}

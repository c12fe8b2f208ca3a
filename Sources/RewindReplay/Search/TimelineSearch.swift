import RewindJSON

/// Runs a timeline forward or backward to the next position where a breakpoint stops it — the
/// engine of `continue` and `reverse-continue`.
public enum TimelineSearch {
  /// Which way to run.
  public enum Direction: Sendable {
    /// Toward the last action.
    case forward
    /// Toward the initial state.
    case backward
  }

  /// Where a search stopped and why.
  public struct Hit: Sendable, Equatable {
    /// The position: the state after the action that triggered.
    public var position: Int
    /// The ids of the breakpoints that triggered, with a line each saying what happened
    /// (`todos.count: 3 → 4`).
    public var reasons: [(id: Int, text: String)]

    /// Creates a hit.
    public init(position: Int, reasons: [(id: Int, text: String)]) {
      self.position = position
      self.reasons = reasons
    }

    /// Compares positions and reasons.
    public static func == (lhs: Hit, rhs: Hit) -> Bool {
      lhs.position == rhs.position && lhs.reasons.map(\.id) == rhs.reasons.map(\.id)
        && lhs.reasons.map(\.text) == rhs.reasons.map(\.text)
    }
  }

  /// The first position after (forward) or before (backward) `position` at which one of
  /// `breakpoints` triggers, or `nil` when none does before the end or start.
  ///
  /// A breakpoint triggers at position `q` (the state after action `q`): a watch when the value
  /// at its path differs between `q - 1` and `q` (missing counts as a value); a type breakpoint
  /// when action `q` has that type; a condition when it holds at `q` and did not at `q - 1`.
  /// - Complexity: One state per position scanned (none when only type breakpoints are set);
  ///   backward scans reuse the timeline's cached stretches, so they cost about one forward
  ///   pass over the range.
  public static func run(
    _ timeline: any ReplayTimeline, from position: Int, direction: Direction,
    breakpoints: [(id: Int, breakpoint: Breakpoint)]
  ) throws(ReplayError) -> Hit? {
    let log = timeline.log
    let first = log.positions.lowerBound + 1
    let last = log.positions.upperBound
    guard !breakpoints.isEmpty, first <= last else { return nil }
    let needsStates = breakpoints.contains {
      if case .actionType = $0.breakpoint { return false }
      return true
    }
    var memo: [Int: JSONValue] = [:]
    func state(_ q: Int) throws(ReplayError) -> JSONValue {
      if let known = memo[q] { return known }
      let value = try timeline.stateJSON(at: q)
      if memo.count > 4 { memo.removeAll(keepingCapacity: true) }
      memo[q] = value
      return value
    }
    let positions: [Int] =
      direction == .forward
      ? (position + 1 <= last ? Array(max(first, position + 1)...last) : [])
      : (position - 1 >= first ? Array((first...(position - 1)).reversed()) : [])
    for q in positions {
      var reasons: [(id: Int, text: String)] = []
      var after: JSONValue?
      var before: JSONValue?
      if needsStates {
        after = try state(q)
        before = try state(q - 1)
      }
      for (id, breakpoint) in breakpoints {
        switch breakpoint {
        case .actionType(let name):
          if try log.action(at: q, isOfType: name) {
            reasons.append((id, "action \(q) is a '\(name)'"))
          }
        case .watch(let path):
          guard let after, let before else { continue }
          let old = before.valueIfPresent(at: path)
          let new = after.valueIfPresent(at: path)
          if old != new {
            reasons.append((id, "\(path.sessionText): \(show(old)) → \(show(new))"))
          }
        case .condition(let path, let comparison, let value):
          guard let after, let before else { continue }
          let now = after.valueIfPresent(at: path).map { comparison.holds($0, value) } ?? false
          let then = before.valueIfPresent(at: path).map { comparison.holds($0, value) } ?? false
          if now && !then {
            reasons.append((id, "\(breakpoint) (now \(show(after.valueIfPresent(at: path))))"))
          }
        }
      }
      if !reasons.isEmpty { return Hit(position: q, reasons: reasons) }
    }
    return nil
  }

  private static func show(_ value: JSONValue?) -> String {
    guard let value else { return "(absent)" }
    let text = value.jsonText
    return text.count > 60 ? String(text.prefix(59)) + "…" : text
  }
}

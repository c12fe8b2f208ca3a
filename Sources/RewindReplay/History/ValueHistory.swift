import RewindJSON

/// Every action that changed the value at one path of the state, oldest first: what `history
/// PATH` lists and `blame PATH` takes the last two of.
///
/// Found in one pass over the timeline (``ReplayTimeline/valueHistory(of:from:through:limit:)``):
/// each state rebuilt once, the value at the path cut out of its text and compared with the one
/// before. A path with an identity step (`todos[id=42].title`) follows that element wherever it
/// moves. A change is any difference in the value's compact JSON, including the path starting or
/// ceasing to lead anywhere (an element added or removed).
public struct ValueHistory: Sendable, Codable, Equatable {
  /// One change: the action that made it, and the value before and after it.
  public struct Change: Sendable, Codable, Equatable {
    /// The seq of the action that changed the value (the position after it).
    public var seq: Int
    /// The value before the action, or `nil` where the path led nowhere.
    public var before: JSONValue?
    /// The value after the action, or `nil` where the path leads nowhere.
    public var after: JSONValue?

    /// A change made by action `seq`.
    public init(seq: Int, before: JSONValue?, after: JSONValue?) {
      self.seq = seq
      self.before = before
      self.after = after
    }

    /// The change as a diff, its paths relative to the value (`title: "a" → "b"` inside a todo;
    /// the root itself for a scalar, or for a value that appeared or went).
    public var changes: [JSONChange] {
      switch (before, after) {
      case (nil, let value?): return [.added(.root, value)]
      case (let value?, nil): return [.removed(.root, value)]
      case (let old?, let new?): return JSONDiff.diff(old, new) ?? []
      case (nil, nil): return []
      }
    }

    /// ``changes`` with `path` put in front of each change's path: the diff as the whole state
    /// shows it (`todos[id=42].title: "a" → "b"`).
    public func changes(under path: JSONPath) -> [JSONChange] {
      changes.map { change in
        switch change {
        case .added(let inner, let value):
          return .added(JSONPath(path.components + inner.components), value)
        case .removed(let inner, let value):
          return .removed(JSONPath(path.components + inner.components), value)
        case .changed(let inner, let old, let new):
          return .changed(JSONPath(path.components + inner.components), old: old, new: new)
        }
      }
    }
  }

  /// The path, as a session writes it.
  public var path: String
  /// The first position looked at: the value there is the starting value.
  public var from: Int
  /// The last position looked at (the walk's end, or where it stopped at the limit).
  public var through: Int
  /// The value at ``from``, or `nil` where the path led nowhere.
  public var initial: JSONValue?
  /// The changes, oldest first.
  public var changes: [Change]
  /// Whether the walk stopped at its limit of changes before ``through`` reached the end asked
  /// for.
  public var isTruncated: Bool

  /// A history of `path` over `from`…`through`.
  public init(
    path: String, from: Int, through: Int, initial: JSONValue?, changes: [Change],
    isTruncated: Bool
  ) {
    self.path = path
    self.from = from
    self.through = through
    self.initial = initial
    self.changes = changes
    self.isTruncated = isTruncated
  }

  /// Walks `timeline` from `first` through `last` in this process, state by state
  /// (``ReplayTimeline/valueText(at:path:)``), keeping each change of the value at `path`; stops
  /// after `limit` changes.
  /// - Throws: What rebuilding a state throws (a crash of the app's reducer, an action that no
  ///   longer decodes).
  public static func walk(
    _ timeline: any ReplayTimeline, of path: JSONPath, from first: Int, through last: Int,
    limit: Int?
  ) throws(ReplayError) -> ValueHistory {
    try collect(path, from: first, limit: limit) { (take) throws(ReplayError) in
      for position in first...last {
        guard take(position, try timeline.valueText(at: position, path: path)) else { return }
        if (position - first) % 4096 == 0 { timeline.progress?(position - first, last - first) }
      }
    }
  }

  /// The history of the values `walk` hands over, a position and the value's text (`nil`:
  /// nowhere) at a time, oldest first, starting at `first`; `take` returns `false` once `limit`
  /// changes are kept and a further one is met.
  package static func collect(
    _ path: JSONPath, from first: Int, limit: Int?,
    walk: (_ take: (Int, [UInt8]?) -> Bool) throws(ReplayError) -> Void
  ) throws(ReplayError) -> ValueHistory {
    var history = ValueHistory(
      path: path.sessionText, from: first, through: first, initial: nil, changes: [],
      isTruncated: false)
    var previous: [UInt8]?
    try walk { position, current in
      if position == first {
        previous = current
        history.initial = current.flatMap(Self.parse)
        return true
      }
      if current != previous {
        if let limit, history.changes.count >= limit {
          history.isTruncated = true
          return false
        }
        history.changes.append(
          Change(
            seq: position, before: previous.flatMap(Self.parse), after: current.flatMap(Self.parse))
        )
      }
      previous = current
      history.through = position
      return true
    }
    return history
  }

  /// The value of a compact JSON text cut out of a state.
  private static func parse(_ text: [UInt8]) -> JSONValue? {
    try? JSONParser.parse(text, limits: .unlimited)
  }
}

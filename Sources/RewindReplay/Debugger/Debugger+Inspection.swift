import RewindJSON

/// What a ``Debugger`` shows without moving: states and values, diffs, actions; and `find`,
/// which moves to the next action that matches.
extension Debugger {
  /// The state at `position` of `log`: rebuilt by `timeline` when there is one, else recorded
  /// (the header's initial state, or a checkpoint).
  /// - Throws: `.positionOutOfRange`; `.noReducer` when there is no timeline and no state was
  ///   recorded there; `.replay` when rebuilding or reading it fails.
  public static func state(
    of log: ReplayLog, timeline: (any ReplayTimeline)?, at position: Int
  ) throws(DebuggerError) -> JSONValue {
    guard log.positions.contains(position) else {
      throw .positionOutOfRange(position, valid: log.positions)
    }
    do throws(ReplayError) {
      if let timeline { return try timeline.stateJSON(at: position) }
      if position == log.positions.lowerBound {
        if log.isInitialStateMissing { throw log.initialStateError }
        return log.header.state
      }
      if let state = try log.checkpointState(at: position) { return state }
    } catch {
      throw .replay(error)
    }
    throw .noReducer
  }

  /// ``state(of:timeline:at:)`` as compact JSON text, encoded straight to bytes where the
  /// timeline can: a large state is never held as a `JSONValue` tree for it.
  /// - Throws: As ``state(of:timeline:at:)``.
  public static func stateText(
    of log: ReplayLog, timeline: (any ReplayTimeline)?, at position: Int
  ) throws(DebuggerError) -> [UInt8] {
    guard let timeline, log.positions.contains(position) else {
      return try state(of: log, timeline: timeline, at: position).serializedBytes
    }
    let text: [UInt8]
    do { text = try timeline.stateJSONText(at: position) } catch { throw .replay(error) }
    // A hand-built `JSONValue` in the state is written as it is; text that does not read back
    // as JSON fails as ``state(of:timeline:at:)`` fails for it.
    guard text.withUnsafeBytes({ JSONParser.firstError(in: $0, limits: .unlimited) }) == nil
    else { return try state(of: log, timeline: timeline, at: position).serializedBytes }
    return text
  }

  /// The state at `position` (the cursor's when `nil`).
  public func state(at position: Int? = nil) throws(DebuggerError) -> JSONValue {
    try Self.state(of: log, timeline: timeline, at: position ?? self.position)
  }

  /// The value at `path` in the state at `position` (the cursor's when `nil`).
  /// - Throws: `.badPath` when the path leads nowhere in that state.
  public func value(at path: JSONPath, position: Int? = nil) throws(DebuggerError) -> JSONValue {
    // Looked up in the state's text: only the value found is built as a tree.
    let text = try Self.stateText(of: log, timeline: timeline, at: position ?? self.position)
    do throws(StatePathError) { return try path.value(inText: text) } catch {
      throw .badPath(error)
    }
  }

  /// What changed from the state at `from` to the state at `to`.
  ///
  /// Found from the two states' texts (``stateText(of:timeline:at:)``): neither is built as a
  /// tree.
  public func diff(from: Int, to: Int) throws(DebuggerError) -> StateDiff {
    let old = try Self.stateText(of: log, timeline: timeline, at: from)
    let new = try Self.stateText(of: log, timeline: timeline, at: to)
    return StateDiff(
      from: from, to: to, changes: JSONDiff.diff(checkedOldText: old, checkedNewText: new))
  }

  /// The action that led to the cursor's position.
  /// - Throws: `.atInitialState` at the first position, which no action led to.
  public func actionHere() throws(DebuggerError) -> ActionDetail {
    guard position > log.positions.lowerBound else { throw .atInitialState(position) }
    return try action(at: position)
  }

  /// About `count` actions around the cursor (clamped to the log), for `list`.
  public func actions(around count: Int) throws(DebuggerError) -> ActionListing {
    guard log.actionCount > 0 else {
      return ActionListing(cursor: position, startsAtInitialState: false, actions: [], skipped: [])
    }
    let n = max(1, min(count, log.actionCount + 1))
    var first = max(log.firstSeq, position - n / 2)
    let last = min(log.lastSeq, first + n - 1)
    first = max(log.firstSeq, min(first, last - n + 1))
    var actions: [RecordedAction] = []
    for seq in first...last {
      do { actions.append(try log.action(at: seq)) } catch { throw .replay(error) }
    }
    let skips = timeline?.skippedSeqs ?? []
    return ActionListing(
      cursor: position, startsAtInitialState: position == log.positions.lowerBound,
      actions: actions, skipped: skips.intersection(first...last))
  }

  /// Moves to the next action (or, backward, the previous one) that matches `query`.
  /// - Throws: `.noMatch` with a type name close to the one asked for, when there is one.
  public func find(_ query: ActionQuery, _ direction: TimelineSearch.Direction)
    throws(DebuggerError) -> Motion
  {
    let seqs: StrideThrough<Int> =
      direction == .backward
      ? stride(from: position - 1, through: log.firstSeq, by: -1)
      : stride(from: max(position + 1, log.firstSeq), through: log.lastSeq, by: 1)
    for seq in seqs {
      let action: RecordedAction
      do { action = try log.action(at: seq) } catch { throw .replay(error) }
      if query.matches(action, in: log) { return try move(to: seq) }
    }
    var suggestion: String?
    if case .type(let name) = query {
      let known = knownActionTypes()
      if !known.contains(name) { suggestion = closestMatch(to: name, in: known.sorted()) }
    }
    throw .noMatch(query, direction, from: position, suggestion: suggestion)
  }

  /// Action types seen in a sample of the log (at most 64), for suggestions.
  public func knownActionTypes() -> Set<String> {
    var types: Set<String> = []
    var seq = log.firstSeq
    while seq <= log.lastSeq && types.count < 64 {
      if let type = try? log.actionType(at: seq) { types.insert(type) }
      seq += max(1, log.actionCount / 2000)
    }
    return types
  }
}

/// What changed between two positions' states.
public struct StateDiff: Sendable {
  /// The earlier position compared.
  public var from: Int
  /// The later position compared.
  public var to: Int
  /// The changes, in document order; `nil` when the states are equal.
  public var changes: [JSONChange]?

  /// What changed from the state at `from` to the state at `to`.
  public init(from: Int, to: Int, changes: [JSONChange]?) {
    self.from = from
    self.to = to
    self.changes = changes
  }

  /// The changes as an RFC 6902 JSON Patch: the JSON form of a diff everywhere (`diff --json`).
  public var jsonValue: JSONValue { JSONPatch(changes: changes).jsonValue }
}

/// The action that led to a position, as the debugger shows it.
public struct ActionDetail: Sendable {
  /// The action as recorded (and migrated, when the log is read through migrations).
  public var action: RecordedAction
  /// Whether the replay skips it (`skip`).
  public var isSkipped: Bool
  /// The action whose handling dispatched it, when recorded (``RecordedAction/cause``).
  public var cause: ActionReference?
  /// The actions it caused, oldest first (from the whole log's `cause` members).
  public var effects: [ActionReference] = []

  /// `action`, skipped or not by the replay.
  public init(action: RecordedAction, isSkipped: Bool) {
    self.action = action
    self.isSkipped = isSkipped
  }
}

/// Actions around the cursor, for `list`.
public struct ActionListing: Sendable {
  /// The cursor's position.
  public var cursor: Int
  /// Whether the cursor is at the initial state, which comes before the actions.
  public var startsAtInitialState: Bool
  /// The actions, in order.
  public var actions: [RecordedAction]
  /// The seqs of those actions that the replay skips (`skip`).
  public var skipped: Set<Int>
}

/// Which actions `find` looks for.
public enum ActionQuery: Sendable, Equatable {
  /// Actions whose type or payload text contains this text.
  case text(String)
  /// Actions of this type.
  case type(String)

  /// `type=NAME` is a type; anything else is text.
  public init(parsing text: String) {
    self = text.hasPrefix("type=") ? .type(String(text.dropFirst(5))) : .text(text)
  }

  /// The query as typed (`type=NAME` or the text).
  public var description: String {
    switch self {
    case .text(let text): return text
    case .type(let name): return "type=\(name)"
    }
  }

  /// Whether `action` of `log` matches: its type (``ReplayLog/action(_:isOfType:)``), or the
  /// text in its type or recorded JSON.
  package func matches(_ action: RecordedAction, in log: ReplayLog) -> Bool {
    switch self {
    case .type(let name): return log.action(action, isOfType: name)
    case .text(let text):
      return action.type?.contains(text) == true
        || action.payload.map { $0.jsonText.contains(text) } ?? false
    }
  }
}

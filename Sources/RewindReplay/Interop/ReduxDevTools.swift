import RewindJSON

/// Conversion between Rewind logs and the Redux DevTools extension's export format: the JSON its
/// Export button writes and its Import button reads — `{"payload": "<lifted state as a JSON
/// string>", "preloadedState": "<initial state as a JSON string>"}`, where the lifted state holds
/// `actionsById`, `computedStates`, `stagedActionIds`, `skippedActionIds`, `currentStateIndex`,
/// `nextActionId` and `committedState` (see `docs/interop.md` for the mapping).
public enum ReduxDevTools {
  /// The type of the lifted action that wraps every app action.
  static let performAction = "PERFORM_ACTION"
  /// The type DevTools gives the initial pseudo-action.
  static let initType = "@@INIT"
  /// The Redux `type` of an action whose Rewind encoding is not an enum case (`{"case": …}`).
  static let rawType = "@@rewind/raw"

  /// A Rewind action encoding as a Redux action: `{"add":{"title":"x"}}` → `{"type":"add",
  /// "payload":{"title":"x"}}`; a case without payload → `{"type":"clearCompleted"}`.
  public static func reduxAction(_ action: JSONValue) -> JSONValue {
    if case .object(let members) = action, members.count == 1 {
      var out = [JSONMember("type", .string(members[0].key))]
      if members[0].value != .object([]) { out.append(JSONMember("payload", members[0].value)) }
      return .object(out)
    }
    return .object([JSONMember("type", .string(rawType)), JSONMember("payload", action)])
  }

  /// A Redux action as a Rewind action encoding — the inverse of ``reduxAction(_:)``; for a
  /// JavaScript app, `{type, payload}` becomes `{"<type>": payload}` (`{}` when there is none).
  /// - Throws: ``InteropError`` when the value is not an object with a string `type`.
  public static func rewindAction(_ action: JSONValue, index: Int) throws(InteropError) -> JSONValue
  {
    guard case .object = action, let type = action["type"]?.stringValue else {
      throw InteropError("action \(index) is not an object with a string \"type\"")
    }
    if type == rawType { return action["payload"] ?? .null }
    return .object([JSONMember(type, action["payload"] ?? .object([]))])
  }

  /// The export document for a session.
  ///
  /// - Parameters:
  ///   - initialState: The state before the first action.
  ///   - actions: Each action's Rewind encoding, its state after it, and its time in
  ///     milliseconds since the Unix epoch.
  public static func export(
    initialState: JSONValue, actions: [(action: JSONValue, state: JSONValue, timestamp: Double)],
    startedAt: Double
  ) -> JSONValue {
    var byID = [
      JSONMember("0", liftedAction(.object([JSONMember("type", .string(initType))]), startedAt))
    ]
    var computed: [JSONValue] = [.object([JSONMember("state", initialState)])]
    var staged: [JSONValue] = [.number("0")]
    for (n, entry) in actions.enumerated() {
      byID.append(
        JSONMember(String(n + 1), liftedAction(reduxAction(entry.action), entry.timestamp)))
      computed.append(.object([JSONMember("state", entry.state)]))
      staged.append(.number(String(n + 1)))
    }
    let lifted = JSONValue.object([
      JSONMember("actionsById", .object(byID)),
      JSONMember("computedStates", .array(computed)),
      JSONMember("committedState", initialState),
      JSONMember("currentStateIndex", .number(String(actions.count))),
      JSONMember("nextActionId", .number(String(actions.count + 1))),
      JSONMember("skippedActionIds", .array([])),
      JSONMember("stagedActionIds", .array(staged)),
      JSONMember("isLocked", .bool(false)),
      JSONMember("isPaused", .bool(false)),
    ])
    return .object([
      JSONMember("payload", .string(lifted.jsonText)),
      JSONMember("preloadedState", .string(initialState.jsonText)),
    ])
  }

  private static func liftedAction(_ action: JSONValue, _ timestamp: Double) -> JSONValue {
    .object([
      JSONMember("type", .string(performAction)),
      JSONMember("action", action),
      JSONMember("timestamp", .number(formatMilliseconds(timestamp))),
    ])
  }

  static func formatMilliseconds(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    return String(Int64(value.rounded()))
  }

  /// A session read from an export document.
  public struct Session: Sendable {
    /// The state before the first action.
    public var initialState: JSONValue
    /// The actions (Rewind encodings), in order, with their computed states when present.
    public var actions: [(action: JSONValue, state: JSONValue?, timestamp: Double?)]
    /// How many actions were skipped (toggled off) in DevTools and left out.
    public var skippedCount: Int
  }

  /// Reads an export document (the `{"payload": "…"}` file, or a bare lifted state).
  /// - Throws: ``InteropError`` naming what is missing or malformed.
  public static func `import`(_ document: JSONValue) throws(InteropError) -> Session {
    var lifted = document
    if let payload = document["payload"] {
      guard let text = payload.stringValue else {
        throw InteropError("\"payload\" must be a string holding the lifted state's JSON")
      }
      do { lifted = try JSONParser.parse(text) } catch {
        throw InteropError("\"payload\" is not valid JSON: \(error.description)")
      }
    }
    guard case .object(let byID)? = lifted["actionsById"] else {
      throw InteropError("no \"actionsById\" object: not a Redux DevTools export")
    }
    let staged: [Int]
    if case .array(let ids)? = lifted["stagedActionIds"] {
      staged = ids.compactMap(\.intValue)
    } else {
      staged = byID.compactMap { Int($0.key) }.sorted()
    }
    var skipped: Set<Int> = []
    if case .array(let ids)? = lifted["skippedActionIds"] {
      skipped = Set(ids.compactMap(\.intValue))
    }
    var computed: [JSONValue] = []
    if case .array(let states)? = lifted["computedStates"] { computed = states }
    let initial =
      computed.first?["state"]
      ?? lifted["committedState"]
      ?? document["preloadedState"]?.stringValue.flatMap { try? JSONParser.parse($0) }
    guard let initial else {
      throw InteropError("no initial state: neither \"computedStates\" nor \"committedState\"")
    }
    var index: [String: JSONValue] = [:]
    for member in byID { index[member.key] = member.value }
    var actions: [(action: JSONValue, state: JSONValue?, timestamp: Double?)] = []
    for (position, id) in staged.enumerated() {
      guard let lifted = index[String(id)] else {
        throw InteropError("stagedActionIds names action \(id), which is not in actionsById")
      }
      let inner = lifted["action"] ?? lifted
      if inner["type"]?.stringValue == initType { continue }
      if skipped.contains(id) { continue }
      let state = position < computed.count ? computed[position]["state"] : nil
      actions.append((try rewindAction(inner, index: id), state, lifted["timestamp"]?.doubleValue))
    }
    return Session(initialState: initial, actions: actions, skippedCount: skipped.count)
  }
}

/// A Redux DevTools document that cannot be converted.
public struct InteropError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var description: String
  init(_ description: String) { self.description = description }
}

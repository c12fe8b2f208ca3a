import RewindJSON

/// Conversion between Rewind logs and what Redux DevTools writes and reads (`docs/interop.md`).
///
/// Export writes the *lifted state* of DevTools' instrumented store, bare — `actionsById`,
/// `stagedActionIds`, `skippedActionIds`, `computedStates`, `currentStateIndex`,
/// `nextActionId`, `committedState` — the one shape every import path of DevTools accepts (the
/// extension's Import button, a monitor's own import, `@redux-devtools/remote`). Import reads
/// that shape (bare, or as the JSON text in a `payload`) and the one the extension's Export
/// button writes for a Redux app: `{"payload": "<JSON text of an array of actions>",
/// "preloadedState": "<JSON text of the state>"}` (``ReduxDevTools/import(_:lenient:)``).
public enum ReduxDevTools {
  /// The type of the lifted action that wraps every app action.
  static let performAction = "PERFORM_ACTION"
  /// The type DevTools gives the initial pseudo-action.
  static let initType = "@@INIT"
  /// The Redux `type` of an action whose Rewind encoding is not an enum case (`{"case": …}`).
  static let rawType = "@@rewind/raw"

  /// A Rewind action encoding as a Redux action: `{"add":{"title":"x"}}` → `{"type":"add",
  /// "payload":{"title":"x"}}`; a case without payload → `{"type":"clearCompleted"}`; anything
  /// else → `{"type":"@@rewind/raw","payload":…}`.
  public static func reduxAction(_ action: JSONValue) -> JSONValue {
    if case .object(let members) = action, members.count == 1 {
      var out = [JSONMember("type", .string(members[0].key))]
      if members[0].value != .object([]) { out.append(JSONMember("payload", members[0].value)) }
      return .object(out)
    }
    return .object([JSONMember("type", .string(rawType)), JSONMember("payload", action)])
  }

  /// A Redux action as a Rewind action encoding, by the rule of `docs/interop.md`: its `type` is
  /// the case; a Flux Standard Action's `payload` (an object: the case's labelled values; any
  /// other value: its one unlabelled value, `_0`) or, for a classic action, every member but
  /// `type`, are its associated values.
  ///
  /// - Parameters:
  ///   - place: Where the action is, for messages (`payload[3]`, `actionsById["4"].action`).
  ///   - lenient: Whether an FSA's `meta` or `error: true`, which a Rewind action cannot hold, is
  ///     dropped with a warning (appended to `warnings`) instead of an error.
  /// - Throws: ``InteropError`` when the value is not an object with a string `type`, or would
  ///   lose data and `lenient` is off.
  public static func rewindAction(
    _ action: JSONValue, at place: String, lenient: Bool, warnings: inout [String]
  ) throws(InteropError) -> JSONValue {
    guard case .object(let members) = action, let type = action["type"]?.stringValue else {
      throw InteropError("\(place): not an action (an object with a string \"type\")")
    }
    if type == rawType { return action["payload"] ?? .null }
    let rest = members.filter { $0.key != "type" }
    let isStandard =
      action["payload"] != nil
      && rest.allSatisfy { ["payload", "meta", "error"].contains($0.key) }
    guard isStandard else {
      // A classic action: its data lies beside `type`.
      return .object([JSONMember(type, .object(rest))])
    }
    for member in rest where member.key != "payload" {
      if member.key == "error" && member.value == .bool(false) { continue }
      let what = "its \"\(member.key)\" (\(member.value.jsonText.prefix(60)))"
      guard lenient else {
        throw InteropError(
          "\(place) (type \"\(type)\"): \(what) has no place in a Rewind action, which keeps "
            + "only the case and its payload; --lenient drops it with a warning")
      }
      warnings.append("\(place) (type \"\(type)\"): \(what) dropped")
    }
    let payload = action["payload"] ?? .object([])
    if case .object = payload { return .object([JSONMember(type, payload)]) }
    return .object([JSONMember(type, .object([JSONMember("_0", payload)]))])
  }

  /// Writes the lifted state DevTools imports, for a session, as JSON text, a piece at a time:
  /// the states' texts are written into it as they are, never built as trees, and only one is
  /// asked for at a time, so a session of large states is never held whole.
  ///
  /// - Parameters:
  ///   - actions: Each action's Rewind encoding and its time in milliseconds since the Unix
  ///     epoch.
  ///   - startedAt: When the session started (the `@@INIT` action's time), in milliseconds since
  ///     the Unix epoch.
  ///   - state: The JSON text of the state at `index`: 0 is the state before the first action,
  ///     `n` the state after `actions[n - 1]`. Asked for in order, 0 through `actions.count`,
  ///     then 0 again (the document holds that state twice; asking again spares holding it).
  ///   - write: Takes the document's next bytes.
  /// - Throws: What `state` or `write` throws.
  public static func export<Failure: Error>(
    actions: [(action: JSONValue, timestamp: Double)], startedAt: Double,
    state: (_ index: Int) throws(Failure) -> [UInt8],
    write: (_ bytes: [UInt8]) throws(Failure) -> Void
  ) throws(Failure) {
    var byID = [
      JSONMember("0", liftedAction(.object([JSONMember("type", .string(initType))]), startedAt))
    ]
    var staged: [JSONValue] = [.number("0")]
    for (n, entry) in actions.enumerated() {
      byID.append(
        JSONMember(String(n + 1), liftedAction(reduxAction(entry.action), entry.timestamp)))
      staged.append(.number(String(n + 1)))
    }
    var head = Array(#"{"actionsById":"#.utf8)
    JSONValue.object(byID).write(into: &head)
    head.append(contentsOf: #","computedStates":[{"state":"#.utf8)
    try write(head)
    try write(state(0))
    let separator = Array(#"},{"state":"#.utf8)
    for index in actions.indices {
      try write(separator)
      try write(state(index + 1))
    }
    try write(Array(#"}],"committedState":"#.utf8))
    try write(state(0))
    // The other members, written as an object whose opening brace is a comma.
    var rest: [UInt8] = []
    JSONValue.object([
      JSONMember("currentStateIndex", .number(String(actions.count))),
      JSONMember("nextActionId", .number(String(actions.count + 1))),
      JSONMember("skippedActionIds", .array([])),
      JSONMember("stagedActionIds", .array(staged)),
      JSONMember("isLocked", .bool(false)),
      JSONMember("isPaused", .bool(false)),
    ]).write(into: &rest)
    rest[0] = UInt8(ascii: ",")
    try write(rest)
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
}

/// A Redux DevTools document that cannot be converted, or would lose data.
public struct InteropError: Error, Sendable, CustomStringConvertible {
  /// What is wrong, and where.
  public var description: String
  init(_ description: String) { self.description = description }
}

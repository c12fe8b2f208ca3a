import RewindJSON

extension ReduxDevTools {
  /// Which of DevTools' shapes a document was.
  public enum Shape: Sendable, Equatable {
    /// What the extension's Export button writes for a Redux app: the actions alone, and the
    /// state before them when the app had one (`preloadedState`). No states, ids or times.
    case actions
    /// The lifted state of DevTools' instrumented store: actions with ids and times, and the
    /// state after each (`computedStates`).
    case liftedState
  }

  /// A session read from a DevTools document.
  public struct Session: Sendable {
    /// Which shape the document was.
    public var shape: Shape
    /// The state before the first action, when the document has one (the lifted state's first
    /// computed state, or `preloadedState`).
    public var initialState: JSONValue?
    /// The actions (Rewind encodings), in order, with the state after each and its time in
    /// milliseconds since the Unix epoch, when the document has them.
    public var actions: [(action: JSONValue, state: JSONValue?, timestamp: Double?)]
    /// When the session started (the `@@INIT` action's time), in milliseconds since the Unix
    /// epoch, when the document says.
    public var startedAt: Double?
    /// How many actions were toggled off in DevTools and left out (lifted state only: the
    /// actions export writes toggled-off actions as ordinary ones).
    public var skippedCount: Int
    /// Computed states DevTools recorded an error for (the JavaScript reducer threw): their
    /// positions and messages. Their states are the ones before.
    public var reducerErrors: [(position: Int, message: String)]
    /// What `--lenient` let through: each dropped or replaced value and where.
    public var warnings: [String]
  }

  /// Reads a DevTools document: the actions export (`{"payload": "[…]", "preloadedState":
  /// "…"}`) or a lifted state (bare, or as the JSON text of `payload`). `jsan` markers are
  /// decoded (``JSANDecoding``).
  ///
  /// - Parameter lenient: Whether what a Rewind log cannot hold (an FSA's `meta`, `NaN`, a
  ///   function, a regular expression) is dropped or replaced with a warning rather than an error.
  /// - Throws: ``InteropError`` naming what is missing or malformed, or what would be lost, and
  ///   where (`payload[3]`, `computedStates[2].state.when`).
  public static func `import`(_ document: JSONValue, lenient: Bool = false) throws(InteropError)
    -> Session
  {
    var warnings: [String] = []
    var body = document
    var bodyName = "(document)"
    if let payload = document["payload"] {
      bodyName = "payload"
      body = try parseEmbedded(payload, name: "payload")
    }
    var jsan = JSANDecoding(root: body, name: bodyName, lenient: lenient)
    body = try jsan.decoded()
    warnings += jsan.warnings
    var preloaded: JSONValue?
    if let text = document["preloadedState"] {
      var state = JSANDecoding(
        root: try parseEmbedded(text, name: "preloadedState"), name: "preloadedState",
        lenient: lenient)
      preloaded = try state.decoded()
      warnings += state.warnings
    }
    if case .array(let list) = body {
      return try actionsExport(
        list, named: bodyName, preloaded: preloaded, lenient: lenient, warnings: warnings)
    }
    guard case .object(let byID)? = body["actionsById"] else {
      throw InteropError(
        "neither an actions export (\"payload\" holding an array of actions) nor a lifted state "
          + "(\"actionsById\"): not a Redux DevTools file")
    }
    return try liftedState(
      body, byID: byID, preloaded: preloaded, lenient: lenient, warnings: warnings)
  }

  /// `payload` and `preloadedState` hold JSON text; a document written by hand may hold the
  /// value itself.
  private static func parseEmbedded(_ value: JSONValue, name: String) throws(InteropError)
    -> JSONValue
  {
    guard let text = value.stringValue else { return value }
    do { return try JSONParser.parse(text) } catch {
      throw InteropError("\"\(name)\" is not valid JSON text: \(error.description)")
    }
  }

  /// An actions export whose array is `name` (`payload`, or the document itself).
  private static func actionsExport(
    _ list: [JSONValue], named name: String, preloaded: JSONValue?, lenient: Bool,
    warnings: [String]
  ) throws(InteropError) -> Session {
    var warnings = warnings
    var actions: [(action: JSONValue, state: JSONValue?, timestamp: Double?)] = []
    for (index, action) in list.enumerated() {
      if isReduxInternal(action) { continue }
      actions.append(
        (
          try rewindAction(action, at: "\(name)[\(index)]", lenient: lenient, warnings: &warnings),
          nil, nil
        ))
    }
    return Session(
      shape: .actions, initialState: preloaded, actions: actions, startedAt: nil, skippedCount: 0,
      reducerErrors: [], warnings: warnings)
  }

  private static func liftedState(
    _ lifted: JSONValue, byID: [JSONMember], preloaded: JSONValue?, lenient: Bool,
    warnings: [String]
  ) throws(InteropError) -> Session {
    var warnings = warnings
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
    let initial = computed.first?["state"] ?? lifted["committedState"] ?? preloaded
    var index: [String: JSONValue] = [:]
    for member in byID { index[member.key] = member.value }
    var actions: [(action: JSONValue, state: JSONValue?, timestamp: Double?)] = []
    var reducerErrors: [(position: Int, message: String)] = []
    var startedAt = index["0"]?["timestamp"]?.doubleValue
    for (position, id) in staged.enumerated() {
      guard let entry = index[String(id)] else {
        throw InteropError("stagedActionIds names action \(id), which is not in actionsById")
      }
      let place = "actionsById[\(JSONValue.string(String(id)).jsonText)]"
      let action = entry["action"] ?? entry
      if isReduxInternal(action) {
        if startedAt == nil { startedAt = entry["timestamp"]?.doubleValue }
        continue
      }
      if skipped.contains(id) { continue }
      let state = position < computed.count ? computed[position]["state"] : nil
      if position < computed.count, let error = computed[position]["error"] {
        reducerErrors.append((actions.count + 1, error.stringValue ?? error.jsonText))
      }
      actions.append(
        (
          try rewindAction(
            action, at: "\(place).action", lenient: lenient, warnings: &warnings),
          state, entry["timestamp"]?.doubleValue
        ))
    }
    return Session(
      shape: .liftedState, initialState: initial, actions: actions, startedAt: startedAt,
      skippedCount: skipped.count, reducerErrors: reducerErrors, warnings: warnings)
  }

  /// `@@INIT` and Redux's own `@@redux/INIT…` actions, which are not the app's.
  private static func isReduxInternal(_ action: JSONValue) -> Bool {
    guard let type = action["type"]?.stringValue else { return false }
    return type == initType || type.hasPrefix("@@redux/")
  }
}

import RewindJSON

/// Recording from stores other than Rewind's ``Store``: an app's own store (a `dispatch` that
/// mutates a published state), a TCA-style `reduce(into:action:)` that returns effects, and a
/// ReSwift-style store whose actions are separate types (``ActionCatalog``). docs/recording.md
/// has a recipe for each.
extension Recorder {
  /// Runs `reducer` on `state` with the recorder around it: the action is written before the
  /// reducer runs (so a trap leaves it as the log's last line) and the state is handed over
  /// after, for checkpoints and rotation. What the reducer returns (a TCA-style effect, say) is
  /// returned. The reducer is checked as it records (``RecordingOptions/determinismCheck``: a
  /// sampled action is reduced a second time, on a copy), and the first state is compared with
  /// the header's.
  ///
  /// ```swift
  /// func dispatch(_ action: AppAction) {
  ///   recorder.reduce(&state, action, with: appReducer.reduce)
  /// }
  /// ```
  ///
  /// With `origin`, the line says where the action came from, when the options record origins
  /// (``RecordingOptions/recordsOrigins``; docs/recording.md, "Where an action came from").
  @discardableResult
  public func reduce<Result>(
    _ state: inout State, _ action: Action, origin: ActionOrigin? = nil,
    with reducer: (inout State, Action) throws -> Result
  ) rethrows -> Result {
    if let origin { willReduce(action, origin: origin) } else { willReduce(action) }
    defer { didReduce(state) }
    // The state is not kept for a release without `close(finalState:)`: a copy held here would
    // make the app's next mutation of its state copy it whole (copy-on-write), which costs more
    // than recording does. (ReSwift's wrapper keeps it: its store holds the old state anyway.)
    return try reduceChecked(
      &state, keepsState: false, actionType: { Self.typeName(of: action) },
      reducing: { try reducer(&$0, action) })
  }
}

extension Recorder {
  /// Creates the log file for an app whose actions are the types of `catalog`, and starts
  /// recording (see ``init(path:app:initialState:options:actionSanitizer:stateSanitizer:onError:)``).
  ///
  /// ```swift
  /// let recorder = try Recorder(
  ///   path: path, app: "todo", initialState: AppState(), actions: TodoActions.self)
  /// ```
  public convenience init<Catalog: ActionCatalog>(
    path: String,
    app: String,
    initialState: State,
    actions catalog: Catalog.Type,
    options: RecordingOptions = RecordingOptions(),
    stateSanitizer: (@Sendable (State) -> State)? = nil,
    onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
  ) throws(RecorderError) where Action == CatalogAction<Catalog> {
    try self.init(
      path: path, app: app, initialState: initialState, options: options,
      actionSanitizer: nil, stateSanitizer: stateSanitizer, fileSystem: POSIXLogFileSystem(),
      onError: onError)
  }

  /// Records `action`, one of the catalog's types, as the next line: call it just before the
  /// reducer runs. An action of a type the catalog does not list is recorded as a `skipped` line
  /// (reason `unregistered`) and reported once through `onError`, naming the type to add.
  public func willReduce<Catalog>(_ action: Catalog.Base)
  where Action == CatalogAction<Catalog> {
    switch CatalogLookup.entry(of: action, in: Catalog.self) {
    case .success(let entry): willReduce(CatalogAction(action: action, entry: entry))
    case .failure(let problem): recordNext { core in core.recordUnrecordable(problem) }
    }
  }

  /// Wraps a reducer of the ReSwift shape, `(Action, State?) -> State`, so that every action it
  /// reduces is recorded first and every state it returns is handed to the recorder: give the
  /// result to the store in place of the reducer.
  ///
  /// ```swift
  /// let store = ReSwift.Store(reducer: recorder.recording(appReducer), state: AppState())
  /// ```
  ///
  /// A call with no state is the store's own initialization (ReSwift's `ReSwiftInit`, before
  /// any action of the app) and is not recorded: the log starts from the recorder's
  /// `initialState`, which must be the state the store starts from (the first action compares
  /// them, and reports a difference). The reducer is checked as it records
  /// (``RecordingOptions/determinismCheck``), and the last state it returned is the final
  /// checkpoint's when the recorder is closed or released.
  public func recording<Catalog>(
    _ reducer: @escaping (Catalog.Base, State?) -> State
  ) -> (Catalog.Base, State?) -> State where Action == CatalogAction<Catalog> {
    { action, state in
      guard var next = state else { return reducer(action, nil) }
      self.willReduce(action)
      self.reduceChecked(
        &next, actionType: { String(describing: type(of: action as Any)) },
        reducing: { $0 = reducer(action, $0) })
      self.didReduce(next)
      return next
    }
  }
}

extension Recorder {
  /// The log's `type` of `action` (an enum case's name), for a report.
  static func typeName(of action: Action) -> String {
    guard let data = try? RewindJSONEncoder().encode(action),
      let value = try? JSONParser.parse(data)
    else { return LogTypeName.of(Action.self) }
    return LogLineBuilder.typeName(of: value, fallback: LogTypeName.of(Action.self))
  }
}

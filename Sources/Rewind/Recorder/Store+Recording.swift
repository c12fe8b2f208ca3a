extension Store where State: Codable, Action: Codable {
  /// Starts recording every action that reaches the reducer to a new log file.
  ///
  /// The header holds the current state, taken atomically with attaching: no action can slip in
  /// between. The recorder sees each action after every middleware — whatever order middleware
  /// were added in — just before the reducer, so the log holds exactly what the reducer saw, and
  /// the line is written before the reducer runs.
  ///
  /// ```swift
  /// let recorder = try store.startRecording(to: "/tmp/session.jsonl", app: "todo")
  /// store.dispatch(.add(title: "Buy milk"))
  /// recorder.close()  // writes the end record; releasing the store or recorder also closes it
  /// ```
  /// - Parameters: See ``Recorder/init(path:app:initialState:options:actionSanitizer:stateSanitizer:onError:)``.
  /// - Returns: The recorder; keep it to close the log or read its status.
  /// - Throws: ``RecorderError`` when the file cannot be created.
  @discardableResult
  public func startRecording(
    to path: String,
    app: String,
    options: RecordingOptions = RecordingOptions(),
    actionSanitizer: (@Sendable (Action) -> Action)? = nil,
    stateSanitizer: (@Sendable (State) -> State)? = nil,
    onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
  ) throws(RecorderError) -> Recorder<State, Action> {
    try startRecording(
      to: path, app: app, options: options, actionSanitizer: actionSanitizer,
      stateSanitizer: stateSanitizer, fileSystem: POSIXLogFileSystem(), onError: onError)
  }

  /// Starts recording on an injected file layer (fault-injection tests).
  package func startRecording(
    to path: String,
    app: String,
    options: RecordingOptions,
    actionSanitizer: (@Sendable (Action) -> Action)?,
    stateSanitizer: (@Sendable (State) -> State)?,
    fileSystem: any LogFileSystem,
    onError: @escaping @Sendable (RecorderError) -> Void
  ) throws(RecorderError) -> Recorder<State, Action> {
    let (recorder, id) = try attachHooks { state throws(RecorderError) in
      let recorder = try Recorder(
        path: path, app: app, initialState: state, options: options,
        actionSanitizer: actionSanitizer, stateSanitizer: stateSanitizer,
        fileSystem: fileSystem, onError: onError)
      let hooks = ReduceHooks<State, Action>(
        willReduce: { recorder.willReduce($0, origin: $1) },
        didReduce: { recorder.didReduce($0) }, reduce: recorder.storeCheckHook)
      return (recorder, hooks)
    }
    recorder.setDetach { [weak self] in self?.detachHooks(id) }
    if options.liveViewer?.acceptsActions == true {
      // The viewer's actions take the store's own path, on the main queue as an app's do.
      recorder.onViewerAction { [weak self] action, origin in self?.dispatch(action, origin: origin)
      }
    }
    return recorder
  }
}

// The ReSwift recipe's glue (docs/recipes/reswift.md): the declarations after a `// glue`
// line are all an app adds. The file imports both packages; only ReSwift's `Store` is named,
// qualified.
import ReSwiftStandIn
import Rewind

/// Creates the app's store with a recorder around its reducer.
public func makeRecordedReSwiftStore(
  path: String, onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
) throws -> (
  ReSwiftStandIn.Store<ReSwiftTodoState>,
  Recorder<ReSwiftTodoState, CatalogAction<RecordedActions>>
) {
  // glue
  let recorder = try Recorder(
    path: path, app: "reswift-todo", initialState: ReSwiftTodoState(),
    actions: RecordedActions.self, onError: onError)
  // glue
  let store = ReSwiftStandIn.Store(reducer: recorder.recording(reSwiftTodoReducer), state: nil)
  return (store, recorder)
}

// glue
/// The reducer a replay target registers: `ReplayApp(name: "reswift-todo", reducer: …)`.
public let reSwiftTodoReplayReducer = RecordedActions.reducer(reSwiftTodoReducer)

// The Swidux recipe's glue (docs/recipes/swidux.md): the declarations after a `// glue` line
// are all an app adds or changes. The recorder goes around the reducer, as two reducers
// combined before and after the app's, so it records what the reducer sees after every
// middleware. The file imports both packages: Swidux's `Store` and Rewind's `Reducer` are named
// with their modules.
import Rewind
import SwiduxStandIn

/// Creates the app's store with a recorder around its reducer.
public func makeRecordedSwiduxStore(
  path: String, onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
) throws -> (
  SwiduxStandIn.Store<SwiduxTodoState>,
  Recorder<SwiduxTodoState, CatalogAction<RecordedActions>>
) {
  // glue
  let recorder = try Recorder(
    path: path, app: "swidux-todo", initialState: SwiduxTodoState(),
    actions: RecordedActions.self, onError: onError)
  // glue
  let store = SwiduxStandIn.Store(
    initialState: SwiduxTodoState(),
    reducer: .combine(reducers: [
      .init { _, action in recorder.willReduce(action) },
      swiduxTodoReducer,
      .init { state, _ in recorder.didReduce(state) },
    ]),
    middlewares: [swiduxCompletionMiddleware])
  return (store, recorder)
}

// glue
/// The reducer a replay target registers: `ReplayApp(name: "swidux-todo", reducer: …)`. Swidux
/// runs a reducer only in a store, so each action runs in a store of its own with no
/// middleware: every action a middleware dispatched was recorded when it reached the reducer,
/// so running middlewares on replay would apply them twice.
public let swiduxTodoReplayReducer = Rewind.Reducer<
  SwiduxTodoState, CatalogAction<RecordedActions>
> { state, recorded in
  let store = SwiduxStandIn.Store(initialState: state, reducer: swiduxTodoReducer)
  store.dispatch(recorded.action)
  state = store.getState()
}

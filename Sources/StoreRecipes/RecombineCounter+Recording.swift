// The Recombine recipe's glue (docs/recipes/recombine.md): the declarations after a `// glue`
// line are all an app adds or changes. The recorder goes around the reducer, so it records the
// refined actions the reducer sees, whichever side effect sent them. The file imports both
// packages: Recombine's `Store` and Rewind's `Reducer` are named with their modules.
import RecombineStandIn
import Rewind

/// Creates the app's store with a recorder around its reducer.
public func makeRecordedRecombineStore(
  path: String, facts: RecombineFactClient,
  onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
) throws -> (
  RecombineStandIn.Store<
    RecombineCounterState, RecombineCounterAction.Raw, RecombineCounterAction.Refined
  >,
  Recorder<RecombineCounterState, RecombineCounterAction.Refined>
) {
  // glue
  let recorder = try Recorder<RecombineCounterState, RecombineCounterAction.Refined>(
    path: path, app: "recombine-counter", initialState: RecombineCounterState(),
    onError: onError)
  // glue
  let store = RecombineStandIn.Store(
    state: RecombineCounterState(),
    reducer: MutatingReducer { state, action in
      recorder.reduce(&state, action, with: recombineCounterReducer.transform)
    },
    middleware: recombineCounterMiddleware(facts: facts))
  return (store, recorder)
}

// glue
/// The reducer a replay target registers: `ReplayApp(name: "recombine-counter", reducer: …)`.
/// The middleware is not in it: every action a side effect sent was recorded when it reached
/// the reducer, so running side effects on replay would apply them twice.
public let recombineCounterReplayReducer = Rewind.Reducer<
  RecombineCounterState, RecombineCounterAction.Refined
> { state, action in recombineCounterReducer.transform(&state, action) }

// The ReSwift recipe's glue (docs/recording.md, "ReSwift"): the declarations after a `// glue`
// line are all an app adds. The file imports both packages; only ReSwift's `Store` is named,
// qualified.
import ReSwiftStandIn
import Rewind

// glue
/// Every action type of the app, listed once.
public enum ReSwiftTodoActions: ActionCatalog {
  /// What the reducer takes.
  public typealias Base = any Action
  /// The action types.
  public static let types: [any (Codable & Sendable).Type] = [
    AddTodo.self, ToggleTodo.self, RemoveTodo.self, ItemCompleted.self,
  ]
}

/// Creates the app's store with a recorder around its reducer.
public func makeRecordedReSwiftStore(
  path: String, onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
) throws -> (
  ReSwiftStandIn.Store<ReSwiftTodoState>,
  Recorder<ReSwiftTodoState, CatalogAction<ReSwiftTodoActions>>
) {
  // glue
  let recorder = try Recorder(
    path: path, app: "reswift-todo", initialState: ReSwiftTodoState(),
    actions: ReSwiftTodoActions.self, onError: onError)
  // glue
  let store = ReSwiftStandIn.Store(reducer: recorder.recording(reSwiftTodoReducer), state: nil)
  return (store, recorder)
}

// glue
/// The reducer a replay target registers: `ReplayApp(name: "reswift-todo", reducer: …)`.
public let reSwiftTodoReplayReducer = ReSwiftTodoActions.reducer(reSwiftTodoReducer)

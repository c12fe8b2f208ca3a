import Rewind
import RewindExamples

/// A todo session recorded through a ``Store``: what was dispatched and every state the store
/// went through, as a subscriber saw them.
struct RecordedTodoSession {
  /// The dispatched actions, in order (action n has `seq` n).
  var actions: [TodoAction]
  /// `states[n]` is the state after action n; `states[0]` is the initial state.
  var states: [TodoState]
  /// The recorder, closed.
  var recorder: Recorder<TodoState, TodoAction>

  /// The state after the last action.
  var finalState: TodoState { states[states.count - 1] }

  /// Records `count` actions of `TodoWorkload(seed:)` to `path`, then closes the recorder.
  /// - Throws: ``RecorderError`` when recording cannot start.
  static func record(
    to path: String,
    seed: UInt64,
    count: Int,
    initialState: TodoState = TodoState(),
    options: RecordingOptions,
    actionSanitizer: (@Sendable (TodoAction) -> TodoAction)? = nil,
    stateSanitizer: (@Sendable (TodoState) -> TodoState)? = nil,
    onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
  ) throws(RecorderError) -> RecordedTodoSession {
    let store = Store(initialState: initialState, reducer: todoReducer)
    let states = LockedArray([initialState])
    let subscription = store.subscribe { states.append($0) }
    let recorder = try store.startRecording(
      to: path, app: "todo", options: options, actionSanitizer: actionSanitizer,
      stateSanitizer: stateSanitizer, onError: onError)
    var workload = TodoWorkload(seed: seed)
    var actions: [TodoAction] = []
    for _ in 0..<count {
      let action = workload.next(for: store.state)
      actions.append(action)
      store.dispatch(action)
    }
    recorder.close()
    subscription.cancel()
    return RecordedTodoSession(actions: actions, states: states.elements, recorder: recorder)
  }
}

/// 30 actions of `TodoWorkload(seed: 11)`, which the fault tests dispatch.
let faultWorkloadActions: [TodoAction] = {
  var workload = TodoWorkload(seed: 11)
  var state = TodoState()
  var actions: [TodoAction] = []
  for _ in 0..<30 {
    let action = workload.next(for: state)
    actions.append(action)
    todoReducer.reduce(&state, action)
  }
  return actions
}()

/// The state after ``faultWorkloadActions``.
let faultWorkloadFinalState = faultWorkloadActions.reduce(into: TodoState()) {
  todoReducer.reduce(&$0, $1)
}

extension TodoAction {
  /// The enum case's name, which the log's `type` key holds.
  var caseName: String {
    switch self {
    case .add: return "add"
    case .toggle: return "toggle"
    case .rename: return "rename"
    case .remove: return "remove"
    case .move: return "move"
    case .setFilter: return "setFilter"
    case .clearCompleted: return "clearCompleted"
    }
  }

  /// Every case name of the enum.
  static let allCaseNames: Set<String> = [
    "add", "toggle", "rename", "remove", "move", "setFilter", "clearCompleted",
  ]
}

extension RecordingStatus {
  /// The error that stopped the recording, or `nil` while recording or when closed.
  var stopError: RecorderError? {
    if case .stopped(let error) = self { return error }
    return nil
  }

  /// Whether the recording was closed cleanly.
  var isClosed: Bool {
    if case .closed = self { return true }
    return false
  }

  /// Whether the recorder is still recording.
  var isRecording: Bool {
    if case .recording = self { return true }
    return false
  }
}

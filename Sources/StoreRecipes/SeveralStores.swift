// The recipe for an app with several stores (docs/recipes/several-stores.md): one log per
// store, side by side in one folder, each named after its store and recorded under its own app
// name, so `replay` opens each with its own reducer.
import Foundation
import Rewind
import RewindExamples

/// An app with two stores: its todo list and a counter of its own.
public final class TwoStoreApp: Sendable {
  /// The todo list.
  public let todos = Store(initialState: TodoState(), reducer: todoReducer)
  /// The counter.
  public let counter = Store(initialState: CounterState(), reducer: counterReducer)
  // glue
  private let todoRecorder: Recorder<TodoState, TodoAction>
  // glue
  private let counterRecorder: Recorder<CounterState, CounterAction>

  /// Creates both stores and records each to `folder/<store>.jsonl`.
  public init(recordingIn folder: String) throws {
    // glue
    todoRecorder = try todos.startRecording(to: folder + "/todo.jsonl", app: "todo")
    // glue
    counterRecorder = try counter.startRecording(to: folder + "/counter.jsonl", app: "counter")
  }

  /// Closes both logs, each with its store's last state.
  public func stopRecording() {
    // glue
    todoRecorder.close()
    // glue
    counterRecorder.close()
  }
}

// The recipe for a store of the app's own (docs/recipes/own-store.md): an
// `@Observable` class whose `dispatch` mutates its state, as in the SwiftUI tutorials. An
// `ObservableObject` with `@Published var state` takes the same one line in `dispatch`.
import Observation
import Rewind
import RewindExamples

/// The todo app's state in an `@Observable` store, recorded.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@Observable public final class ObservableTodoStore {
  /// The current state; SwiftUI views that read it update when it changes.
  public private(set) var state = TodoState()
  // glue
  @ObservationIgnored private let recorder: Recorder<TodoState, TodoAction>

  /// Creates the store and starts recording to `path`.
  public init(recordingTo path: String) throws {
    // glue
    recorder = try Recorder(
      path: path, app: "todo", initialState: TodoState(),
      options: RecordingOptions(recordsOrigins: true))
  }

  /// Creates the store and records to a new session of `folder` (docs/apple.md).
  public convenience init(recordingIn folder: RecordingsFolder) throws {
    try self.init(recordingTo: folder.newSessionPath(app: "todo"))
  }

  /// Runs `action` through the todo reducer; the log says where it was dispatched (`file` and
  /// `line`: leave them to their defaults).
  public func dispatch(_ action: TodoAction, file: StaticString = #fileID, line: UInt = #line) {
    // glue
    recorder.reduce(
      &state, action, origin: ActionOrigin(file: file, line: line), with: todoReducer.reduce)
  }

  /// Ends the recording: a last checkpoint with the state, then the `end` record.
  public func stopRecording() {
    // glue
    recorder.close(finalState: state)
  }
}

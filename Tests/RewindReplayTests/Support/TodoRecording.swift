import Foundation
import Rewind
import RewindExamples

/// Logs made by the real recorder: a ``Store`` running the todo workload, recording to a
/// temporary file.
enum TodoRecording {
  /// Records `count` workload actions with a checkpoint every `checkpointInterval` actions,
  /// encoded with `coder`, and returns the file's bytes and the actions dispatched.
  static func record(
    actions count: Int, seed: UInt64 = 11, checkpointInterval: Int, coder: LogCoder = .rewind
  ) throws -> (bytes: [UInt8], actions: [TodoAction]) {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("recorded.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      var options = RecordingOptions(
        checkpointInterval: checkpointInterval, ifExists: .replace, coder: coder)
      options.reproducible = .init(
        session: "s-1", recordedAt: "2026-11-21T10:00:00Z", secondsPerAction: 0.25)
      let recorder = try store.startRecording(to: path, app: "todo", options: options)
      var workload = TodoWorkload(seed: seed)
      var actions: [TodoAction] = []
      for _ in 0..<count {
        let action = workload.next(for: store.state)
        actions.append(action)
        store.dispatch(action)
      }
      recorder.close()
      return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), actions)
    }
  }
}

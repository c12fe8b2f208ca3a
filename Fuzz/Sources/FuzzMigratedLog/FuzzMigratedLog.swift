// Fuzzes what a log from another build goes through: the header's build stamp, the schema
// plan, and the todo app's migrations (renamed keys and cases) applied to every action and
// checkpoint before they are decoded, in every recovery mode; then a rebuild of the last state
// through the migrated actions. Seeds: Fuzz/Corpus/MigratedLog (schema-1 logs, a log ended by a
// fatal-signal record).
import Rewind
import RewindExamples
import RewindReplay

/// The todo reducer without its deliberate crash: a `move` out of range does nothing.
private let safeTodoReducer = Reducer<TodoState, TodoAction> { state, action in
  if case .move(let from, let to) = action,
    !state.todos.indices.contains(from) || !state.todos.indices.contains(to)
  {
    return
  }
  todoReducer.reduce(&state, action)
}

/// The todo app as the bundled `replay` registers it: schema 2, with the migrations from 1.
private let app = ReplayApp(
  name: "todo", reducer: safeTodoReducer, initialState: TodoState(),
  build: BuildStamp(schema: todoSchema), migrations: todoMigrations)

/// libFuzzer's entry point: one input, `size` bytes at `data`; returns 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMigratedLog(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  for mode in RecoveryMode.allCases {
    guard let opened = try? ReplayLog(name: "fuzz.jsonl", contents: bytes, recovery: mode),
      let log = try? app.prepared(opened)
    else { continue }
    _ = log.header.build
    _ = log.signal
    if log.actionCount > 0 {
      for seq in log.firstSeq...log.lastSeq { _ = try? log.action(at: seq) }
    }
    for seq in log.checkpointSeqs { _ = try? log.checkpointState(at: seq) }
    if let timeline = try? app.timeline(for: log, usesCheckpoints: mode != .salvage) {
      _ = try? timeline.stateJSON(at: log.positions.upperBound)
    }
  }
  return 0
}

import Foundation
import Rewind
import RewindExamples

/// Writes the bundled example logs of `Fixtures/`, byte for byte the same on every run.
enum FixtureWriter {
  static let reproducible = RecordingOptions.Reproducible(
    session: "00000000-0000-4000-8000-000000000001", recordedAt: "2026-11-21T10:00:00Z",
    secondsPerAction: 0.25)

  static func options(checkpointInterval: Int) -> RecordingOptions {
    var options = RecordingOptions(
      checkpointInterval: checkpointInterval, ifExists: .replace, build: BuildStamp())
    options.reproducible = reproducible
    return options
  }

  /// Writes every fixture into `directory`; `testbed` is this program's path, run again to record
  /// the crash log in a child process that really dies.
  static func writeAll(to directory: String, testbed: String) throws {
    try todoSession(to: "\(directory)/todo-session.jsonl", seed: 42, count: 340, divergeAt: nil)
    try todoSession(to: "\(directory)/todo-session-b.jsonl", seed: 42, count: 340, divergeAt: 200)
    try counter(to: "\(directory)/counter.jsonl")
    try torn(from: "\(directory)/todo-session.jsonl", to: "\(directory)/todo-torn.jsonl")
    try todoSchemaV1(to: "\(directory)/todo-v1.jsonl")
    try todoOrigins(to: "\(directory)/todo-origins.jsonl")
    let child = Process()
    child.executableURL = URL(fileURLWithPath: testbed)
    child.arguments = ["crash", "\(directory)/todo-crash.jsonl"]
    child.standardError = FileHandle.nullDevice
    try child.run()
    child.waitUntilExit()
    guard child.terminationReason == .uncaughtSignal else {
      throw FixtureError(
        "the crash child exited with status \(child.terminationStatus) instead of dying")
    }
  }

  /// A realistic todo session, closed cleanly, with a checkpoint every 50 actions. With
  /// `divergeAt`, the session is the same up to that action and different after it.
  static func todoSession(to path: String, seed: UInt64, count: Int, divergeAt: Int?) throws {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: path, app: "todo", options: options(checkpointInterval: 50))
    var workload = TodoWorkload(seed: seed)
    var other = TodoWorkload(seed: seed &+ 7)
    for n in 1...count {
      let action: TodoAction
      if let divergeAt, n >= divergeAt {
        action = n == divergeAt ? .add(title: "Only in session B ✨") : other.next(for: store.state)
        _ = workload.next(for: store.state)
      } else {
        action = workload.next(for: store.state)
      }
      store.dispatch(action)
    }
    recorder.close()
    if case .stopped(let error) = recorder.status { throw error }
  }

  /// A todo session driven through the app's screen (``TodoScreen``) with the auto-clear
  /// middleware, recorded with origins: every action's line has its call site, and each
  /// `clearCompleted` the middleware dispatched has its cause, the `toggle` it followed.
  static func todoOrigins(to path: String) throws {
    let store = Store(
      initialState: TodoState(), reducer: todoReducer, middleware: [todoAutoClear(limit: 2)])
    var options = options(checkpointInterval: 25)
    options.recordsOrigins = true
    let recorder = try store.startRecording(to: path, app: "todo", options: options)
    let screen = TodoScreen(store: store)
    var workload = TodoWorkload(seed: 11)
    for _ in 0..<90 { screen.perform(workload.next(for: store.state)) }
    recorder.close()
    if case .stopped(let error) = recorder.status { throw error }
  }

  /// A short counter session.
  static func counter(to path: String) throws {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter", options: options(checkpointInterval: 5))
    let actions: [CounterAction] = [
      .increment, .increment, .add(10), .decrement, .add(-3), .increment, .add(100), .decrement,
      .decrement, .add(7), .increment, .add(-20),
    ]
    for action in actions { store.dispatch(action) }
    recorder.close()
  }

  /// A todo session recorded by the app's first build, schema 1 (``TodoSchemaV1``): `replay`
  /// reads it through ``todoMigrations``.
  static func todoSchemaV1(to path: String) throws {
    let store = Store(initialState: TodoSchemaV1.TodoState(), reducer: TodoSchemaV1.reducer)
    var options = options(checkpointInterval: 5)
    options.build = BuildStamp(version: "1.0", build: "1", revision: "v1.0", schema: 1)
    let recorder = try store.startRecording(to: path, app: "todo", options: options)
    for action in TodoSchemaV1.session { store.dispatch(action) }
    recorder.close()
    if case .stopped(let error) = recorder.status { throw error }
  }

  /// The session log cut in the middle of its line 131, as a crash mid-write leaves it.
  static func torn(from source: String, to path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: source))
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    guard lines.count > 140 else { throw FixtureError("session too short to tear") }
    let cut = 130
    lines = Array(lines[..<cut]) + [lines[cut].prefix(lines[cut].count / 2)]
    var out = Data()
    for (n, line) in lines.enumerated() {
      out.append(contentsOf: line)
      if n < lines.count - 1 { out.append(UInt8(ascii: "\n")) }
    }
    try out.write(to: URL(fileURLWithPath: path))
  }

  /// Records a todo session until the `move` bug kills this process. Never returns normally.
  static func crash(to path: String) throws -> Never {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    _ = try store.startRecording(to: path, app: "todo", options: options(checkpointInterval: 10))
    var workload = TodoWorkload(seed: 7)
    for _ in 0..<37 { store.dispatch(workload.next(for: store.state)) }
    store.dispatch(.move(from: store.state.todos.count + 3, to: 0))
    throw FixtureError("the move bug did not crash the reducer")
  }
}

struct FixtureError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

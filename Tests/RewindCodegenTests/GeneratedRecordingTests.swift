import CodegenSamples
import Foundation
import Rewind
import RewindReplay
import RewindTestSupport
import Testing

/// Types with only a synthesized `Codable` and the plugin: recorded through the generated
/// path and replayed through it.
@Suite struct GeneratedRecordingTests {
  /// Some reducer of the sample state: what it does matters less than that it replays.
  static let reducer = Reducer<SampleTodoState, SampleTodoAction> { state, action in
    switch action {
    case .add(let title):
      state.todos.append(SampleTodo(id: state.nextID, title: title, done: false))
      state.nextID += 1
    case .toggle(let id), .remove(let id):
      state.todos = state.todos.map { todo in
        var todo = todo
        if todo.id == id { todo.done.toggle() }
        return todo
      }
    case .rename(let id, let title):
      state.todos = state.todos.map {
        $0.id == id ? SampleTodo(id: id, title: title, done: $0.done) : $0
      }
    case .move, .clearCompleted:
      state.todos.reverse()
    case .setFilter(let filter):
      state.filter = filter
    }
  }

  @Test func aSessionRecordedThroughTheGeneratedPathReplaysToTheSameState() throws {
    let path = NSTemporaryDirectory() + "rewind-generated-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(initialState: SampleTodoState(), reducer: Self.reducer)
    let recorder = try store.startRecording(
      to: path, app: "sample-todo", options: RecordingOptions(checkpointInterval: 10))
    var random = SplitMix64(seed: 5)
    for step in 0..<300 {
      let id = Int(random.next() % 40)
      switch random.next() % 6 {
      case 0, 1: store.dispatch(.add(title: "todo \(step) \"é\""))
      case 2: store.dispatch(.toggle(id: id))
      case 3: store.dispatch(.rename(id: id, title: "renamed\t\(step)"))
      case 4: store.dispatch(.move(from: id % 5, to: id % 3))
      default: store.dispatch(step % 50 == 0 ? .clearCompleted : .setFilter(.active))
      }
    }
    recorder.close(finalState: store.state)
    let report = try assertReplays(
      path, app: "sample-todo", reducer: Self.reducer, finalState: store.state)
    #expect(report.isReproduced)
    let log = try String(contentsOfFile: path, encoding: .utf8)
    #expect(log.contains(#""type":"add","action":{"add":{"title":"todo "#))
  }
}

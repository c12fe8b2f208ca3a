import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

/// `RecordingOptions.recordsOrigins`: each action's line says where it was dispatched and, for an
/// action dispatched while another was handled, which one caused it.
@Suite struct ActionOriginTests {
  private static func options(origins: Bool) -> RecordingOptions {
    var options = RecordingOptions(checkpointInterval: 0)
    options.recordsOrigins = origins
    options.reproducible = RecordingOptions.Reproducible(
      session: "00000000-0000-4000-8000-0000000000ab", recordedAt: "2026-11-29T00:00:00Z",
      secondsPerAction: 0.5)
    return options
  }

  /// The action lines of the log at `path`, parsed.
  private static func actions(_ path: String) throws -> [JSONValue] {
    try RecordedLog(path: path).lines.map { try JSONParser.parse($0) }
      .filter { $0["kind"] == .string("action") }
  }

  @Test func eachLineHasItsDispatchSiteAndEachFollowUpItsCause() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("origins.jsonl")
    let effectCause = Locked<ActionCause?>(nil)
    // A middleware that answers `add` with a `setFilter` at once, and keeps the cause of the
    // first `clearCompleted` for an "effect" that finishes later.
    let middleware = Middleware<TodoState, TodoAction>(name: "follow-up") { action, context in
      switch action {
      case .add: context.dispatch(.setFilter(.active))
      case .clearCompleted: effectCause.withLock { $0 = $0 ?? context.cause }
      default: break
      }
      return action
    }
    let store = Store(
      initialState: TodoState(), reducer: todoReducer, middleware: [middleware])
    let recorder = try store.startRecording(
      to: path, app: "todo", options: Self.options(origins: true))
    // A subscriber that dispatches once, when the first todo is done.
    let once = Locked(false)
    let subscription = store.subscribe { state in
      guard state.todos.first?.done == true, !once.withLock({ $0 }) else { return }
      once.withLock { $0 = true }
      store.dispatch(.rename(id: 1, title: "done!"))
    }
    let addLine = #line + 1
    store.dispatch(.add(title: "Buy milk"))  // 1, causing 2 (setFilter)
    store.dispatch(.toggle(id: 1))  // 3, causing 4 (rename, from the subscriber)
    store.dispatch(.clearCompleted)  // 5
    let laterLine = #line + 1
    store.dispatch(.setFilter(.all), causedBy: effectCause.withLock { $0 })  // 6, caused by 5
    recorder.close()
    subscription.cancel()

    let lines = try Self.actions(path)
    #expect(
      lines.map { $0["type"]?.stringValue } == [
        "add", "setFilter", "toggle", "rename", "clearCompleted", "setFilter",
      ])
    #expect(lines[0]["site"] == .string("RewindTests/ActionOriginTests.swift:\(addLine)"))
    #expect(lines[5]["site"] == .string("RewindTests/ActionOriginTests.swift:\(laterLine)"))
    #expect(lines.map { $0["cause"]?.intValue } == [nil, 1, nil, 3, nil, 5])
    // The middleware's dispatch is its own call site, in this file.
    #expect(
      lines[1]["site"]?.stringValue?.hasPrefix("RewindTests/ActionOriginTests.swift:") == true)
    // Origins go between the type and the action, so that the action stays last.
    let text = try RecordedLog(path: path).lineTexts[2]
    #expect(text.contains(#""type":"setFilter","site":"#))
    #expect(text.contains(#""cause":1,"action":{"setFilter":"#))
  }

  @Test func withoutTheOptionTheLinesAreTheSameAsBefore() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("plain.jsonl")
    let store = Store(
      initialState: TodoState(), reducer: todoReducer, middleware: [todoAutoClear(limit: 0)])
    let recorder = try store.startRecording(
      to: path, app: "todo", options: Self.options(origins: false))
    store.dispatch(.add(title: "a"))
    store.dispatch(.toggle(id: 1))
    recorder.close()
    let texts = try RecordedLog(path: path).lineTexts
    #expect(texts.filter { $0.contains(#""kind":"action""#) }.count == 3)  // and clearCompleted
    for text in texts {
      #expect(!text.contains(#""site""#) && !text.contains(#""cause""#), "\(text)")
    }
    #expect(texts[1].hasSuffix(#""type":"add","action":{"add":{"title":"a"}}}"#))
  }

  @Test func theFullPathWritesTheSameOriginsAsTheFastOne() throws {
    let directory = try TemporaryDirectory()
    func record(_ name: String, sanitizer: (@Sendable (TodoAction) -> TodoAction)?) throws
      -> [UInt8]
    {
      let path = directory.file(name)
      let store = Store(
        initialState: TodoState(), reducer: todoReducer, middleware: [todoAutoClear(limit: 1)])
      let recorder = try store.startRecording(
        to: path, app: "todo", options: Self.options(origins: true), actionSanitizer: sanitizer)
      let screen = TodoScreen(store: store)
      var workload = TodoWorkload(seed: 3)
      for _ in 0..<60 { screen.perform(workload.next(for: store.state)) }
      recorder.close()
      return try RecordedLog(path: path).bytes
    }
    let fast = try record("fast.jsonl", sanitizer: nil)
    let full = try record("full.jsonl", sanitizer: { $0 })
    #expect(fast == full)
    #expect(String(decoding: fast, as: UTF8.self).contains(#""cause":"#))
  }

  @Test func anAppsOwnStorePassesTheOriginAndGetsTheSeqBack() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("own.jsonl")
    let recorder = try Recorder<CounterState, CounterAction>(
      path: path, app: "counter", initialState: CounterState(),
      options: Self.options(origins: true))
    var state = CounterState()
    let first = recorder.willReduce(
      .increment, origin: ActionOrigin(file: "App/View.swift", line: 7))
    counterReducer.reduce(&state, .increment)
    recorder.didReduce(state)
    recorder.reduce(
      &state, .add(2), origin: ActionOrigin(file: "App/Effects.swift", line: 12, cause: first),
      with: counterReducer.reduce)
    recorder.close()
    let lines = try Self.actions(path)
    #expect(first == 1)
    #expect(lines.map { $0["site"]?.stringValue } == ["App/View.swift:7", "App/Effects.swift:12"])
    #expect(lines.map { $0["cause"]?.intValue } == [nil, 1])
  }
}

import RewindExamples
import Testing

@testable import RewindReplay

/// A replay app only builds timelines over logs its app recorded, with its type names.
@Suite struct ReplayAppTests {
  @Test func todoAppRefusesACounterLog() throws {
    let log = try ReplayLog(path: LogFixture.path("counter.jsonl"))
    let todo = ReplayApp(name: "todo", reducer: todoReducer)
    let error = expectReplayError { try todo.timeline(for: log) }
    guard
      case .appMismatch(let path, let logApp, let logTypes, let expected, let expectedTypes)? =
        error
    else {
      Issue.record("expected appMismatch, got \(String(describing: error))")
      return
    }
    #expect(path == LogFixture.path("counter.jsonl"))
    #expect(logApp == "counter")
    #expect(logTypes == "CounterState, CounterAction")
    #expect(expected == "todo")
    #expect(expectedTypes == "TodoState, TodoAction")
    #expect(
      error?.message
        == #"the log was recorded by app "counter" (CounterState, CounterAction), not "todo" "#
        + "(TodoState, TodoAction)")
    #expect(error?.hint == "open it with the replay binary of that app (docs/embedding.md)")
  }

  @Test func appOfTheSameNameRefusesALogWithOtherTypeNames() throws {
    var text = LogText()
    text.header(actionType: "TodoActionV1", stateType: "TodoState")
    let log = try ReplayLog(name: "v1.jsonl", contents: text.bytes)
    let error = expectReplayError {
      try ReplayApp(name: "todo", reducer: todoReducer).timeline(for: log)
    }
    guard case .appMismatch(_, _, let logTypes, _, _)? = error else {
      Issue.record("expected appMismatch, got \(String(describing: error))")
      return
    }
    #expect(logTypes == "TodoState, TodoActionV1")
  }

  @Test func appsSharingANameAreToldApartByTheLogsTypeNames() throws {
    let todo = ReplayApp(name: "shared", reducer: todoReducer)
    let counter = ReplayApp(name: "shared", reducer: counterReducer)
    let other = ReplayApp(name: "other", reducer: counterReducer)
    var text = LogText()
    text.header(app: "shared", actionType: "CounterAction", stateType: "CounterState")
    let counterLog = try ReplayLog(name: "c.jsonl", contents: text.bytes)
    #expect(
      ReplayApp.recording(counterLog.header, among: [todo, counter])?.actionType == "CounterAction")
    #expect(
      ReplayApp.recording(counterLog.header, among: [counter, todo])?.actionType == "CounterAction")
    // None with its types: the first of the name, whose timeline then says what it expected.
    var v1 = LogText()
    v1.header(app: "shared", actionType: "TodoActionV1", stateType: "TodoState")
    let v1Log = try ReplayLog(name: "v1.jsonl", contents: v1.bytes)
    #expect(ReplayApp.recording(v1Log.header, among: [todo, counter])?.actionType == "TodoAction")
    #expect(ReplayApp.recording(v1Log.header, among: [other]) == nil)
  }

  @Test func matchingAppBuildsATimelineOverTheLog() throws {
    let log = try ReplayLog(path: LogFixture.path("counter.jsonl"))
    let timeline = try ReplayApp(name: "counter", reducer: counterReducer).timeline(for: log)
    #expect(try timeline.stateJSON(at: 12) == .object([.init("count", .number("95"))]))
  }
}

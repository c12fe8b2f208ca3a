import Foundation
import Rewind
import RewindExamples
import RewindReplay
import Testing

private func fixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// A todo reducer with a regression: `add` forgets to increment `nextID`.
private let regressedTodoReducer = Reducer<TodoState, TodoAction> { state, action in
  if case .add(let title) = action {
    state.todos.append(Todo(id: state.nextID, title: title, done: false))
    return
  }
  todoReducer.reduce(&state, action)
}

@Suite struct AssertReplaysTests {
  @Test func fixturesReplayWithTodaysReducers() throws {
    let todo = try assertReplays(fixture("todo-session.jsonl"), app: "todo", reducer: todoReducer)
    #expect(todo.checkpointsCompared == 7)
    #expect(todo.isReproduced)
    try assertReplays(fixture("todo-session-b.jsonl"), app: "todo", reducer: todoReducer)
    try assertReplays(fixture("counter.jsonl"), app: "counter", reducer: counterReducer)
  }

  @Test func finalStateIsAsserted() throws {
    try assertReplays(
      fixture("counter.jsonl"), reducer: counterReducer, finalState: CounterState(count: 95))
    #expect(throws: LogAssertionFailure.self) {
      try assertReplays(
        fixture("counter.jsonl"), reducer: counterReducer, finalState: CounterState(count: 1))
    }
  }

  @Test func aChangedReducerFailsWithTheVerifyReport() throws {
    do {
      try assertReplays(fixture("todo-session.jsonl"), app: "todo", reducer: regressedTodoReducer)
      Issue.record("a regressed reducer must not reproduce the log")
    } catch let failure as LogAssertionFailure {
      let divergence = try #require(failure.report.divergence)
      #expect(divergence.seq == 50)
      #expect(divergence.lastMatching == 0)
      let lines = failure.description.split(separator: "\n").map(String.init)
      #expect(
        lines[0].hasSuffix(
          "todo-session.jsonl: checkpoint at seq 50 (line 52) differs from the state the current reducer computes"
        ))
      #expect(
        lines[1] == "the first difference comes from actions 1…50 (the state matched at position 0)"
      )
      #expect(lines[2] == "recorded → replayed:")
      #expect(lines.contains { $0.hasPrefix("  nextID: ") })
    }
  }

  @Test func aLogOfAnotherAppIsRefused() {
    #expect(throws: ReplayError.self) {
      try assertReplays(fixture("counter.jsonl"), app: "todo", reducer: todoReducer)
    }
  }
}

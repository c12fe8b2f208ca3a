import Foundation
import Rewind
import RewindExamples
import Testing

/// Replaces every title in an action with `•••`.
private let hideActionTitles: @Sendable (TodoAction) -> TodoAction = { action in
  switch action {
  case .add: return .add(title: "•••")
  case .rename(let id, _): return .rename(id: id, title: "•••")
  default: return action
  }
}

/// Replaces every title in a state with `•••`.
private let hideStateTitles: @Sendable (TodoState) -> TodoState = { state in
  var hidden = state
  for index in hidden.todos.indices { hidden.todos[index].title = "•••" }
  return hidden
}

/// The titles an action carries.
private func titles(in action: TodoAction) -> [String] {
  switch action {
  case .add(let title), .rename(_, let title): return [title]
  default: return []
  }
}

/// `text` as it appears inside a JSON string (quotes and backslashes escaped).
private func jsonEscaped(_ text: String) -> String {
  text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
}

@Suite struct RecorderPrivacyTests {
  @Test func sanitizersKeepTitlesOutOfTheFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("private.jsonl")
    let secret = "Door code 4711"
    let store = Store(
      initialState: TodoState(todos: [Todo(id: 1, title: secret, done: false)], nextID: 2),
      reducer: todoReducer)
    let states = LockedArray([store.state])
    let subscription = store.subscribe { states.append($0) }
    let recorder = try store.startRecording(
      to: path, app: "todo", options: RecordingOptions(checkpointInterval: 10),
      actionSanitizer: hideActionTitles, stateSanitizer: hideStateTitles)
    // Titles that are `•••` already: the sanitizer changes nothing, so no `sanitized` mark.
    var dispatched: [TodoAction] = []
    let dispatch = { (action: TodoAction) in
      dispatched.append(action)
      store.dispatch(action)
    }
    dispatch(.add(title: "•••"))
    dispatch(.rename(id: 1, title: "•••"))
    var workload = TodoWorkload(seed: 3)
    for _ in 0..<100 { dispatch(workload.next(for: store.state)) }
    dispatch(.rename(id: 1, title: "Call the bank about card 1234"))
    recorder.close()
    subscription.cancel()

    let log = try RecordedLog(path: path)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    let actions = records.filter { $0.kind == "action" }
    #expect(actions.map(\.action) == dispatched.map { Optional.some(hideActionTitles($0)) })
    #expect(
      actions.map(\.sanitized)
        == dispatched.map { hideActionTitles($0) != $0 ? Optional.some(true) : nil })
    #expect(actions.contains { $0.sanitized == true })

    #expect(records.first?.state == hideStateTitles(states.elements[0]))
    let checkpoints = records.filter { $0.kind == "checkpoint" }
    #expect(checkpoints.count == 11, "every 10 actions, and the final one")
    for checkpoint in checkpoints {
      let seq = try #require(checkpoint.seq)
      #expect(checkpoint.state == hideStateTitles(states.elements[seq]), "checkpoint \(seq)")
    }

    let text = log.text
    let leaked = Set([secret] + dispatched.flatMap(titles)).subtracting(["•••"]).filter {
      text.contains($0) || text.contains(jsonEscaped($0))
    }
    #expect(leaked == [])
  }

  @Test func deniedActionsLeaveOnlyASkippedLine() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("denied.jsonl")
    let session = try RecordedTodoSession.record(
      to: path, seed: 4, count: 150,
      options: RecordingOptions(checkpointInterval: 0, deniedActionTypes: ["rename"]))
    let renames = session.actions.indices.filter { session.actions[$0].caseName == "rename" }
    try #require(renames.count >= 3)

    let log = try RecordedLog(path: path)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    let texts = log.lineTexts
    for (index, action) in session.actions.enumerated() {
      let seq = index + 1
      // Line 0 is the header; with no checkpoints, line `seq` is the action's.
      let body = texts[seq].dropFirst(16)
      if action.caseName == "rename" {
        #expect(body == #""kind":"skipped","seq":\#(seq),"type":"rename","reason":"denied"}"#)
      } else {
        #expect(records[seq].action == action, "seq \(seq)")
      }
    }
    #expect(records.last?.shape == "end 150")
  }

  @Test func newLogFileIsReadableByItsOwnerOnly() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("fresh.jsonl")
    _ = try RecordedTodoSession.record(to: path, seed: 1, count: 5, options: RecordingOptions())
    #expect(try fileMode(path) == 0o600)
  }

  @Test func replacedLogFileBecomesReadableByItsOwnerOnly() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("old.jsonl")
    _ = FileManager.default.createFile(
      atPath: path, contents: Data("old\n".utf8), attributes: [.posixPermissions: 0o644])
    #expect(try fileMode(path) == 0o644)
    _ = try RecordedTodoSession.record(
      to: path, seed: 1, count: 5, options: RecordingOptions(ifExists: .replace))
    #expect(try fileMode(path) == 0o600)
    #expect(try RecordedLog(path: path).lineTexts.first?.contains(#""kind":"header""#) == true)
  }
}

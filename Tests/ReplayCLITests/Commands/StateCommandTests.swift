import Foundation
import Rewind
import RewindExamples
import Testing

/// `replay state`: the state at a position, whole or a part of it, pretty or as JSON.
@Suite struct StateCommandTests {
  private let log = CLIFixture.path("todo-session.jsonl")

  /// The state after the first `count` actions of the fixture, rebuilt by a store from actions
  /// decoded with Foundation.
  private func expectedState(after count: Int) throws -> TodoState {
    struct Line: Decodable {
      var kind: String
      var action: TodoAction?
    }
    let text = try String(contentsOfFile: log, encoding: .utf8)
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let actions = try text.split(separator: "\n")
      .map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
      .compactMap(\.action)
    for action in actions.prefix(count) { store.dispatch(action) }
    return store.state
  }

  @Test func printsAPartOfTheStateAtAPosition() {
    let run = ReplayRun(["state", log, "--at", "12", "--path", "todos.count"])
    #expect(run.status == 0)
    #expect(run.standardOutput == "3\n")
    #expect(run.standardError == "")
  }

  @Test func printsAnObjectPrettyByDefault() {
    let run = ReplayRun(["state", log, "--at", "12", "--path", "todos[0]"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput == """
        {
          "id": 1,
          "title": "Fix the bike #641",
          "done": true
        }

        """)
  }

  @Test(arguments: [0, 1, 12, 199, 200, 340])
  func jsonStateEqualsTheStateOfAStoreThatRanTheSameActions(position: Int) throws {
    let run = ReplayRun(["state", log, "--at", String(position), "--json"])
    #expect(run.status == 0)
    #expect(run.outputLines.count == 1)
    let state = try JSONDecoder().decode(TodoState.self, from: Data(run.standardOutput.utf8))
    #expect(state == (try expectedState(after: position)))
  }

  @Test func positionDefaultsToTheLast() throws {
    let run = ReplayRun(["state", CLIFixture.path("counter.jsonl"), "--json"])
    #expect(run.status == 0)
    #expect(run.standardOutput == #"{"count":95}"# + "\n")
    #expect(
      ReplayRun(["state", CLIFixture.path("counter.jsonl"), "--at", "first"]).standardOutput
        == "{\n  \"count\": 0\n}\n")
  }

  @Test func jsonPartOfTheStateIsCompactJSON() throws {
    let run = ReplayRun(["state", log, "--at", "12", "--path", "todos[1]", "--json"])
    #expect(run.status == 0)
    let todo = try #require(try expectedState(after: 12).todos.dropFirst().first)
    #expect(
      run.standardOutput == #"{"id":\#(todo.id),"title":"\#(todo.title)","done":\#(todo.done)}"#
        + "\n")
  }

  @Test func misspelledPathSuggestsTheKeyThatExists() {
    let run = ReplayRun(["state", log, "--at", "12", "--path", "todos[0].titl"])
    #expect(run.status == 2)
    #expect(run.standardOutput == "")
    #expect(
      run.standardError
        == "error: todos[0] has no key 'titl'; its keys are: id, title, done; did you mean "
        + "'title'?\n")
  }

  @Test func crashLogStateJustBeforeTheTrappingActionReplays() throws {
    let run = ReplayRun([
      "state", CLIFixture.path("todo-crash.jsonl"), "--at", "37", "--path", "todos.count",
    ])
    #expect(run.status == 0)
    #expect(Int(run.standardOutput.dropLast()) != nil)
  }
}

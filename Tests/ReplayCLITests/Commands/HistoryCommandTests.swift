import Foundation
import RewindJSON
import Testing

/// `replay history` and the session's `history` and `blame`, and identity steps
/// (`todos[id=3]`) in every command that takes a path.
@Suite struct HistoryCommandTests {
  private let log = CLIFixture.path("todo-session.jsonl")
  private let crashLog = CLIFixture.path("todo-crash.jsonl")

  @Test func listsEveryChangeOfAValueWithItsActionAndDiff() {
    let run = ReplayRun(["history", log, "todos[id=3].title"])
    #expect(run.status == 0)
    #expect(
      run.outputLines == [
        "todos[id=3].title: 2 changes in positions 0…340, where it first led nowhere",
        #"     9    2.250s  add            {"title":"Book flights"}"#,
        #"        + todos[id=3].title: "Book flights""#,
        "    25    6.250s  clearCompleted",
        #"        - todos[id=3].title: "Book flights""#,
      ])
    #expect(run.standardError == "")
  }

  @Test func theJSONFormHasEachActionAndItsValues() throws {
    let run = ReplayRun(["history", log, "filter", "--to", "20", "--json"])
    #expect(run.status == 0)
    let json = try JSONParser.parse(run.standardOutput)
    #expect(json["path"] == .string("filter"))
    #expect(json["through"] == .number("20"))
    #expect(json["initial"] == .string("all"))
    guard case .array(let changes)? = json["changes"] else {
      Issue.record("no changes array: \(run.standardOutput)")
      return
    }
    #expect(changes.map { $0["action"]?["seq"] } == [.number("12"), .number("19")])
    #expect(changes.first?["before"] == .string("all"))
    #expect(changes.first?["after"] == .string("active"))
    #expect(
      changes.first?["patch"]
        == .array([
          .object([
            JSONMember("op", .string("replace")), JSONMember("path", .string("")),
            JSONMember("value", .string("active")),
          ])
        ]))
  }

  @Test func aLimitSaysWhereToGoOn() {
    let run = ReplayRun(["history", log, "filter", "--limit", "1"])
    #expect(run.status == 0)
    #expect(
      run.outputLines.last
        == "… stopped at the limit of 1 change at position 18: --from 18 lists the rest")
  }

  @Test func aCrashEndsTheHistoryAtTheLastGoodState() throws {
    try PowerTools.useReplayBinaryAsWorker()
    // In a worker process: without one, the reducer's trap would end this process, as it ends
    // `replay --no-isolate`.
    let run = ReplayRun(["history", crashLog, "todos.count", "--isolate"])
    #expect(run.status == 3)
    #expect(run.combined.contains("the history ends at position 37, the last good state"))
  }

  @Test func blameNamesTheLastTwoSettersUpToTheCursor() {
    let run = ReplayRun([log, "-c", "goto 120", "-c", "blame filter", "-c", "blame nextID"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput.contains(
        "filter at position 120 was last set by action 120, and before that by action 108:"))
    #expect(run.standardOutput.contains("nextID at position 120 was last set by action"))
  }

  @Test func identityStepsWorkInPrintWatchAndBreakIf() {
    let run = ReplayRun([
      log, "-c", "print todos[id=12].title", "-c", "goto 120", "-c", "print todos[id=12].title",
      "-c", "watch todos[id=12].done", "-c", "continue", "-c",
      "break if todos[id=12].done == false",
      "-c", "continue", "-c", "print todos[id=999]",
    ])
    #expect(run.standardOutput.contains(#""Write the report #326""#))
    #expect(run.standardOutput.contains("stopped by 1: todos[id=12].done: false → true"))
    #expect(run.standardOutput.contains(">  133"))
    #expect(run.standardError.contains("todos is empty: no element is [id=12]"))
    #expect(run.standardError.contains(") is [id=999]"))
  }

  @Test func aBadIdentityStepSaysHowToWriteIt() {
    let run = ReplayRun(["history", log, "todos[id=abc].title"])
    #expect(run.status == 2)
    #expect(run.standardError.contains(#"quote a string ([id="abc"])"#))
  }
}

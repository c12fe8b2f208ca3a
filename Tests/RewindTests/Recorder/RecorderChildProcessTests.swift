import Foundation
import Rewind
import RewindExamples
import Testing

/// End-to-end runs of `rewind-testbed`: processes that really die.
@Suite struct RecorderChildProcessTests {
  @Test func logOfAReducerCrashEndsWithTheActionThatCrashed() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("crash.jsonl")
    let run = try Testbed.run(["crash", path], outputIn: directory)
    #expect(run.diedOfSignal, "status \(run.terminationStatus), stderr: \(run.stderr)")

    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    #expect(!records.contains { $0.kind == "end" })
    let last = try #require(records.last)
    #expect(last.kind == "action")
    #expect(last.type == "move")
    let fatal = try #require(last.action)

    // Replay everything before it from the header's state: the checkpoints agree, and the move
    // starts out of range, so it is the action the reducer trapped on.
    var state = try #require(records.first?.state)
    for record in records.dropFirst().dropLast() {
      switch record.kind {
      case "action": todoReducer.reduce(&state, try #require(record.action))
      case "checkpoint": #expect(record.state == state, "checkpoint \(record.seq ?? -1)")
      default: Issue.record("unexpected \(record.kind) record in the crash log")
      }
    }
    guard case .move(let from, _) = fatal else {
      Issue.record("the last action is \(fatal), not a move")
      return
    }
    #expect(from >= state.todos.count)
  }

  @Test func dispatchFromInsideAReducerStopsTheProcessWithAMessage() throws {
    let directory = try TemporaryDirectory()
    let run = try Testbed.run(["dispatch-from-reducer"], outputIn: directory)
    #expect(run.diedOfSignal, "status \(run.terminationStatus), stderr: \(run.stderr)")
    #expect(run.stderr.contains("from inside a reducer"), "stderr: \(run.stderr)")
  }
}

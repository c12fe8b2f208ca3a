import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// Logs of apps that died: `todo-crash.jsonl` stops after the action that trapped the reducer;
/// `todo-torn.jsonl` stops in the middle of a line.
@Suite struct CutOffLogTests {
  // MARK: todo-crash.jsonl

  @Test func crashLogOpensAsCutOffWithoutAnEndReason() throws {
    let log = try ReplayLog(path: LogFixture.path("todo-crash.jsonl"))
    #expect(log.isCutOff)
    #expect(!log.hasEndRecord)
    #expect(log.endReason == nil)
    #expect(log.faults.isEmpty)
    #expect(log.actionCount == 38)
    #expect(log.positions == 0...38)
    #expect(log.checkpointSeqs == [10, 20, 30])
    let last = try log.action(at: 38)
    #expect(last.type == "move")
    #expect(last.line == 42)
  }

  @Test func crashLogReplaysEveryPositionBeforeTheTrappingAction() throws {
    // Position 38 applies the `move` that traps the reducer: it must never run in process.
    let bytes = try LogFixture.bytes("todo-crash.jsonl")
    let (initial, actions) = try ReferenceReplay.decode(bytes, as: TodoState.self, TodoAction.self)
    #expect(actions.count == 38)
    let expected = ReferenceReplay.states(
      initial: initial, reducer: todoReducer, actions: actions.prefix(37))
    let log = try ReplayLog(path: LogFixture.path("todo-crash.jsonl"))
    let timeline = Timeline(log: log, reducer: todoReducer, stride: 4)
    for position in stride(from: 37, through: 0, by: -1) {
      #expect(try timeline.state(at: position) == expected[position], "position \(position)")
    }
    #expect(try timeline.action(at: 38) == .move(from: 9, to: 0))
  }

  // MARK: todo-torn.jsonl

  /// The torn last line, found independently of the reader.
  private func tornLine() throws -> (line: LogLines.Line, completeActions: Int) {
    let lines = LogLines(try LogFixture.bytes("todo-torn.jsonl"))
    let torn = try #require(lines.lines.last)
    #expect(!torn.isComplete)
    return (torn, lines.actionCount(before: torn.number))
  }

  @Test(arguments: [RecoveryMode.tail, .prefix, .salvage])
  func tornLogDropsOnlyItsCutLine(recovery: RecoveryMode) throws {
    let (torn, completeActions) = try tornLine()
    let path = LogFixture.path("todo-torn.jsonl")
    let log = try ReplayLog(path: path, recovery: recovery)
    #expect(completeActions == 127)
    #expect(torn.number == 131)
    #expect(
      log.faults == [
        LogFault(
          path: path, line: torn.number, byteOffset: torn.start,
          reason: .cutOff(length: torn.content.count))
      ])
    #expect(log.actionCount == completeActions)
    #expect(log.lastSeq == completeActions)
    #expect(log.isCutOff)
    #expect(log.suspectFrom == nil)
  }

  @Test func tornLogInStrictModeThrowsAFaultNamingTheCutLine() throws {
    let (torn, completeActions) = try tornLine()
    let path = LogFixture.path("todo-torn.jsonl")
    let error = expectReplayError { try ReplayLog(path: path, recovery: .strict) }
    #expect(
      error?.faultError
        == FaultError(
          fault: LogFault(
            path: path, line: torn.number, byteOffset: torn.start,
            reason: .cutOff(length: torn.content.count)),
          recovery: .strict, intactActions: completeActions, droppedLines: 1))
    #expect(error?.location == "\(path):131 (byte \(torn.start))")
    #expect(error?.hint?.contains("--recovery prefix") == true)
  }

  @Test func tornLogReplaysItsLastCompleteAction() throws {
    let bytes = try LogFixture.bytes("todo-torn.jsonl")
    let (initial, actions) = try ReferenceReplay.decode(bytes, as: TodoState.self, TodoAction.self)
    let expected = ReferenceReplay.states(initial: initial, reducer: todoReducer, actions: actions)
    let log = try ReplayLog(path: LogFixture.path("todo-torn.jsonl"))
    let timeline = Timeline(log: log, reducer: todoReducer)
    #expect(try timeline.state(at: 127) == expected[127])
    #expect(try timeline.state(at: 64) == expected[64])
  }
}

import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// Logs of 0, 1 and N actions, the edges of the position range, and a rotated file whose first
/// action is not seq 1.
@Suite struct TimelineBoundaryTests {
  private let headerState = TodoState(
    todos: [
      Todo(id: 1, title: "Buy milk", done: true), Todo(id: 2, title: "Call mum", done: false),
    ],
    filter: .active, nextID: 3)

  @Test func headerOnlyLogWithoutEndRecordHasOnlyPositionZeroAndIsCutOff() throws {
    var text = LogText()
    text.header(state: LogText.encodeState(headerState))
    let log = try ReplayLog(name: "empty.jsonl", contents: text.bytes)
    #expect(log.actionCount == 0)
    #expect(log.positions == 0...0)
    #expect(log.firstSeq == 1)
    #expect(log.lastSeq == 0)
    #expect(log.isCutOff)
    #expect(log.endReason == nil)
    #expect(log.faults.isEmpty)
    let timeline = Timeline(log: log, reducer: todoReducer)
    #expect(try timeline.state(at: 0) == headerState)
    let error = expectReplayError { try timeline.state(at: 1) }
    #expect(error?.outOfRange?.position == 1)
    #expect(error?.outOfRange?.valid == 0...0)
  }

  @Test func headerOnlyLogWithEndRecordIsClosedCleanly() throws {
    var text = LogText()
    text.header(state: LogText.encodeState(headerState))
    text.end(seq: 0)
    let log = try ReplayLog(name: "closed-empty.jsonl", contents: text.bytes)
    #expect(log.actionCount == 0)
    #expect(log.positions == 0...0)
    #expect(log.hasEndRecord)
    #expect(log.endReason == "closed")
    #expect(try Timeline(log: log, reducer: todoReducer).state(at: 0) == headerState)
  }

  @Test(arguments: [1, 2, 37])
  func logOfNActionsHasPositionsZeroThroughN(count: Int) throws {
    let (text, actions) = LogText.todoLog(actions: count, checkpointInterval: 10)
    let log = try ReplayLog(name: "n.jsonl", contents: text.bytes)
    #expect(log.actionCount == count)
    #expect(log.positions == 0...count)
    #expect(log.lastSeq == count)
    #expect(log.hasEndRecord)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: actions)
    let timeline = Timeline(log: log, reducer: todoReducer)
    for position in 0...count {
      #expect(try timeline.state(at: position) == expected[position], "position \(position)")
    }
    #expect(try log.action(at: count).seq == count)
  }

  @Test(arguments: [-1, 4, 5, Int.max, Int.min])
  func positionOutsideTheLogThrowsWithTheValidRange(position: Int) throws {
    let (text, _) = LogText.todoLog(actions: 3)
    let timeline = Timeline(
      log: try ReplayLog(name: "three.jsonl", contents: text.bytes), reducer: todoReducer)
    let error = expectReplayError { try timeline.state(at: position) }
    #expect(error?.outOfRange?.position == position)
    #expect(error?.outOfRange?.valid == 0...3)
    #expect(error?.message == "position \(position) is out of range: valid positions are 0…3")
    #expect(error?.hint == "use a position from 0 to 3, 'first' or 'last'")
  }

  @Test func actionOutsideTheLogThrowsWithTheValidSeqs() throws {
    let (text, _) = LogText.todoLog(actions: 3)
    let log = try ReplayLog(name: "three.jsonl", contents: text.bytes)
    for seq in [0, 4] {
      let error = expectReplayError { try log.action(at: seq) }
      #expect(error?.outOfRange?.position == seq)
      #expect(error?.outOfRange?.valid == 1...3)
    }
  }

  @Test func rotatedLogStartsAtTheHeaderStateOneBeforeFirstSeq() throws {
    var text = LogText()
    text.header(firstSeq: 101, state: LogText.encodeState(headerState))
    let actions: [TodoAction] = [.add(title: "Pay rent"), .toggle(id: 2), .remove(id: 1)]
    for (n, action) in actions.enumerated() { text.action(seq: 101 + n, action) }
    text.end(seq: 103, reason: "rotated")
    let log = try ReplayLog(name: "session.1.jsonl", contents: text.bytes)
    #expect(log.firstSeq == 101)
    #expect(log.lastSeq == 103)
    #expect(log.actionCount == 3)
    #expect(log.positions == 100...103)
    #expect(log.endReason == "rotated")
    #expect(try log.action(at: 101).line == 2)
    #expect(try log.action(at: 103).type == "remove")
    #expect(expectReplayError { try log.action(at: 100) }?.outOfRange?.valid == 101...103)

    let expected = ReferenceReplay.states(
      initial: headerState, reducer: todoReducer, actions: actions)
    let timeline = Timeline(log: log, reducer: todoReducer)
    for position in 100...103 {
      #expect(try timeline.state(at: position) == expected[position - 100], "position \(position)")
    }
    let error = expectReplayError { try timeline.state(at: 99) }
    #expect(error?.outOfRange?.position == 99)
    #expect(error?.outOfRange?.valid == 100...103)
  }

  @Test func rotatedLogWithoutActionsHasOnlyItsHeaderPosition() throws {
    var text = LogText()
    text.header(firstSeq: 101, state: LogText.encodeState(headerState))
    text.end(seq: 100, reason: "rotated")
    let log = try ReplayLog(name: "session.1.jsonl", contents: text.bytes)
    #expect(log.positions == 100...100)
    #expect(log.actionCount == 0)
    #expect(log.hasEndRecord)
    #expect(try Timeline(log: log, reducer: todoReducer).state(at: 100) == headerState)
  }
}

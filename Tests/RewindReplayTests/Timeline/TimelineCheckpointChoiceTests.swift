import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// With skipped actions, the state at a position is rebuilt from the same checkpoint whatever
/// was visited before: the last checkpoint before both the position and the first skipped action.
/// A crash-isolated session relies on it (a position its worker rebuilt is known not to trap when
/// rebuilt again), and it keeps a skip from sending a rebuild back to the header.
@Suite struct TimelineCheckpointChoiceTests {
  /// A counter log of 15 increments with checkpoints every 5 actions, whose checkpoint at 5
  /// says 1000 where replaying from the header gives 5 (a log from a reducer that has changed).
  private func divergentLog() throws -> ReplayLog {
    var text = LogText()
    text.header(
      app: "counter", actionType: "CounterAction", stateType: "CounterState",
      state: #"{"count":0}"#)
    for seq in 1...15 {
      text.action(seq: seq, type: "increment", json: #"{"increment":{}}"#)
      if seq % 5 == 0 {
        text.checkpoint(seq: seq, state: seq == 5 ? #"{"count":1000}"# : "{\"count\":\(seq)}")
      }
    }
    return try ReplayLog(name: "divergent.jsonl", contents: text.bytes)
  }

  @Test func aSkipPastALaterCheckpointRebuildsFromTheLastCheckpointBeforeTheSkip() throws {
    let log = try divergentLog()
    let fresh = Timeline(log: log, reducer: counterReducer)
    fresh.setSkipped(7, true)
    // From the checkpoint at 5 (1000), then 6, 8 … 12: seven increments, one skipped.
    #expect(try fresh.state(at: 12).count == 1006)

    let visitedFirst = Timeline(log: log, reducer: counterReducer)
    visitedFirst.setSkipped(7, true)
    #expect(try visitedFirst.state(at: 6).count == 1001)
    #expect(try visitedFirst.state(at: 12).count == 1006)
  }

  @Test func withoutSkipsTheLastCheckpointAtOrBeforeThePositionIsUsed() throws {
    let log = try divergentLog()
    let timeline = Timeline(log: log, reducer: counterReducer)
    #expect(try timeline.state(at: 12).count == 12)
    #expect(try timeline.state(at: 9).count == 1004)
    timeline.setSkipped(3, true)
    // Before the checkpoint at 5 is usable: from the header, without action 3.
    #expect(try timeline.state(at: 12).count == 11)
  }
}

import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// A long rebuild decodes ahead on a second thread (`ActionPrefetcher`); the states and the
/// errors must be exactly those of the one-thread rebuild.
@Suite struct ActionPrefetchTests {
  /// A timeline whose every rebuild of 2 or more actions prefetches, in batches of 7 seqs (so a
  /// few hundred actions make dozens of batches for both threads), or one that never does.
  private func timeline(_ log: ReplayLog, prefetching: Bool) -> Timeline<TodoState, TodoAction> {
    let timeline = Timeline(log: log, reducer: todoReducer, usesCheckpoints: false)
    timeline.prefetchThreshold = prefetching ? 2 : Int.max
    timeline.prefetchBatchSize = 7
    return timeline
  }

  @Test(arguments: [1, 3, 64])
  func everyBatchSizeGivesTheStatesOfTheStore(batchSize: Int) throws {
    // Whichever thread decodes a batch (the helper, the caller while it waits, or the caller
    // as it reduces) depends on timing; the states must not.
    let (text, actions) = LogText.todoLog(actions: 300, seed: 13)
    let log = try ReplayLog(name: "long.jsonl", contents: text.bytes)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: actions)
    for round in 0..<10 {
      let timeline = timeline(log, prefetching: true)
      timeline.prefetchBatchSize = batchSize
      let position = 300 - round * 17
      #expect(try timeline.state(at: position) == expected[position], "position \(position)")
    }
  }

  @Test func prefetchedRebuildsGiveTheStatesOfAStoreThatDispatchedTheActions() throws {
    let (text, actions) = LogText.todoLog(actions: 400, seed: 11)
    let log = try ReplayLog(name: "long.jsonl", contents: text.bytes)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: actions)
    for position in [400, 1, 2, 7, 8, 14, 15, 200, 399] {
      let state = try timeline(log, prefetching: true).state(at: position)
      #expect(state == expected[position], "position \(position)")
    }
    // Backward from the end on one timeline: rebuilds of many lengths from cached states.
    let walker = timeline(log, prefetching: true)
    for position in stride(from: 400, through: 0, by: -37) {
      #expect(try walker.state(at: position) == expected[position], "position \(position)")
    }
  }

  @Test func skippedActionsAreSkippedWhetherTheHelperOrTheCallerDecodedThem() throws {
    // Adds and toggles only: skipping any of them cannot make a later action trap.
    var text = LogText()
    text.header()
    for seq in 1...120 {
      text.action(seq: seq, seq % 3 == 0 ? .toggle(id: seq / 2) : .add(title: "todo \(seq)"))
    }
    let log = try ReplayLog(name: "long.jsonl", contents: text.bytes)
    // Seqs 3 and 50 fall in batches the caller decodes, 10 and 60 in the helper's.
    let skipped = [3, 10, 50, 60]
    let prefetched = timeline(log, prefetching: true)
    let sequential = timeline(log, prefetching: false)
    for seq in skipped {
      prefetched.setSkipped(seq, true)
      sequential.setSkipped(seq, true)
    }
    let state = try prefetched.state(at: 120)
    #expect(state == (try sequential.state(at: 120)))
    let all = try timeline(log, prefetching: false).state(at: 120)
    #expect(state != all, "the skips must change the state for this test to mean anything")
  }

  @Test(arguments: [4, 10, 40])
  func anActionThatDoesNotDecodeFailsAtTheSameLineEitherWay(badSeq: Int) throws {
    var text = LogText(checksummed: false)
    text.header()
    for seq in 1...60 {
      if seq == badSeq {
        text.action(seq: seq, type: "add", json: #"{"add":{"titel":"x"}}"#)
      } else {
        text.action(seq: seq, .add(title: "todo \(seq)"))
      }
    }
    let log = try ReplayLog(name: "old.jsonl", contents: text.bytes)
    let prefetchedError = expectReplayError { try timeline(log, prefetching: true).state(at: 60) }
    let sequentialError = expectReplayError {
      try timeline(log, prefetching: false).state(at: 60)
    }
    #expect(prefetchedError?.message == sequentialError?.message)
    #expect(prefetchedError?.location == "old.jsonl:\(badSeq + 1)")
    #expect(
      prefetchedError?.message
        == #"action \#(badSeq) (type "add") does not decode: add.title: key not found"#)
    // The states before the bad action are still there.
    let before = try timeline(log, prefetching: true).state(at: badSeq - 1)
    #expect(before.todos.count == badSeq - 1)
  }
}

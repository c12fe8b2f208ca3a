import Dispatch
import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// The prefetcher's helpers are parked threads (`PrefetchThreads`) taken again by the next
/// rebuild: work is never left waiting for a busy thread, and a rebuild after many others still
/// gets its states right.
@Suite struct PrefetchThreadsTests {
  @Test func workGivenWhileEveryThreadIsBusyStillRunsAtOnce() {
    // Four pieces of work that each wait until all four have started: they finish only if each
    // gets a thread of its own.
    let started = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    for _ in 0..<4 {
      PrefetchThreads.run { _ in
        started.signal()
        go.wait()
        finished.signal()
      }
    }
    var startedCount = 0
    for _ in 0..<4 where started.wait(timeout: .now() + 30) == .success { startedCount += 1 }
    #expect(startedCount == 4)
    for _ in 0..<4 { go.signal() }
    var finishedCount = 0
    for _ in 0..<4 where finished.wait(timeout: .now() + 30) == .success { finishedCount += 1 }
    #expect(finishedCount == 4)
  }

  @Test func aHelpersDecodersHaveTheCodersAskedFor() {
    // A helper keeps a decoder per coder and limits: asking for another coder in between must
    // not hand back the kept one.
    let coders = Locked<[LogCoder]>([])
    let done = DispatchSemaphore(value: 0)
    PrefetchThreads.run { decoder in
      coders.withLock {
        $0 = [
          decoder(.rewind, .default).coder, decoder(.foundation, .default).coder,
          decoder(.rewind, .default).coder,
        ]
      }
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 30) == .success)
    #expect(coders.withLock { $0 } == [.rewind, .foundation, .rewind])
  }

  @Test func manyShortPrefetchedRebuildsInTurnGiveTheStatesOfTheStore() throws {
    // Every rebuild takes a helper parked by the one before: 60 of them, each a few batches.
    let (text, actions) = LogText.todoLog(actions: 200, seed: 5)
    let log = try ReplayLog(name: "short.jsonl", contents: text.bytes)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: actions)
    for round in 0..<60 {
      let timeline = Timeline(log: log, reducer: todoReducer, usesCheckpoints: false)
      timeline.prefetchThreshold = 2
      timeline.prefetchBatchSize = 9
      let position = 200 - round * 3
      #expect(try timeline.state(at: position) == expected[position], "position \(position)")
    }
  }
}

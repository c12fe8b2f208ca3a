import Dispatch
import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// Timelines of different logs replaying on different threads at the same time share only the
/// crash reporter's note (`StepMarker`), which one of them holds at a time; every state is still
/// right. `Scripts/sanitizers.sh` runs this under ThreadSanitizer.
@Suite struct TimelineConcurrencyTests {
  @Test func timelinesOnFourThreadsRebuildTheirOwnStates() throws {
    let logs = try (0..<4).map { n in
      let (text, actions) = LogText.todoLog(actions: 150, seed: UInt64(20 + n))
      let log = try ReplayLog(name: "log-\(n).jsonl", contents: text.bytes)
      let states = ReferenceReplay.states(
        initial: TodoState(), reducer: todoReducer, actions: actions)
      return (log, states)
    }
    let mismatches = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { n in
      let (log, expected) = logs[n]
      for round in 0..<20 {
        let timeline = Timeline(log: log, reducer: todoReducer, usesCheckpoints: false)
        timeline.prefetchThreshold = round % 2 == 0 ? 16 : Int.max
        timeline.prefetchBatchSize = 5
        let position = 150 - round * 7
        let state = try? timeline.state(at: position)
        if state != expected[position] {
          mismatches.withLock { $0.append("log \(n) at \(position)") }
        }
      }
    }
    #expect(mismatches.withLock { $0 }.isEmpty)
  }
}

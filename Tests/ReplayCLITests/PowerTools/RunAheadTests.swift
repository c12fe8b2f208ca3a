import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// A session's worker rebuilds states ahead of the one shown while the user looks at it: steps
/// into that stretch need no round trip, and a crash it runs into is reported when the session
/// gets there, with the session and the next requests unharmed.
@Suite struct RunAheadTests {
  private func sessionTimeline(_ fixture: String) throws -> IsolatedTimeline {
    try PowerTools.useReplayBinaryAsWorker()
    let opened = try OpenedLog(
      path: PowerTools.fixture(fixture), recovery: .tail, apps: ReplayRun.apps,
      isolation: .worker(interactive: true))
    return try #require(opened.timeline as? IsolatedTimeline)
  }

  /// The crash report `body` fails with, or `nil` (with an issue recorded) when it does not.
  private func crashReport(_ body: () throws(ReplayError) -> Void) -> CrashReport? {
    let result = Result<Void, ReplayError> { () throws(ReplayError) in try body() }
    guard case .failure(.reducerCrashed(let report)) = result else {
      Issue.record("expected a reducer crash, got \(result)")
      return nil
    }
    return report
  }

  /// Waits (at most 30 s) until `condition` holds.
  private func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while !condition() {
      if Date() > deadline { return false }
      Platform.sleep(milliseconds: 5)
    }
    return true
  }

  @Test func stepsIntoTheStretchRebuiltAheadNeedNoRoundTrip() throws {
    let timeline = try sessionTimeline("todo-session.jsonl")
    let last = timeline.log.positions.upperBound
    _ = try timeline.stateJSON(at: 3)
    #expect(timeline.requestsSent == 1)
    #expect(eventually { timeline.isProven(last) }, "the worker rebuilt the log to its end")
    for position in 4...last { try timeline.reach(position) }
    #expect(timeline.requestsSent == 1, "no step asked the worker")
    // A state shown comes from the worker (unless it is a checkpoint's), and rebuilds ahead of
    // it again.
    let shown = try #require((4...last).last { !timeline.needsNoReducer($0) })
    let state = try timeline.stateJSON(at: shown)
    #expect(timeline.requestsSent == 2)
    #expect(state["todos"] != nil)
  }

  /// Requests reach a worker that has gone to sleep (through the shared memory, woken by a line
  /// feed on the socket), and a request too long for the shared memory goes over the socket.
  @Test func requestsReachASleepingWorkerAndLongOnesGoOverTheSocket() throws {
    let timeline = try sessionTimeline("todo-session.jsonl")
    let last = timeline.log.positions.upperBound
    _ = try timeline.stateJSON(at: 3)
    #expect(eventually { timeline.isProven(last) })
    for round in 0..<3 {
      // Past its run-ahead and its spin: asleep.
      #expect(eventually { timeline.workerIsAsleep })
      let position = 60 + round
      let state = try timeline.stateJSON(at: position)
      #expect(state == (try timeline.localStateJSON(at: position)))
    }
    // The actions 1…340, twenty times over: a request of about 29 KiB.
    let seqs = Array(repeating: Array(1...340), count: 20).flatMap { $0 }
    Platform.sleep(milliseconds: 20)
    let applied = try JSONParser.parse(try timeline.stateJSONText(runningOnly: seqs))
    #expect(applied["todos"] != nil)
    #expect(timeline.workersStarted == 1)
  }

  /// A worker whose rebuild ahead hangs (here: stopped with `SIGSTOP` in the middle of it, as a
  /// reducer stuck in a loop would leave it) does not hang the session: the next request ends it
  /// and goes to a new worker, which does not rebuild ahead that far again.
  @Test func aRebuildAheadThatHangsIsEndedAndNotRepeated() throws {
    try PowerTools.useReplayBinaryAsWorker()
    WorkerProcess.stuckNanoseconds.withLock { $0 = 200_000_000 }
    defer { WorkerProcess.stuckNanoseconds.withLock { $0 = 2_000_000_000 } }
    try CLIFixture.withTemporaryDirectory { directory in
      // Long enough that the worker is still rebuilding ahead when it is stopped.
      let path = directory.appendingPathComponent("long.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(to: path, app: "todo")
      var workload = TodoWorkload(seed: 24)
      for _ in 0..<20_000 { store.dispatch(workload.next(for: store.state)) }
      recorder.close()
      let opened = try OpenedLog(
        path: path, recovery: .tail, apps: ReplayRun.apps, isolation: .worker(interactive: true))
      let timeline = try #require(opened.timeline as? IsolatedTimeline)
      _ = try timeline.stateJSON(at: 3)
      #expect(eventually { timeline.isProven(8) }, "the worker is rebuilding ahead")
      let pid = try #require(timeline.workerProcessIdentifier)
      kill(pid, SIGSTOP)
      defer { kill(pid, SIGCONT) }
      try #require(timeline.workerIsRunningAhead, "stopped in the middle of its rebuild ahead")
      let state = try timeline.stateJSON(at: 10)
      #expect(state == (try timeline.localStateJSON(at: 10)))
      #expect(timeline.workersStarted == 2)
    }
  }

  @Test func aSkipIsNotCoveredByTheStretchRebuiltWithout() throws {
    let timeline = try sessionTimeline("todo-session.jsonl")
    _ = try timeline.stateJSON(at: 3)
    #expect(eventually { timeline.isProven(10) })
    timeline.setSkipped(8, true)
    #expect(!timeline.isProven(10))
    #expect(!timeline.isProven(4), "nothing is proven until the worker answers again")
    try timeline.reach(10)
    #expect(timeline.requestsSent == 2)
  }

  @Test func aCrashFoundAheadIsReportedWhenTheSessionGetsThere() throws {
    let timeline = try sessionTimeline("todo-crash.jsonl")
    _ = try timeline.stateJSON(at: 1)
    // The worker runs into action 38, whose reducer traps, while no one is asking.
    #expect(eventually { timeline.isProven(37) })
    #expect(!timeline.isProven(38))
    try timeline.reach(37)
    #expect(timeline.requestsSent == 1)
    #expect(eventually { !timeline.hasRunningWorker }, "the worker died on action 38")
    // The next request finds the worker gone and goes to a new one.
    let state = try timeline.stateJSON(at: 25)
    #expect(state["todos"] != nil)
    #expect(timeline.workersStarted == 2)
    let report = crashReport { () throws(ReplayError) in try timeline.reach(38) }
    #expect(report?.seq == 38)
    #expect(report?.message == "Index out of range")
    // With the fatal action skipped, the same positions replay.
    timeline.setSkipped(38, true)
    try timeline.reach(timeline.log.positions.upperBound)
  }
}

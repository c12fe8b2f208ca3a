import Foundation
import Rewind

/// `rewind-testbed runaway LOG HOW`: records the `traps` app, dispatches two `add`s, then the
/// action `HOW` names, whose reducer does not return: `hang` (``TrapAction/hang``, sleeps
/// forever) or `grow` (``TrapAction/grow``, takes memory without end). As the system does to an
/// app that hangs (a watchdog) or takes too much memory (an out-of-memory killer), a thread of
/// this process kills it with `SIGKILL` once the reducer has started on that action: the log is
/// cut off, its last action the one whose replay does not return either (`replay triage`'s
/// time and memory limits).
enum RunawayRecordChild {
  static func run(log path: String, how: String) throws {
    let action: TrapAction
    switch how {
    case "hang": action = .hang
    case "grow": action = .grow
    default: throw FixtureError("unknown runaway \(how): hang or grow")
    }
    let started = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      started.wait()
      kill(getpid(), SIGKILL)
    }
    // The action's line is written before the reducer runs: it is in the log when the kill comes.
    let reducer = Reducer<TrapState, TrapAction> { state, next in
      if next == action { started.signal() }
      trapReducer.reduce(&state, next)
    }
    let store = Store(initialState: TrapState(), reducer: reducer)
    _ = try store.startRecording(
      to: path, app: "traps", options: RecordingOptions(ifExists: .replace))
    store.dispatch(.add)
    store.dispatch(.add)
    store.dispatch(action)
    throw FixtureError("the \(how) action returned")
  }
}

import Foundation
import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// A store of the app's own that runs an action dispatched by a subscriber at once, inside the
/// current dispatch, and hands the state to the recorder after notifying: the recorder sees
/// `willReduce(A)`, `willReduce(B)`, `didReduce(B)`, `didReduce(A)`. The checkpoint due at A has
/// no state of its own; it is marked as skipped (reason `nested`) and the next state is
/// checkpointed instead, so nothing goes missing silently.
@Suite struct EagerNestedDispatchTests {
  /// Calls `willReduce` and `didReduce` around its reducer, with its subscriber in between.
  final class EagerStore: @unchecked Sendable {
    var state = CounterState()
    let recorder: Recorder<CounterState, CounterAction>
    var subscriber: ((CounterState) -> Void)?

    init(recorder: Recorder<CounterState, CounterAction>) { self.recorder = recorder }

    func dispatch(_ action: CounterAction) {
      recorder.willReduce(action)
      counterReducer.reduce(&state, action)
      let after = state
      subscriber?(after)
      recorder.didReduce(after)
    }
  }

  /// Records `add(1)`, `add(2)`, `add(1)` with a subscriber that increments every odd count.
  static func record(interval: Int, to path: String) throws -> EagerStore {
    let recorder = try Recorder<CounterState, CounterAction>(
      path: path, app: "counter", initialState: CounterState(),
      options: RecordingOptions(checkpointInterval: interval))
    let store = EagerStore(recorder: recorder)
    store.subscriber = { [unowned store] state in
      if state.count % 2 == 1 { store.dispatch(.increment) }
    }
    for n in [1, 2, 1] { store.dispatch(.add(n)) }
    recorder.close(finalState: store.state)
    return store
  }

  static func marks(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      .filter { $0.contains(#""kind":"state-skipped""#) }
      .map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return "\(object?["seq"] ?? "?"):\(object?["reason"] ?? "?")"
      }
  }

  @Test(arguments: [(1, [2, 3, 5], ["1:nested", "4:nested"]), (2, [2, 5], ["4:nested"])])
  func aCheckpointWithoutItsStateIsMarkedAndTheNextStateTakesItsPlace(
    interval: Int, checkpoints: [Int], marks: [String]
  ) throws {
    let path = NSTemporaryDirectory() + "rewind-eager-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try Self.record(interval: interval, to: path)
    #expect(store.state.count == 6)

    #expect(try Self.marks(path) == marks)
    let log = try ReplayLog(path: path)
    #expect(log.checkpointSeqs == checkpoints)
    #expect(log.skippedCheckpoints == marks.count)
    let timeline = try ReplayApp(name: "counter", reducer: counterReducer)
      .timeline(for: log, usesCheckpoints: false)
    let report = try Verifier.verify(timeline)
    #expect(report.isReproduced)
    #expect(report.checkpointsCompared == checkpoints.count)
  }
}

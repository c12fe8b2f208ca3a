import Foundation
import Rewind
import RewindExamples
import Testing

/// Actions dispatched while another is being handled — by a subscriber or a middleware, as
/// ReSwift apps do — are recorded in the order the reducer saw them, and every checkpoint that
/// falls due is written, with the state after its own action.
@Suite struct RecorderNestedDispatchTests {
  /// The log's records: each action's seq and type, each checkpoint's seq and count.
  static func records(_ path: String) throws -> (actions: [String], checkpoints: [Int: Int]) {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var actions: [String] = []
    var checkpoints: [Int: Int] = [:]
    for line in text.split(separator: "\n") {
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let kind = object["kind"] as? String
      else { continue }
      if kind == "action", let type = object["type"] as? String { actions.append(type) }
      if kind == "checkpoint", let seq = object["seq"] as? Int,
        let state = object["state"] as? [String: Any], let count = state["count"] as? Int
      {
        checkpoints[seq] = count
      }
    }
    return (actions, checkpoints)
  }

  @Test func aSubscriberThatDispatchesLosesNoCheckpoint() throws {
    let path = NSTemporaryDirectory() + "rewind-nested-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter", options: RecordingOptions(checkpointInterval: 1))
    // Every odd count asks for one more increment: 3 dispatches become 6 actions.
    let subscription = store.subscribe { state in
      if state.count % 2 == 1 && state.count < 20 { store.dispatch(.increment) }
    }
    for _ in 0..<3 { store.dispatch(.add(1)) }
    subscription.cancel()
    recorder.close()
    let (actions, checkpoints) = try Self.records(path)
    #expect(actions == ["add", "increment", "add", "increment", "add", "increment"])
    #expect(checkpoints == [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6])
  }

  @Test func aMiddlewareThatDispatchesLosesNoCheckpoint() throws {
    let path = NSTemporaryDirectory() + "rewind-nested-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    // Each `add` is followed by an `increment` the middleware asks for.
    let echo = Middleware<CounterState, CounterAction>(name: "echo") { action, context in
      if case .add = action { context.dispatch(.increment) }
      return action
    }
    let store = Store(initialState: CounterState(), reducer: counterReducer, middleware: [echo])
    let recorder = try store.startRecording(
      to: path, app: "counter", options: RecordingOptions(checkpointInterval: 1))
    for n in 1...4 { store.dispatch(.add(n)) }
    recorder.close()
    let (actions, checkpoints) = try Self.records(path)
    #expect(
      actions == ["add", "increment", "add", "increment", "add", "increment", "add", "increment"])
    #expect(checkpoints == [1: 1, 2: 2, 3: 4, 4: 5, 5: 8, 6: 9, 7: 13, 8: 14])
  }
}

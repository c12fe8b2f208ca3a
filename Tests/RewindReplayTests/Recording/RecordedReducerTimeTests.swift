import Foundation
import Rewind
import RewindExamples
import RewindReplay
import RewindTestSupport
import Testing

/// `RecordingOptions.recordsReducerTimes`: the recorder times every reducer and writes the times
/// as `costs` lines, which `ReplayLog.recordedReducerTimes()` reads back; and origins read back
/// through `ReplayLog`.
@Suite struct RecordedReducerTimeTests {
  /// A counter whose `add` sleeps for `add`'s value in milliseconds.
  static let slowReducer = Reducer<CounterState, CounterAction> { state, action in
    if case .add(let n) = action { usleep(useconds_t(n * 1000)) }
    counterReducer.reduce(&state, action)
  }

  @Test func everyActionHasItsTimeAndTheSlowOneIsSlow() throws {
    let path = NSTemporaryDirectory() + "rewind-costs-\(UUID().uuidString).jsonl"
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options = RecordingOptions(checkpointInterval: 100)
    options.recordsReducerTimes = true
    let store = Store(initialState: CounterState(), reducer: Self.slowReducer)
    let recorder = try store.startRecording(to: path, app: "counter", options: options)
    // 600 actions: two full lines of 256 and the rest at close.
    for n in 1...600 { store.dispatch(n == 300 ? .add(5) : .increment) }
    recorder.close()

    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.components(separatedBy: #""kind":"costs""#).count - 1 == 3)
    let log = try ReplayLog(path: path)
    #expect(log.ignoredLines == 0)
    let times = log.recordedReducerTimes()
    #expect(times.count == 600)
    #expect(Set(times.keys) == Set(1...600))
    // The sleep bounds the slow action's time from below; the others are judged by their
    // median, which no preemption of a few of them moves (a test never checks timing).
    #expect((times[300] ?? 0) >= 5_000_000)
    let others = times.filter { $0.key != 300 }.values.sorted()
    #expect(others[others.count / 2] < (times[300] ?? 0))
  }

  @Test func aLogWithoutThemHasNone() throws {
    let log = try ReplayLog(
      path: Repository.root.appendingPathComponent("Fixtures/todo-session.jsonl").path)
    #expect(log.recordedReducerTimes().isEmpty)
  }

  @Test func originsReadBackWithEachAction() throws {
    let log = try ReplayLog(
      path: Repository.root.appendingPathComponent("Fixtures/todo-origins.jsonl").path)
    let action = try log.action(at: 39)
    #expect(action.site == "RewindExamples/TodoScreen.swift:58")
    #expect(action.cause == 38)
    #expect(try log.action(at: 38).cause == nil)
    let links = log.causeLinks()
    #expect(links.causes == [39: 38, 63: 62, 79: 78])
    #expect(links.effects == [38: [39], 62: [63], 78: [79]])
  }
}

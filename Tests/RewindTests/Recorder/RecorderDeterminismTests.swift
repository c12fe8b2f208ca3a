import Foundation
import Rewind
import RewindExamples
import Testing

/// The determinism check on a ``Store`` recording: a reducer that reads the clock is reported
/// with the action and the path, once per action type; the check off reports nothing and runs
/// the reducer once per action.
@Suite struct RecorderDeterminismTests {
  /// Errors reported through `onError`.
  final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [RecorderError] = []
    func add(_ error: RecorderError) { lock.withLock { errors.append(error) } }
    var all: [RecorderError] { lock.withLock { errors } }
  }

  /// Counts reducer runs.
  final class Runs: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var total: Int { lock.withLock { count } }
  }

  struct Stamped: Codable, Equatable, Sendable { var stamps: [Double] = [] }
  enum Stamp: Codable, Equatable, Sendable { case now, keep }

  static func reducer(_ runs: Runs) -> Reducer<Stamped, Stamp> {
    Reducer { state, action in
      runs.add()
      if action == .now { state.stamps.append(Date().timeIntervalSinceReferenceDate) }
    }
  }

  @Test func aStoreRecordingReportsAReducerThatReadsTheClock() throws {
    let directory = try TemporaryDirectory()
    let reports = Reports()
    let runs = Runs()
    let store = Store(initialState: Stamped(), reducer: Self.reducer(runs))
    let recorder = try store.startRecording(
      to: directory.file("stamps.jsonl"), app: "stamps",
      options: RecordingOptions(determinismCheck: .sampled(every: 2)), onError: reports.add)
    for _ in 0..<6 { store.dispatch(.keep) }
    for _ in 0..<4 { store.dispatch(.now) }
    recorder.close()
    // Actions 1, 3, 5, 7 and 9 reduced twice (the first is sampled, then every second).
    #expect(runs.total == 15)
    let found = reports.all.compactMap { error -> (Int, String, String)? in
      guard case .nondeterministicReducer(let seq, let type, let path, _, _) = error.reason
      else { return nil }
      return (seq, type, path)
    }
    #expect(found.count == 1)
    #expect(found.first?.0 == 7)
    #expect(found.first?.1 == "now")
    #expect(found.first?.2 == "stamps[0]")
  }

  @Test func offRunsTheReducerOncePerActionAndSaysNothing() throws {
    let directory = try TemporaryDirectory()
    let reports = Reports()
    let runs = Runs()
    let store = Store(initialState: Stamped(), reducer: Self.reducer(runs))
    let recorder = try store.startRecording(
      to: directory.file("off.jsonl"), app: "stamps",
      options: RecordingOptions(determinismCheck: .off), onError: reports.add)
    for _ in 0..<10 { store.dispatch(.now) }
    recorder.close()
    #expect(runs.total == 10)
    #expect(reports.all.isEmpty)
  }

  @Test func theCheckStopsWithItsRecorderAndAnotherRecordersCheckTakesOver() throws {
    let directory = try TemporaryDirectory()
    let runs = Runs()
    let store = Store(initialState: Stamped(), reducer: Self.reducer(runs))
    let unchecked = try store.startRecording(
      to: directory.file("unchecked.jsonl"), app: "stamps",
      options: RecordingOptions(determinismCheck: .off))
    let checked = try store.startRecording(
      to: directory.file("checked.jsonl"), app: "stamps",
      options: RecordingOptions(determinismCheck: .sampled(every: 1)))
    for _ in 0..<3 { store.dispatch(.keep) }
    #expect(runs.total == 6)  // The second recorder's check runs the reducer twice.
    checked.close()
    for _ in 0..<3 { store.dispatch(.keep) }
    #expect(runs.total == 9)  // The first has no check: once per action.
    unchecked.close()
    let rechecked = try store.startRecording(
      to: directory.file("rechecked.jsonl"), app: "stamps",
      options: RecordingOptions(ifExists: .replace, determinismCheck: .sampled(every: 1)))
    store.dispatch(.keep)
    #expect(runs.total == 11)
    rechecked.close()
    store.dispatch(.keep)
    #expect(runs.total == 12)
  }
}

import Foundation
import Rewind
import Testing

/// A payload whose `Encodable` conformance always throws.
private struct Unencodable: Codable, Equatable, Sendable {
  init() {}
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {
    throw EncodingError.invalidValue(
      "unencodable", EncodingError.Context(codingPath: [], debugDescription: "cannot encode"))
  }
}

private enum FlakyAction: Codable, Equatable, Sendable {
  case count(Int)
  case poison(Unencodable)
}

private struct FlakyState: Codable, Equatable, Sendable {
  var total = 0
  var poisoned = 0
}

private let flakyReducer = Reducer<FlakyState, FlakyAction> { state, action in
  switch action {
  case .count(let amount): state.total += amount
  case .poison: state.poisoned += 1
  }
}

@Suite struct RecorderEncodingFailureTests {
  @Test func actionThatCannotBeEncodedLeavesASkippedLineAndIsReportedOnce() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("flaky.jsonl")
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: FlakyState(), reducer: flakyReducer)
    let recorder = try store.startRecording(
      to: path, app: "flaky", options: RecordingOptions(checkpointInterval: 0),
      onError: { errors.append($0) })
    let actions: [FlakyAction] = [
      .count(1), .poison(Unencodable()), .count(2), .poison(Unencodable()), .count(3),
    ]
    for action in actions { store.dispatch(action) }
    #expect(recorder.status.isRecording)
    #expect(recorder.lastSeq == 5)
    recorder.close()

    #expect(store.state == FlakyState(total: 6, poisoned: 2))
    #expect(recorder.status.isClosed)
    let error = try #require(errors.elements.first)
    #expect(errors.count == 1)
    #expect(error.stopsRecording == false)
    #expect(error.lastRecordedSeq == 1)
    #expect(error.path == path)
    guard case .actionEncodingFailed(let seq, let description) = error.reason else {
      Issue.record("reason \(error.reason)")
      return
    }
    #expect(seq == 2)
    #expect(description.contains("cannot encode"))

    let log = try RecordedLog(path: path)
    #expect(log.checksumProblems() == [])
    let records = try log.records(FlakyAction.self, FlakyState.self)
    #expect(
      records.map(\.shape) == [
        "header", "action 1", "skipped 2", "action 3", "skipped 4", "action 5", "checkpoint 5",
        "end 5",
      ])
    #expect(records.compactMap(\.action) == [.count(1), .count(2), .count(3)])
    let bodies = log.lineTexts.map { $0.dropFirst(16) }
    #expect(bodies[2] == #""kind":"skipped","seq":2,"type":"poison","reason":"encodingFailed"}"#)
    #expect(bodies[4] == #""kind":"skipped","seq":4,"type":"poison","reason":"encodingFailed"}"#)
  }
}

/// A state that cannot be encoded once it is broken.
private struct BreakableState: Codable, Equatable, Sendable {
  var count = 0
  var isBroken = false

  init(count: Int = 0, isBroken: Bool = false) {
    self.count = count
    self.isBroken = isBroken
  }

  func encode(to encoder: any Encoder) throws {
    if isBroken {
      throw EncodingError.invalidValue(
        count, EncodingError.Context(codingPath: [], debugDescription: "broken state"))
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    try container.encode(isBroken, forKey: .isBroken)
  }
}

private enum BreakingAction: Codable, Equatable, Sendable {
  case add(Int)
  case breakEncoding
}

private let breakingReducer = Reducer<BreakableState, BreakingAction> { state, action in
  switch action {
  case .add(let amount): state.count += amount
  case .breakEncoding: state.isBroken = true
  }
}

extension RecorderEncodingFailureTests {
  @Test func stateThatCannotBeEncodedAtACheckpointStopsRecording() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("breaking.jsonl")
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: BreakableState(), reducer: breakingReducer)
    let recorder = try store.startRecording(
      to: path, app: "breaking", options: RecordingOptions(checkpointInterval: 2),
      onError: { errors.append($0) })
    let actions: [BreakingAction] = [.add(1), .add(2), .breakEncoding, .add(4), .add(5), .add(6)]
    for action in actions { store.dispatch(action) }
    recorder.close()

    #expect(store.state == BreakableState(count: 18, isBroken: true))
    let error = try #require(errors.elements.first)
    #expect(errors.count == 1)
    #expect(error.stopsRecording)
    #expect(error.lastRecordedSeq == 4)
    guard case .stateEncodingFailed(let description) = error.reason else {
      Issue.record("reason \(error.reason)")
      return
    }
    #expect(description.contains("broken state"))
    #expect(recorder.status.stopError?.reason == error.reason)

    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    let records = try log.records(BreakingAction.self, BreakableState.self)
    #expect(
      records.map(\.shape) == [
        "header", "action 1", "action 2", "checkpoint 2", "action 3", "action 4",
      ])
  }

  @Test func initialStateThatCannotBeEncodedCreatesNoFile() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("broken.jsonl")
    let store = Store(initialState: BreakableState(isBroken: true), reducer: breakingReducer)

    let thrown = #expect(throws: RecorderError.self) {
      try store.startRecording(to: path, app: "breaking")
    }
    guard case .stateEncodingFailed = thrown?.reason else {
      Issue.record("reason \(String(describing: thrown?.reason))")
      return
    }
    #expect(thrown?.lastRecordedSeq == 0)
    #expect(!FileManager.default.fileExists(atPath: path))
    store.dispatch(.add(1))
    #expect(store.state.count == 1)
  }
}

/// A state large enough for the background path (over 16 KiB of JSON) that refuses to encode
/// once broken.
private struct LargeBreakableState: Codable, Equatable, Sendable {
  var items = (0..<1_000).map { "item \($0) with a few words in it" }
  var isBroken = false

  func encode(to encoder: any Encoder) throws {
    if isBroken {
      throw EncodingError.invalidValue(
        isBroken, EncodingError.Context(codingPath: [], debugDescription: "broken state"))
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(items, forKey: .items)
    try container.encode(isBroken, forKey: .isBroken)
  }
}

extension RecorderEncodingFailureTests {
  /// An `onError` that closes the recorder, called on the background queue by a checkpoint that
  /// failed there: closing must not wait for the job that calls it (it would never end).
  @Test func anOnErrorThatClosesTheRecorderFromTheBackgroundReturns() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("closing-on-error.jsonl")
    let errors = LockedArray<RecorderError>()
    let recorderSlot = Locked<Recorder<LargeBreakableState, BreakingAction>?>(nil)
    let closed = DispatchSemaphore(value: 0)
    let store = Store(
      initialState: LargeBreakableState(),
      reducer: Reducer<LargeBreakableState, BreakingAction> { state, action in
        if action == .breakEncoding { state.isBroken = true }
      })
    let recorder = try store.startRecording(
      to: path, app: "breaking", options: RecordingOptions(checkpointInterval: 2),
      onError: { error in
        errors.append(error)
        recorderSlot.withLock { $0 }?.close()
        closed.signal()
      })
    recorderSlot.withLock { $0 = recorder }
    store.dispatch(.breakEncoding)
    // Checkpoints fall due every other action; one is encoded in the background as soon as the
    // queue is free, fails there, and its `onError` closes the recorder.
    var returned = false
    for n in 0..<3_000 where !returned {
      store.dispatch(.add(n))
      returned = closed.wait(timeout: .now() + .milliseconds(1)) == .success
    }
    #expect(returned || closed.wait(timeout: .now() + 30) == .success, "onError's close returned")
    #expect(errors.count == 1)
    #expect(recorder.status.stopError != nil)
    recorder.close()
    // The slot and the recorder's `onError` hold each other: let go.
    recorderSlot.withLock { $0 = nil }
    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
  }
}

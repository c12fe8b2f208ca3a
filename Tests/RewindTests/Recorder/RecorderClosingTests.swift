import Foundation
import Rewind
import RewindExamples
import Testing

@Suite struct RecorderClosingTests {
  @Test func closeWritesOneEndRecordAndCanBeCalledAgain() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("close.jsonl")
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter", options: RecordingOptions(checkpointInterval: 0),
      onError: { errors.append($0) })
    for _ in 0..<3 { store.dispatch(.increment) }
    recorder.close()
    let afterFirstClose = try RecordedLog(path: path).bytes
    recorder.close()
    // Detached on close: later actions are reduced but not recorded.
    store.dispatch(.add(10))
    recorder.close()

    #expect(store.state.count == 13)
    #expect(recorder.status.isClosed)
    #expect(recorder.lastSeq == 3)
    #expect(errors.count == 0)
    let log = try RecordedLog(path: path)
    #expect(log.bytes == afterFirstClose)
    #expect(log.checksumProblems() == [])
    let records = try log.records(CounterAction.self, CounterState.self)
    #expect(
      records.map(\.shape) == [
        "header", "action 1", "action 2", "action 3", "checkpoint 3", "end 3",
      ], "closing writes the final state before the end record")
    #expect(records.last?.reason == "closed")
  }

  @Test func releasingTheStoreAndRecorderClosesTheLog() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("released.jsonl")
    try recordWithoutClosing(to: path, count: 4)

    let log = try RecordedLog(path: path)
    #expect(log.checksumProblems() == [])
    let records = try log.records(CounterAction.self, CounterState.self)
    #expect(
      records.map(\.shape) == ["header", "action 1", "action 2", "action 3", "action 4", "end 4"])
    #expect(records.last?.reason == "closed")
  }

  @Test func releasingTheRecorderHandleAloneKeepsRecording() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("kept.jsonl")
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    _ = try store.startRecording(to: path, app: "counter")
    store.dispatch(.increment)
    store.dispatch(.decrement)

    let records = try RecordedLog(path: path).records(CounterAction.self, CounterState.self)
    #expect(records.map(\.shape) == ["header", "action 1", "action 2"])
  }

  @Test func existingFileIsKeptWhenIfExistsIsFail() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("evidence.jsonl")
    let evidence = Data("a previous crash log\n".utf8)
    _ = FileManager.default.createFile(atPath: path, contents: evidence)
    let store = Store(initialState: CounterState(), reducer: counterReducer)

    let thrown = #expect(throws: RecorderError.self) {
      try store.startRecording(to: path, app: "counter")
    }
    #expect(thrown?.reason == .fileExists)
    #expect(thrown?.path == path)
    #expect(thrown?.lastRecordedSeq == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == evidence)
    store.dispatch(.increment)
    #expect(store.state.count == 1)
  }

  @Test func fileInAMissingFolderCannotBeOpened() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("no/such/folder/session.jsonl")
    let store = Store(initialState: CounterState(), reducer: counterReducer)

    let thrown = #expect(throws: RecorderError.self) {
      try store.startRecording(to: path, app: "counter")
    }
    #expect(thrown?.reason == .cannotOpen(errno: ENOENT))
    #expect(thrown?.path == path)
    #expect(thrown?.description.contains("check that the folder exists") == true)
  }

  /// Records `count` actions and lets the store and the recorder go without closing.
  private func recordWithoutClosing(to path: String, count: Int) throws {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(to: path, app: "counter")
    for _ in 0..<count { store.dispatch(.increment) }
    #expect(recorder.status.isRecording)
  }
}

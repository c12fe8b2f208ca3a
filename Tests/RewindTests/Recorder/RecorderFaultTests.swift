import Foundation
import Rewind
import RewindExamples
import Testing

/// The writes of a 30-action recording with a checkpoint every 10 actions, one line each: the
/// header, 30 actions, 3 checkpoints and the end record.
private let writesPerRecording = 1 + 30 + 3 + 1

/// Failures of the file layer, injected with ``FaultyFileSystem``: the app never notices beyond
/// one report, and the file keeps only whole, verified lines.
@Suite struct RecorderFaultTests {
  @Test(arguments: WriteFault.allCases, 1...(writesPerRecording + 1))
  func failedWriteStopsRecordingAtALineBoundary(fault: WriteFault, failingWrite: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("faulty.jsonl")
    let system = FaultyFileSystem(failingWrite: failingWrite, with: fault)
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let start = {
      try store.startRecording(
        to: path, app: "todo", options: RecordingOptions(checkpointInterval: 10),
        actionSanitizer: nil, stateSanitizer: nil, fileSystem: system,
        onError: { errors.append($0) })
    }

    if failingWrite == 1 {
      // The header cannot be written: recording does not start, and says why by throwing.
      let thrown = #expect(throws: RecorderError.self) { try start() }
      #expect(thrown?.reason == .writeFailed(errno: fault.errno))
      #expect(thrown?.lastRecordedSeq == 0)
      for action in faultWorkloadActions { store.dispatch(action) }
      #expect(store.state == faultWorkloadFinalState)
      #expect(errors.count == 0)
      #expect(try RecordedLog(path: path).bytes.isEmpty)
      return
    }

    let recorder = try start()
    for action in faultWorkloadActions { store.dispatch(action) }
    recorder.close()
    recorder.close()

    #expect(store.state == faultWorkloadFinalState)
    #expect(store.reducedCount == 30)
    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    let lastActionSeq = records.last { $0.kind == "action" }?.seq ?? 0

    if failingWrite > writesPerRecording {
      #expect(system.faultCount == 0)
      #expect(errors.count == 0)
      #expect(recorder.status.isClosed)
      #expect(log.lines.count == writesPerRecording)
      return
    }
    // Nothing is written after the failed write, and the lines before it are all there.
    #expect(system.faultCount == 1)
    #expect(system.writeCount == failingWrite)
    #expect(log.lines.count == failingWrite - 1)
    #expect(!records.contains { $0.kind == "end" })
    #expect(errors.elements.map(\.reason) == [.writeFailed(errno: fault.errno)])
    #expect(errors.elements.first?.lastRecordedSeq == lastActionSeq)
    #expect(errors.elements.first?.stopsRecording == true)
    #expect(errors.elements.first?.path == path)
    let stopped = try #require(recorder.status.stopError, "status \(recorder.status)")
    #expect(stopped.reason == .writeFailed(errno: fault.errno))
    #expect(stopped.lastRecordedSeq == lastActionSeq)
  }

  @Test(arguments: WriteFault.allCases, 1...12)
  func failedBufferedWriteLeavesOnlyWholeLines(fault: WriteFault, failingWrite: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("faulty.jsonl")
    let system = FaultyFileSystem(failingWrite: failingWrite, with: fault)
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: path, app: "todo",
      options: RecordingOptions(durability: .buffered(capacity: 512), checkpointInterval: 10),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system,
      onError: { errors.append($0) })
    for action in faultWorkloadActions { store.dispatch(action) }
    recorder.close()

    #expect(store.state == faultWorkloadFinalState)
    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    guard system.faultCount == 1 else {
      // Fewer writes than `failingWrite`: the recording closed cleanly.
      #expect(errors.count == 0)
      #expect(recorder.status.isClosed)
      #expect(records.last?.shape == "end 30")
      return
    }
    #expect(system.writeCount == failingWrite)
    #expect(!records.contains { $0.kind == "end" })
    #expect(errors.elements.map(\.reason) == [.writeFailed(errno: fault.errno)])
    #expect(recorder.status.stopError?.reason == .writeFailed(errno: fault.errno))
    // `lastRecordedSeq` promises the log is intact up to it: the buffered lines that were lost
    // with the failed write must not count.
    let lastActionSeq = records.last { $0.kind == "action" }?.seq ?? 0
    #expect(errors.elements.first?.lastRecordedSeq == lastActionSeq)
  }

  @Test(arguments: 1...6)
  func failedSyncStopsRecordingWithoutRetrying(failingSync: Int) throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("faulty.jsonl")
    let system = FaultyFileSystem(failingSync: failingSync, syncErrno: EIO)
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let start = {
      try store.startRecording(
        to: path, app: "todo",
        options: RecordingOptions(durability: .everyAction, checkpointInterval: 10),
        actionSanitizer: nil, stateSanitizer: nil, fileSystem: system,
        onError: { errors.append($0) })
    }
    if failingSync == 1 {
      // The header's sync fails: recording does not start.
      let thrown = #expect(throws: RecorderError.self) { try start() }
      #expect(thrown?.reason == .syncFailed(errno: EIO))
      #expect(system.syncCount == 1)
      return
    }
    let recorder = try start()
    for action in faultWorkloadActions { store.dispatch(action) }
    recorder.close()

    #expect(store.state == faultWorkloadFinalState)
    #expect(system.syncCount == failingSync)
    #expect(system.writeCount == failingSync)
    #expect(errors.elements.map(\.reason) == [.syncFailed(errno: EIO)])
    #expect(recorder.status.stopError?.reason == .syncFailed(errno: EIO))
    // The line whose sync failed was written; it stays (a failed sync does not cut the file).
    let log = try RecordedLog(path: path)
    #expect(log.lines.count == failingSync)
    #expect(log.checksumProblems() == [])
  }

  @Test func failedBackgroundSyncIsReportedOnceAndNotRetried() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("faulty.jsonl")
    let system = FaultyFileSystem(failingSync: 1, syncErrno: EIO)
    let errors = LockedArray<RecorderError>()
    let reported = DispatchSemaphore(value: 0)
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: path, app: "todo",
      options: RecordingOptions(durability: .interval(.milliseconds(1)), checkpointInterval: 10),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system,
      onError: {
        errors.append($0)
        reported.signal()
      })
    for action in faultWorkloadActions.prefix(10) { store.dispatch(action) }
    // Waits for the event, not for a time: the bound only keeps a broken timer from hanging.
    #expect(reported.wait(timeout: .now() + 60) == .success)
    for action in faultWorkloadActions.dropFirst(10) { store.dispatch(action) }
    recorder.close()

    #expect(store.state == faultWorkloadFinalState)
    #expect(errors.elements.map(\.reason) == [.syncFailed(errno: EIO)])
    #expect(recorder.status.stopError?.reason == .syncFailed(errno: EIO))
    #expect(system.syncCount == 1)
    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    #expect(RecordedLog.sequenceProblems(try log.records(TodoAction.self, TodoState.self)) == [])
  }

  @Test func failedRotationIsReportedOnceAndLeavesWholeLines() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("faulty.jsonl")
    let system = FaultyFileSystem(renameErrno: EACCES)
    let errors = LockedArray<RecorderError>()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: path, app: "todo",
      options: RecordingOptions(
        checkpointInterval: 10, rotation: Rotation(maxBytes: 1024, keepFiles: 3)),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system,
      onError: { errors.append($0) })
    for action in faultWorkloadActions { store.dispatch(action) }
    recorder.close()

    #expect(store.state == faultWorkloadFinalState)
    #expect(errors.elements.map(\.reason) == [.rotationFailed(errno: EACCES)])
    #expect(recorder.status.stopError?.reason == .rotationFailed(errno: EACCES))
    #expect(try directory.fileNames() == ["faulty.jsonl"])
    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    #expect(RecordedLog.sequenceProblems(records) == [])
    #expect(errors.elements.first?.lastRecordedSeq == records.last { $0.kind == "action" }?.seq)
    // No `rotated` end record promising a next file that was never made.
    #expect(!records.contains { $0.kind == "end" })
  }
}

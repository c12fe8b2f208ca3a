import Foundation
import RewindExamples
import Testing

@testable import Rewind

/// ``Durability/interval(_:)`` syncs the file being written in the background, whatever its last
/// lines were: an action, or a checkpoint encoded and written in the background after the last
/// action (which the sync used to miss: only action lines marked the file as written); and the
/// files rotated away, whose last lines (the final state, the `rotated` record) it used to miss
/// too. Closing waits for a sync in flight and reports its failure.
@Suite struct IntervalDurabilityTests {
  /// A ``LogFileSystem`` over the real one that remembers, for each file opened, the order of
  /// its last write and its last `fdatasync` (a duplicated handle is the same file).
  final class SyncTrackingFileSystem: LogFileSystem {
    struct File {
      var path: String
      var lastWrite = 0
      var lastSync = 0
    }
    private let base = POSIXLogFileSystem()
    private let state = Locked((clock: 0, files: [File](), openHandles: 0))
    /// Whether `duplicate()` fails, as with no descriptor left (`EMFILE`).
    let duplicatesFail: Bool

    init(duplicatesFail: Bool = false) {
      self.duplicatesFail = duplicatesFail
    }

    /// The paths (as opened) of the files whose last write came after their last sync.
    var unsyncedFiles: [String] {
      state.withLock { $0.files.filter { $0.lastWrite > $0.lastSync }.map(\.path) }
    }
    /// The indexes, in the order the files were opened, of those whose last write came after
    /// their last sync.
    var unsyncedFileIndexes: [Int] {
      state.withLock { state in
        state.files.indices.filter { state.files[$0].lastWrite > state.files[$0].lastSync }
      }
    }
    /// How many files were opened.
    var fileCount: Int { state.withLock { $0.files.count } }
    /// How many handles (opened or duplicated) are not closed.
    var openHandles: Int { state.withLock { $0.openHandles } }

    func open(_ path: String, exclusive: Bool) -> Result<any LogFileHandle, LogFileFailure> {
      base.open(path, exclusive: exclusive).map { handle in
        let file = state.withLock { state -> Int in
          state.files.append(File(path: path))
          return state.files.count - 1
        }
        return Tracked(handle, file: file, in: self)
      }
    }
    func rename(_ from: String, to: String) -> Int32 { base.rename(from, to: to) }
    func remove(_ path: String) { base.remove(path) }
    func removeFreeingLater(_ path: String) -> (@Sendable () -> Void)? {
      base.removeFreeingLater(path)
    }
    func exists(_ path: String) -> Bool { base.exists(path) }

    fileprivate func note(file: Int, isSync: Bool) {
      state.withLock { state in
        state.clock += 1
        if isSync {
          state.files[file].lastSync = state.clock
        } else {
          state.files[file].lastWrite = state.clock
        }
      }
    }

    fileprivate func noteHandle(opened: Bool) {
      state.withLock { $0.openHandles += opened ? 1 : -1 }
    }

    private final class Tracked: LogFileHandle {
      let inner: any LogFileHandle
      let file: Int
      let system: SyncTrackingFileSystem
      private let isOpen = Locked(true)
      init(_ inner: any LogFileHandle, file: Int, in system: SyncTrackingFileSystem) {
        self.inner = inner
        self.file = file
        self.system = system
        system.noteHandle(opened: true)
      }
      deinit { close() }
      func write(_ bytes: UnsafeRawBufferPointer) -> (written: Int, errno: Int32?) {
        system.note(file: file, isSync: false)
        return inner.write(bytes)
      }
      func dataSync() -> Int32 {
        let code = inner.dataSync()
        system.note(file: file, isSync: true)
        return code
      }
      func truncate(to length: Int) -> Int32 { inner.truncate(to: length) }
      func duplicate() -> (any LogFileHandle)? {
        guard !system.duplicatesFail else { return nil }
        return inner.duplicate().map { Tracked($0, file: file, in: system) }
      }
      func close() {
        let wasOpen = isOpen.withLock { open in
          defer { open = false }
          return open
        }
        guard wasOpen else { return }
        system.noteHandle(opened: false)
        inner.close()
      }
    }
  }

  @Test func theBackgroundSyncCoversEveryWriteToTheFile() throws {
    let directory = try TemporaryDirectory()
    let system = SyncTrackingFileSystem()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: directory.file("interval.jsonl"), app: "todo",
      options: RecordingOptions(durability: .interval(.milliseconds(10)), checkpointInterval: 10),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system, onError: { _ in })
    defer { recorder.close() }
    // Titles long enough that the checkpoints (over 16 KiB of JSON) are written in the
    // background, the last one after the last action.
    let padding = String(repeating: "x", count: 120)
    for round in 0..<200 { store.dispatch(.add(title: "todo \(round) \(padding)")) }
    // Nothing is written any more: the next sync leaves the file synced. (Waiting up to 30 s
    // for it, a timer of 10 ms: only a missing sync makes this slow.)
    let deadline = Date().addingTimeInterval(30)
    while !system.unsyncedFiles.isEmpty && Date() < deadline { usleep(5_000) }
    #expect(system.fileCount == 1)
    #expect(system.unsyncedFiles.isEmpty, "the last lines were never synced")
  }

  /// Files rotated away end with lines written after the last action (the final state, the
  /// `rotated` record); the background sync covers them, holding a handle on at most the kept
  /// rotated files meanwhile, and closing leaves no handle open.
  @Test func theBackgroundSyncCoversTheFilesRotatedAway() throws {
    let directory = try TemporaryDirectory()
    let system = SyncTrackingFileSystem()
    let keepFiles = 3
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: directory.file("rotating.jsonl"), app: "todo",
      options: RecordingOptions(
        durability: .interval(.milliseconds(10)), checkpointInterval: 10,
        rotation: Rotation(maxBytes: 16_384, keepFiles: keepFiles)),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system, onError: { _ in })
    let padding = String(repeating: "x", count: 120)
    for round in 0..<300 {
      store.dispatch(.add(title: "todo \(round) \(padding)"))
      // Rotated files pending a sync are bounded by the kept ones (plus the current file and a
      // sync's own duplicates).
      #expect(system.openHandles <= 2 * keepFiles + 1)
    }
    #expect(system.fileCount > keepFiles + 2, "the recording rotated several times")
    // The files still on disk are the last `keepFiles` opened; each is synced after its last
    // line once the writing stops (waiting up to 30 s for a 10 ms timer).
    let kept = (system.fileCount - keepFiles)..<system.fileCount
    func unsyncedKeptFiles() -> [Int] { system.unsyncedFileIndexes.filter(kept.contains) }
    let deadline = Date().addingTimeInterval(30)
    while !unsyncedKeptFiles().isEmpty && Date() < deadline { usleep(5_000) }
    #expect(unsyncedKeptFiles().isEmpty, "the last lines of a rotated file were never synced")
    recorder.close()
    #expect(system.openHandles == 0)
    if case .closed = recorder.status {
    } else {
      Issue.record("the recording should have closed cleanly: \(recorder.status)")
    }
  }

  /// With no descriptor to duplicate, a file rotated away is synced at the rotation instead of
  /// never, and the file being written is synced by `close()`.
  @Test func withoutDescriptorsToSpareRotatedFilesAreSyncedAtTheRotation() throws {
    let directory = try TemporaryDirectory()
    let system = SyncTrackingFileSystem(duplicatesFail: true)
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: directory.file("no-descriptors.jsonl"), app: "todo",
      options: RecordingOptions(
        durability: .interval(.milliseconds(10)), checkpointInterval: 10,
        rotation: Rotation(maxBytes: 16_384, keepFiles: 3)),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system, onError: { _ in })
    let padding = String(repeating: "x", count: 120)
    for round in 0..<300 { store.dispatch(.add(title: "todo \(round) \(padding)")) }
    recorder.close()
    #expect(system.fileCount > 4, "the recording rotated several times")
    #expect(system.unsyncedFileIndexes.isEmpty, "files never synced: \(system.unsyncedFileIndexes)")
    #expect(system.openHandles == 0)
  }

  /// A file system whose duplicated handles (the background sync's) block in `fdatasync` until
  /// released, then fail with `EIO`.
  final class BlockingSyncFileSystem: LogFileSystem {
    private let base = POSIXLogFileSystem()
    /// Signalled when a background sync starts.
    let syncStarted = DispatchSemaphore(value: 0)
    /// Signal to let the background sync return.
    let releaseSync = DispatchSemaphore(value: 0)

    func open(_ path: String, exclusive: Bool) -> Result<any LogFileHandle, LogFileFailure> {
      base.open(path, exclusive: exclusive).map { Handle($0, system: self, isDuplicate: false) }
    }
    func rename(_ from: String, to: String) -> Int32 { base.rename(from, to: to) }
    func remove(_ path: String) { base.remove(path) }
    func removeFreeingLater(_ path: String) -> (@Sendable () -> Void)? {
      base.removeFreeingLater(path)
    }
    func exists(_ path: String) -> Bool { base.exists(path) }

    private final class Handle: LogFileHandle {
      let inner: any LogFileHandle
      let system: BlockingSyncFileSystem
      let isDuplicate: Bool
      init(_ inner: any LogFileHandle, system: BlockingSyncFileSystem, isDuplicate: Bool) {
        self.inner = inner
        self.system = system
        self.isDuplicate = isDuplicate
      }
      func write(_ bytes: UnsafeRawBufferPointer) -> (written: Int, errno: Int32?) {
        inner.write(bytes)
      }
      func dataSync() -> Int32 {
        guard isDuplicate else { return inner.dataSync() }
        system.syncStarted.signal()
        system.releaseSync.wait()
        return EIO
      }
      func truncate(to length: Int) -> Int32 { inner.truncate(to: length) }
      func duplicate() -> (any LogFileHandle)? {
        inner.duplicate().map { Handle($0, system: system, isDuplicate: true) }
      }
      func close() { inner.close() }
    }
  }

  /// `close()` while a background sync is in flight waits for it, and the sync's failure is
  /// reported (the recording stopped by it), not dropped because the file closed meanwhile.
  @Test func closingWaitsForASyncInFlightAndReportsItsFailure() throws {
    let directory = try TemporaryDirectory()
    let system = BlockingSyncFileSystem()
    let errors = Locked<[RecorderError]>([])
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: directory.file("blocked.jsonl"), app: "todo",
      options: RecordingOptions(durability: .interval(.milliseconds(10))),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system,
      onError: { error in errors.withLock { $0.append(error) } })
    store.dispatch(.add(title: "one"))
    #expect(system.syncStarted.wait(timeout: .now() + 30) == .success, "no background sync")
    let closed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      recorder.close()
      closed.signal()
    }
    // Still waiting for the sync (a broken wait would usually have returned by now).
    #expect(closed.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
    system.releaseSync.signal()
    #expect(closed.wait(timeout: .now() + 30) == .success)
    // Reported on the sync's own thread, outside its lock (the handler may close the recorder).
    let deadline = Date().addingTimeInterval(10)
    while errors.withLock({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
    let reasons = errors.withLock { $0.map(\.reason) }
    #expect(reasons == [.syncFailed(errno: EIO)])
    if case .stopped(let error) = recorder.status {
      #expect(error.reason == .syncFailed(errno: EIO))
    } else {
      Issue.record("the recording should have stopped on the failed sync: \(recorder.status)")
    }
  }

  /// What the background sync asks the file's writer: whether any bytes — of any line — were
  /// written since the last sync.
  @Test func theWriterSaysWhenAnyLineWasWrittenSinceTheLastSync() throws {
    let directory = try TemporaryDirectory()
    let writer = try LogWriter(
      path: directory.file("lines.jsonl"), fileSystem: POSIXLogFileSystem(), exclusive: true,
      durability: .interval(.seconds(1)))
    defer { writer.close() }
    #expect(!writer.takeUnsyncedBytes(), "nothing written yet")
    try writer.append(Array(#"{"kind":"checkpoint","seq":1,"state":{}}"#.utf8) + [0x0A], seq: 1)
    #expect(writer.takeUnsyncedBytes(), "a checkpoint's line")
    #expect(!writer.takeUnsyncedBytes(), "taken")
    try writer.append(
      Array(#"{"kind":"state","seq":1,"part":0,"parts":1,"text":"{}"}"#.utf8) + [0x0A], seq: 1)
    try writer.sync()
    #expect(!writer.takeUnsyncedBytes(), "synced")
  }
}

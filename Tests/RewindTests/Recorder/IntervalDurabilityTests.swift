import Foundation
import RewindExamples
import Testing

@testable import Rewind

/// ``Durability/interval(_:)`` syncs the file being written in the background, whatever its last
/// lines were: an action, or a checkpoint encoded and written in the background after the last
/// action (which the sync used to miss: only action lines marked the file as written).
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
    private let state = Locked((clock: 0, files: [File]()))

    /// The paths (as opened) of the files whose last write came after their last sync.
    var unsyncedFiles: [String] {
      state.withLock { $0.files.filter { $0.lastWrite > $0.lastSync }.map(\.path) }
    }
    /// How many files were opened.
    var fileCount: Int { state.withLock { $0.files.count } }

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

    private final class Tracked: LogFileHandle {
      let inner: any LogFileHandle
      let file: Int
      let system: SyncTrackingFileSystem
      init(_ inner: any LogFileHandle, file: Int, in system: SyncTrackingFileSystem) {
        self.inner = inner
        self.file = file
        self.system = system
      }
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
        inner.duplicate().map { Tracked($0, file: file, in: system) }
      }
      func close() { inner.close() }
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

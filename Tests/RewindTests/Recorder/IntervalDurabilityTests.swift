import Foundation
import RewindExamples
import Testing

@testable import Rewind

/// ``Durability/interval(_:)`` syncs in the background: the file being written, whatever its
/// last lines were (an action, a checkpoint written in the background after the last action),
/// and the files rotated away since the last sync, whose last lines (the final checkpoint, the
/// `end` record) come after it — so that the interval bounds what a power loss can take from
/// any file.
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

  /// Records 200 todo actions with `.interval(interval)` durability, a new file every KiB, through
  /// a ``SyncTrackingFileSystem``; the recorder is left open.
  static func recordRotating(
    in directory: TemporaryDirectory, syncingEvery interval: Duration
  ) throws -> (Recorder<TodoState, TodoAction>, SyncTrackingFileSystem) {
    let system = SyncTrackingFileSystem()
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: directory.file("interval.jsonl"), app: "todo",
      options: RecordingOptions(
        durability: .interval(interval), checkpointInterval: 10,
        rotation: Rotation(maxBytes: 1_024, keepFiles: 1_000)),
      actionSanitizer: nil, stateSanitizer: nil, fileSystem: system, onError: { _ in })
    for round in 0..<200 { store.dispatch(.add(title: "todo \(round)")) }
    #expect(system.fileCount > 5, "the recording rotated \(system.fileCount - 1) times")
    return (recorder, system)
  }

  @Test func everyFileRotatedAwayIsSyncedByTheCloseAtTheLatest() throws {
    // An interval longer than the test: only the rotations' handling and the close can sync.
    let directory = try TemporaryDirectory()
    let (recorder, system) = try Self.recordRotating(in: directory, syncingEvery: .seconds(3_600))
    recorder.close()
    #expect(recorder.status.stopError == nil)
    #expect(system.unsyncedFiles.isEmpty, "\(system.unsyncedFiles.count) files never synced")
  }

  @Test func theBackgroundSyncCoversTheFilesRotatedAwaySinceTheLastOne() throws {
    let directory = try TemporaryDirectory()
    let (recorder, system) = try Self.recordRotating(in: directory, syncingEvery: .milliseconds(10))
    defer { recorder.close() }
    // Nothing is written any more: the next sync leaves every file synced. (Waiting up to 30 s
    // for it, a timer of 10 ms: only a missing sync makes this slow.)
    let deadline = Date().addingTimeInterval(30)
    while !system.unsyncedFiles.isEmpty && Date() < deadline { usleep(5_000) }
    #expect(system.unsyncedFiles.isEmpty, "\(system.unsyncedFiles.count) files never synced")
  }
}

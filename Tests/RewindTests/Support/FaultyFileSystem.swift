import Foundation
import Rewind

/// What goes wrong at the chosen `write`.
enum WriteFault: Sendable, CaseIterable, CustomStringConvertible {
  /// The write fails with `ENOSPC` and writes nothing.
  case noSpace
  /// The write fails with `EIO` and writes nothing.
  case ioError
  /// The write puts the first half of the bytes in the file, then fails with `ENOSPC` (a disk
  /// that filled up in the middle of a line).
  case shortWrite

  /// The `errno` the write returns.
  var errno: Int32 {
    switch self {
    case .noSpace, .shortWrite: return ENOSPC
    case .ioError: return EIO
    }
  }
}

extension WriteFault {
  /// The fault as test output names it.
  var description: String {
    switch self {
    case .noSpace: return "ENOSPC"
    case .ioError: return "EIO"
    case .shortWrite: return "short write, then ENOSPC"
    }
  }
}

/// A ``LogFileSystem`` over the real file system that fails on purpose: the `failingWrite`-th
/// `write` of any of its handles (counting from 1) fails with `writeFault`, the `failingSync`-th
/// `fdatasync` fails with `syncErrno`, and every `rename` fails with `renameErrno`. It counts the
/// calls, so a test can check that the recorder stops after a failure and never retries.
final class FaultyFileSystem: LogFileSystem {
  private struct Counters {
    var writes = 0
    var syncs = 0
    var renames = 0
    var faults = 0
  }

  private let base = POSIXLogFileSystem()
  private let counters = Locked(Counters())
  private let failingWrite: Int?
  private let writeFault: WriteFault
  private let failingSync: Int?
  private let syncErrno: Int32
  private let renameErrno: Int32?

  /// Creates the file system with the faults to inject.
  init(
    failingWrite: Int? = nil, with writeFault: WriteFault = .noSpace,
    failingSync: Int? = nil, syncErrno: Int32 = EIO, renameErrno: Int32? = nil
  ) {
    self.failingWrite = failingWrite
    self.writeFault = writeFault
    self.failingSync = failingSync
    self.syncErrno = syncErrno
    self.renameErrno = renameErrno
  }

  /// How many `write` calls were made, the failing one included.
  var writeCount: Int { counters.withLock { $0.writes } }
  /// How many `fdatasync` calls were made, the failing one included.
  var syncCount: Int { counters.withLock { $0.syncs } }
  /// How many `rename` calls were made.
  var renameCount: Int { counters.withLock { $0.renames } }
  /// How many faults were injected.
  var faultCount: Int { counters.withLock { $0.faults } }

  func open(_ path: String, exclusive: Bool) -> Result<any LogFileHandle, LogFileFailure> {
    base.open(path, exclusive: exclusive).map { FaultyFileHandle(wrapping: $0, in: self) }
  }

  func rename(_ from: String, to: String) -> Int32 {
    counters.withLock { $0.renames += 1 }
    if let renameErrno {
      counters.withLock { $0.faults += 1 }
      return renameErrno
    }
    return base.rename(from, to: to)
  }

  func remove(_ path: String) { base.remove(path) }

  func exists(_ path: String) -> Bool { base.exists(path) }

  fileprivate func write(
    _ bytes: UnsafeRawBufferPointer, through inner: any LogFileHandle
  ) -> (written: Int, errno: Int32?) {
    let isFaulty = counters.withLock { counters -> Bool in
      counters.writes += 1
      guard counters.writes == failingWrite else { return false }
      counters.faults += 1
      return true
    }
    guard isFaulty else { return inner.write(bytes) }
    switch writeFault {
    case .noSpace, .ioError:
      return (0, writeFault.errno)
    case .shortWrite:
      let half = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count / 2)])
      let (written, _) = inner.write(half)
      return (written, writeFault.errno)
    }
  }

  fileprivate func dataSync(through inner: any LogFileHandle) -> Int32 {
    let isFaulty = counters.withLock { counters -> Bool in
      counters.syncs += 1
      guard counters.syncs == failingSync else { return false }
      counters.faults += 1
      return true
    }
    return isFaulty ? syncErrno : inner.dataSync()
  }
}

/// A handle of a ``FaultyFileSystem``: passes every call to the real handle, except the faults.
private final class FaultyFileHandle: LogFileHandle {
  private let inner: any LogFileHandle
  private let system: FaultyFileSystem

  init(wrapping inner: any LogFileHandle, in system: FaultyFileSystem) {
    self.inner = inner
    self.system = system
  }

  func write(_ bytes: UnsafeRawBufferPointer) -> (written: Int, errno: Int32?) {
    system.write(bytes, through: inner)
  }

  func dataSync() -> Int32 { system.dataSync(through: inner) }

  func truncate(to length: Int) -> Int32 { inner.truncate(to: length) }

  func duplicate() -> (any LogFileHandle)? {
    inner.duplicate().map { FaultyFileHandle(wrapping: $0, in: system) }
  }

  func close() { inner.close() }
}

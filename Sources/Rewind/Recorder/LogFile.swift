/// The file operations the recorder performs: the seam through which tests inject faults
/// (`ENOSPC`, `EIO`, short writes) at any write.
package protocol LogFileSystem: Sendable {
  /// Opens `path` for appending (mode 0600). Returns the handle or the `errno`.
  func open(_ path: String, exclusive: Bool) -> Result<any LogFileHandle, LogFileFailure>
  /// Renames a file; 0 or the `errno`.
  func rename(_ from: String, to: String) -> Int32
  /// Removes a file, ignoring a missing one.
  func remove(_ path: String)
  /// Removes `path` from its folder at once, and returns what frees its storage, to run off the
  /// dispatching thread (`nil` when there is nothing left to do): deleting a large file frees
  /// its blocks, milliseconds on common file systems, which the last `close` of a file removed
  /// while open does instead.
  func removeFreeingLater(_ path: String) -> (@Sendable () -> Void)?
  /// Whether a file exists at `path`.
  func exists(_ path: String) -> Bool
}

extension LogFileSystem {
  /// ``remove(_:)`` at once: for file layers that do not keep files open.
  package func removeFreeingLater(_ path: String) -> (@Sendable () -> Void)? {
    remove(path)
    return nil
  }
}

/// An `errno` from the file layer.
package struct LogFileFailure: Error, Sendable {
  package var errno: Int32
  package init(errno: Int32) { self.errno = errno }
}

/// An open log file. Used by one thread at a time (the recorder serialises its calls).
package protocol LogFileHandle: AnyObject, Sendable {
  /// Appends bytes with `write(2)`, completing short writes; returns how many were written and
  /// the `errno` when fewer than all.
  func write(_ bytes: UnsafeRawBufferPointer) -> (written: Int, errno: Int32?)
  /// `fdatasync`; 0 or the `errno`.
  func dataSync() -> Int32
  /// Cuts the file back to `length` bytes; 0 or the `errno`.
  func truncate(to length: Int) -> Int32
  /// A second handle on the same open file, for syncing from another thread.
  func duplicate() -> (any LogFileHandle)?
  /// Closes the handle. Further calls fail with `EBADF`.
  func close()
}

/// The real file system, through POSIX calls.
package struct POSIXLogFileSystem: LogFileSystem {
  package init() {}

  package func open(_ path: String, exclusive: Bool) -> Result<any LogFileHandle, LogFileFailure> {
    let fd = Platform.openForAppend(path, exclusive: exclusive)
    guard fd >= 0 else { return .failure(LogFileFailure(errno: -fd)) }
    return .success(POSIXLogFile(fd: fd))
  }

  package func rename(_ from: String, to: String) -> Int32 { Platform.rename(from, to: to) }

  package func remove(_ path: String) { Platform.removeFile(path) }

  package func removeFreeingLater(_ path: String) -> (@Sendable () -> Void)? {
    guard case .success(let opened) = Platform.openForReading(path) else {
      Platform.removeFile(path)
      return nil
    }
    Platform.removeFile(path)
    let fd = opened.fd
    return { Platform.close(fd) }
  }

  package func exists(_ path: String) -> Bool { Platform.fileIdentity(path) != nil }
}

/// A file descriptor opened with `O_APPEND`.
package final class POSIXLogFile: LogFileHandle, @unchecked Sendable {
  // `@unchecked Sendable`: `fd` is written only by `close()`; the recorder never calls `close()`
  // concurrently with other calls on the same handle (its calls are serialised by its lock, and
  // the background syncer works on a `duplicate()` it owns alone).
  private var fd: Int32

  package init(fd: Int32) { self.fd = fd }

  /// The descriptor (-1 once closed), for a writer that calls `write(2)` on it directly.
  package var descriptor: Int32 { fd }

  package func write(_ bytes: UnsafeRawBufferPointer) -> (written: Int, errno: Int32?) {
    guard fd >= 0 else { return (0, Platform.badDescriptor) }
    let (written, code) = Platform.writeAll(fd, bytes)
    return (written, code)
  }

  package func dataSync() -> Int32 { fd >= 0 ? Platform.dataSync(fd) : Platform.badDescriptor }

  package func truncate(to length: Int) -> Int32 {
    fd >= 0 ? Platform.truncate(fd, to: length) : Platform.badDescriptor
  }

  package func duplicate() -> (any LogFileHandle)? {
    guard fd >= 0 else { return nil }
    let copy = Platform.duplicate(fd)
    return copy >= 0 ? POSIXLogFile(fd: copy) : nil
  }

  package func close() {
    if fd >= 0 { Platform.close(fd) }
    fd = -1
  }

  deinit { close() }
}

/// The syncs a recording makes outside its lock or on closing: the current file's and those of
/// the files rotated away with lines never synced (``Durability/interval(_:)``).
extension RecorderCore {
  /// Private handles for an `fdatasync` outside the lock: the files rotated away since the last
  /// one with lines never synced, then the current file when bytes were written to it since
  /// (any line: an action, a checkpoint or state written in the background, a header). The
  /// caller syncs and closes each.
  mutating func handlesForBackgroundSync() -> [any LogFileHandle] {
    guard isRecording else { return [] }
    var handles = rotatedAwaitingSync
    rotatedAwaitingSync = []
    // The flag is taken only with a handle to sync: with none (no descriptor left), the next
    // sync tries again.
    if let writer, writer.hasUnsyncedBytes, let handle = writer.handle?.duplicate() {
      _ = writer.takeUnsyncedBytes()
      handles.append(handle)
    }
    return handles
  }

  /// Closes a file rotated away (its last line written). With ``Durability/interval(_:)``, a
  /// file with lines never synced is kept for the next sync as a duplicated handle; only the
  /// newest `keepFiles - 1` are (the kept rotated files): an older one was deleted since, and
  /// syncing it would only hold its storage. When no handle can be had (no descriptor left), the
  /// file is synced now instead: once, on a rare failure, rather than never.
  /// - Throws: The `errno` of that sync when it fails.
  mutating func retire(_ old: LogWriter) throws(RecorderError.Reason) {
    defer { old.close() }
    guard case .interval = options.durability, let keepFiles = options.rotation?.keepFiles,
      old.hasUnsyncedBytes
    else { return }
    guard let handle = old.handle?.duplicate() else {
      try old.sync()
      return
    }
    rotatedAwaitingSync.append(handle)
    let surplus = rotatedAwaitingSync.count - max(0, keepFiles - 1)
    if surplus > 0 {
      for deleted in rotatedAwaitingSync.prefix(surplus) { deleted.close() }
      rotatedAwaitingSync.removeFirst(surplus)
    }
  }

  /// Syncs and closes the files in ``rotatedAwaitingSync`` (on closing).
  /// - Throws: The first failed sync's `errno`; every handle is closed all the same.
  mutating func syncRotatedFiles() throws(RecorderError.Reason) {
    let code = Self.syncAndClose(rotatedAwaitingSync)
    rotatedAwaitingSync = []
    if code != 0 { throw .syncFailed(errno: code) }
  }

  /// `fdatasync` of each of `handles`, then closes it; returns the first failure's `errno`, or 0.
  static func syncAndClose(_ handles: [any LogFileHandle]) -> Int32 {
    var failure: Int32 = 0
    for handle in handles {
      let code = handle.dataSync()
      if failure == 0 { failure = code }
      handle.close()
    }
    return failure
  }
}

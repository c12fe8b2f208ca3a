import Rewind

/// The bytes of a log file, read into memory once and never changed.
///
/// The file is read (not memory-mapped) so that an app truncating or rewriting it while `replay`
/// looks at it cannot crash the reader with `SIGBUS`.
final class LogBytes: Sendable {
  // The buffer is written only in `init` and freed in `deinit`; between the two it is read-only,
  // so sharing it between threads is safe.
  nonisolated(unsafe) let buffer: UnsafeRawBufferPointer
  /// All the memory allocated, which `buffer` may not fill (the file shrank as it was read).
  private let storage: Platform.LargeBuffer

  /// Reads the whole file at `path`.
  /// - Throws: `ReplayError` when it cannot be opened, is not a regular file, is empty or is over
  ///   `limits.maxFileBytes`.
  init(path: String, limits: ReaderLimits) throws(ReplayError) {
    let file: Platform.OpenedFile
    switch Platform.openForReading(path) {
    case .success(let opened): file = opened
    case .failure(let failure):
      throw .cannotOpen(path: path, reason: Platform.describe(errno: failure.errno))
    }
    defer { Platform.close(file.fd) }
    guard file.isRegular else { throw .notARegularFile(path: path, kind: file.kind) }
    guard file.size <= limits.maxFileBytes else {
      throw .fileTooLarge(path: path, size: file.size, limit: limits.maxFileBytes)
    }
    guard file.size > 0 else { throw .emptyLog(path: path) }
    let storage = Platform.allocateLargeBuffer(file.size)
    var filled = 0
    while filled < file.size {
      let n = Platform.read(
        file.fd, into: UnsafeMutableRawBufferPointer(rebasing: storage.bytes[filled..<file.size]),
        at: filled)
      if n < 0 {
        storage.free()
        throw .cannotOpen(path: path, reason: Platform.describe(errno: Int32(-n)))
      }
      if n == 0 { break }  // the file shrank while we read it
      filled += n
    }
    self.storage = storage
    buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage.bytes)[..<filled])
  }

  /// Wraps bytes already in memory (tests, standard input).
  init(copying bytes: [UInt8]) {
    let storage = Platform.allocateLargeBuffer(bytes.count)
    bytes.withUnsafeBytes { storage.bytes.copyMemory(from: $0) }
    self.storage = storage
    buffer = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage.bytes)[..<bytes.count])
  }

  deinit {
    storage.free()
  }

  /// The bytes `start..<end`.
  func slice(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: buffer[start..<end])
  }
}

import Foundation
import Rewind

/// The bytes of a log file, read into memory once and never changed.
///
/// The file is read (not memory-mapped) so that an app truncating or rewriting it while `replay`
/// looks at it cannot crash the reader with `SIGBUS`.
///
/// A large file (``backgroundBytes`` and up) is read on another thread, a chunk at a time, while
/// ``LogIndexer`` indexes what has arrived: ``received()`` says how far the read has got and
/// ``waitForMore(than:)`` waits for the next chunk. Between chunks, and once the read is done, the
/// same thread checks checksums ahead of the indexer (``prepass``). Until
/// ``waitForAll()`` has returned, only the bytes ``received()`` reports may be looked at.
final class LogBytes: Sendable {
  /// How far the read has got.
  struct Progress {
    /// Bytes `0..<count` have been read.
    var count: Int
    /// Whether that is the whole file.
    var isComplete: Bool
  }

  /// Files at least this large are read on another thread while they are indexed.
  static let backgroundBytes = 8 << 20
  /// The first chunk, read before `init` returns: small, so that indexing starts soon. (Chunks
  /// start at multiples of `Platform.largeBufferPiece`, as committing their memory requires.)
  private static let firstChunkBytes = 4 * Platform.largeBufferPiece
  /// Every later chunk: 1 MiB.
  private static let chunkBytes = 16 * Platform.largeBufferPiece
  /// While the read is this far ahead of the indexer, the reading thread checks checksums.
  private static let readAhead = 4 << 20

  /// All the memory allocated: the file's size when it was opened. Bytes past what has been read
  /// are not to be looked at.
  nonisolated(unsafe) let memory: UnsafeRawBufferPointer
  private let storage: Platform.LargeBuffer
  private let path: String
  /// The checksums, checked on the reading thread once the read is done (large files only).
  let prepass: ChecksumPrepass?

  /// Bytes read so far (release: stored after the bytes are in memory).
  private let filled = AtomicWord(0)
  /// ``State``'s raw value.
  private let state = AtomicWord(State.reading.rawValue)
  /// The `errno` of a failed read (stored before `state` becomes `.failed`).
  private let failure = AtomicWord(0)
  private let isCancelled = AtomicWord(0)
  /// Waited on for the next chunk; signalled, with its lock held, after each one.
  private let condition = NSCondition()

  private enum State: Int { case reading, complete, failed }

  /// Opens the file at `path` and starts reading it: the whole file when it is small, the first
  /// chunk and the rest on another thread when it is large.
  /// - Throws: `ReplayError` when it cannot be opened or read, is not a regular file, is empty or
  ///   is over `limits.maxFileBytes`.
  init(path: String, limits: ReaderLimits) throws(ReplayError) {
    let file: Platform.OpenedFile
    switch Platform.openForReading(path) {
    case .success(let opened): file = opened
    case .failure(let failure):
      throw .cannotOpen(path: path, reason: Platform.describe(errno: failure.errno))
    }
    guard file.isRegular else {
      Platform.close(file.fd)
      throw .notARegularFile(path: path, kind: file.kind)
    }
    guard file.size <= limits.maxFileBytes else {
      Platform.close(file.fd)
      throw .fileTooLarge(path: path, size: file.size, limit: limits.maxFileBytes)
    }
    guard file.size > 0 else {
      Platform.close(file.fd)
      throw .emptyLog(path: path)
    }
    self.path = path
    storage = Platform.allocateLargeBuffer(file.size)
    memory = UnsafeRawBufferPointer(storage.bytes)
    let inBackground = file.size >= Self.backgroundBytes
    prepass =
      inBackground
      ? ChecksumPrepass(checkingJSON: limits.checksJSONAtOpen ? limits.json : nil) : nil
    let first = inBackground ? Self.firstChunkBytes : file.size
    switch read(file.fd, from: 0, upTo: first) {
    case .failure(let failure):
      Platform.close(file.fd)
      throw .cannotOpen(path: path, reason: Platform.describe(errno: failure.errno))
    case .success(let count) where count < file.size && count == first:
      let thread = Thread { [self] in readRest(file.fd, from: count) }
      thread.name = "rewind-read"
      thread.start()
    case .success:
      Platform.close(file.fd)
      state.store(State.complete.rawValue)
    }
  }

  /// Wraps bytes already in memory (tests, standard input); the checksums of large ones are
  /// checked on another thread from the start.
  init(copying bytes: [UInt8], limits: ReaderLimits = .default) {
    let storage = Platform.allocateLargeBuffer(bytes.count)
    bytes.withUnsafeBytes { storage.bytes.copyMemory(from: $0) }
    self.storage = storage
    memory = UnsafeRawBufferPointer(storage.bytes)
    path = ""
    let prepass =
      bytes.count >= Self.backgroundBytes
      ? ChecksumPrepass(checkingJSON: limits.checksJSONAtOpen ? limits.json : nil) : nil
    self.prepass = prepass
    filled.store(bytes.count)
    state.store(State.complete.rawValue)
    if let prepass {
      let count = bytes.count
      let thread = Thread { [self] in
        checkTheRest(with: prepass, from: ChecksumPrepass.Cursor(), upTo: count)
      }
      thread.name = "rewind-checksums"
      thread.start()
    }
  }

  deinit {
    storage.free()
  }

  /// The file's bytes; call it only once ``waitForAll()`` has returned.
  var buffer: UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: memory[..<filled.load()])
  }

  /// The bytes `start..<end`, which must have been read.
  func slice(_ start: Int, _ end: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(rebasing: memory[start..<end])
  }

  /// How far the read has got, without waiting.
  func received() -> Progress {
    // `state` first: once it is `.complete`, `filled` holds its final value.
    let isComplete = state.load() == State.complete.rawValue
    return Progress(count: filled.load(), isComplete: isComplete)
  }

  /// Waits until more than `count` bytes have been read, or the read has ended.
  /// - Throws: `ReplayError.cannotOpen` when reading the file failed.
  func waitForMore(than count: Int) throws(ReplayError) -> Progress {
    condition.lock()
    var progress = received()
    while progress.count <= count && !progress.isComplete && !hasFailed {
      condition.wait()
      progress = received()
    }
    condition.unlock()
    if hasFailed {
      throw .cannotOpen(
        path: path, reason: Platform.describe(errno: Int32(truncatingIfNeeded: failure.load())))
    }
    return progress
  }

  /// Waits until the whole file has been read; returns its size in bytes.
  /// - Throws: `ReplayError.cannotOpen` when reading the file failed.
  @discardableResult
  func waitForAll() throws(ReplayError) -> Int {
    var progress = received()
    while !progress.isComplete { progress = try waitForMore(than: progress.count) }
    return progress.count
  }

  /// Stops the read (opening failed); the checksum pass stops with it.
  func cancel() {
    isCancelled.store(1)
    prepass?.cancel()
  }

  private var hasFailed: Bool { state.load() == State.failed.rawValue }

  /// Reads `offset..<end` into memory, publishing the count read; stops early at the end of a
  /// file that shrank. The count read, or the `errno` of a failed read.
  private func read(_ fd: Int32, from offset: Int, upTo end: Int) -> Result<Int, LogFileFailure> {
    guard Platform.populateLargeBuffer(storage, offset..<end) else {
      return .failure(LogFileFailure(errno: ENOMEM))
    }
    var count = offset
    while count < end {
      let n = Platform.read(
        fd, into: UnsafeMutableRawBufferPointer(rebasing: storage.bytes[count..<end]), at: count)
      if n < 0 { return .failure(LogFileFailure(errno: Int32(-n))) }
      if n == 0 { break }  // the file shrank while we read it
      count += n
    }
    filled.store(count)
    return .success(count)
  }

  /// The reading thread: the rest of the file a chunk at a time, keeping ``readAhead`` bytes
  /// ahead of the indexer and checking checksums ahead of it in between; then the rest of the
  /// checksums.
  private func readRest(_ fd: Int32, from offset: Int) {
    var count = offset
    var outcome = State.complete
    var cursor = ChecksumPrepass.Cursor()
    while count < memory.count, isCancelled.load() == 0 {
      if let prepass, count - prepass.indexerPosition >= Self.readAhead,
        prepass.checkSome(
          &cursor, in: UnsafeRawBufferPointer(rebasing: memory[..<count]), isComplete: false)
      {
        continue
      }
      let end = min(count + Self.chunkBytes, memory.count)
      switch read(fd, from: count, upTo: end) {
      case .failure(let failed):
        failure.store(Int(failed.errno))
        outcome = .failed
      case .success(let now):
        count = now
      }
      if outcome == .failed || count < end { break }  // failed, or the file shrank
      signal()
    }
    Platform.close(fd)
    state.store(outcome.rawValue)
    signal()
    if outcome == .complete, let prepass {
      checkTheRest(with: prepass, from: cursor, upTo: count)
    }
  }

  /// Checks the checksums of `memory[..<count]`, all read, from `cursor` on.
  private func checkTheRest(
    with prepass: ChecksumPrepass, from cursor: ChecksumPrepass.Cursor, upTo count: Int
  ) {
    var cursor = cursor
    let all = UnsafeRawBufferPointer(rebasing: memory[..<count])
    while isCancelled.load() == 0,
      prepass.checkSome(&cursor, in: all, isComplete: true)
    {}
  }

  private func signal() {
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }
}

import Dispatch
import Rewind
import Synchronization

/// The checksums of a large log, checked on another core ahead of the indexer: checksums are a
/// third of the cost of opening a log, and each line's is a pure function of its bytes.
///
/// The pass sees the same lines as ``LogIndexer`` (split at `\n`, a trailing `\r` left out), in
/// order from the start, and publishes how far it has got. For a line the pass has passed, the
/// indexer takes its verdict (``status(at:)``: valid, unless the pass recorded it among the few
/// lines whose checksum is not valid); for a line it has not reached yet, the indexer checks the
/// checksum itself — it never waits. The pass gives up (its progress stops) when a log has many
/// lines without a valid checksum, and stops when the indexer does (``cancel()``).
final class ChecksumPrepass: Sendable {
  private let bytes: LogBytes
  /// Every line starting before this offset has been checked (release: its exceptions are
  /// recorded before the offset moves past it).
  private let progress = Atomic<Int>(0)
  /// How many exceptions there are, so that the indexer looks them up only when there are some.
  private let exceptionCount = Atomic<Int>(0)
  /// The lines (by start offset) whose checksum is not valid.
  private let exceptions = Locked<[Int: LogLine.ChecksumStatus]>([:])
  private let isCancelled = Atomic<Bool>(false)

  /// Logs smaller than this are checked by the indexer alone.
  static let minimumBytes = 8 << 20
  /// Past this many lines without a valid checksum, the pass gives up.
  private static let exceptionLimit = 4096

  private init(bytes: LogBytes) {
    self.bytes = bytes
  }

  /// Starts checking the lines of `bytes` on another thread; `nil` for a small log.
  static func start(for bytes: LogBytes) -> ChecksumPrepass? {
    guard bytes.buffer.count >= minimumBytes else { return nil }
    let prepass = ChecksumPrepass(bytes: bytes)
    DispatchQueue.global(qos: .userInitiated).async { prepass.run() }
    return prepass
  }

  /// The pass's verdict on the line that starts at `start`, or `nil` when the pass has not
  /// checked it (yet, or ever): the caller checks it.
  func status(at start: Int) -> LogLine.ChecksumStatus? {
    guard start < progress.load(ordering: .acquiring) else { return nil }
    guard exceptionCount.load(ordering: .relaxed) > 0 else { return .valid }
    return exceptions.withLock { $0[start] } ?? .valid
  }

  /// Stops the pass (the indexer is done with it).
  func cancel() {
    isCancelled.store(true, ordering: .relaxed)
  }

  private func run() {
    let buffer = bytes.buffer
    var lineStart = 0
    var lines = 0
    var found = 0
    while lineStart < buffer.count {
      lines += 1
      if lines & 1023 == 0, isCancelled.load(ordering: .relaxed) { return }
      let newline = Platform.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: lineStart)
      let end = newline ?? buffer.count
      var contentEnd = end
      if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
      let status = LogLine.checkChecksum(bytes.slice(lineStart, contentEnd))
      if status != .valid {
        found += 1
        if found > Self.exceptionLimit { return }
        exceptions.withLock { $0[lineStart] = status }
        exceptionCount.store(found, ordering: .relaxed)
      }
      lineStart = end + 1
      progress.store(lineStart, ordering: .releasing)
    }
  }
}

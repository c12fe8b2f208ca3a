import Dispatch
import Rewind

/// The checksums of the second half of a large log, checked on another core while the indexer
/// reads the first half: checksums are most of the cost of opening a log, and each line's is a
/// pure function of its bytes.
///
/// The pass sees the same lines as ``LogIndexer`` (split at `\n`, a trailing `\r` left out) and
/// keeps only the lines whose checksum is not ``LogLine/ChecksumStatus/valid``; the indexer
/// takes the others as checked. It gives up (the indexer then checks every line itself) when a
/// log has many lines without a valid checksum.
final class ChecksumPrepass: Sendable {
  /// Where the lines it checks start: the first line start in the second half.
  let start: Int
  private let bytes: LogBytes
  private let outcome = Locked<Outcome>(Outcome())
  private let finished = DispatchSemaphore(value: 0)

  private struct Outcome {
    /// The lines (by start offset) whose checksum is not valid, once the pass completed.
    var exceptions: [Int: LogLine.ChecksumStatus]?
    var isCancelled = false
  }

  /// Logs smaller than this are checked by the indexer alone.
  static let minimumBytes = 8 << 20
  /// Past this many lines without a valid checksum, the pass gives up.
  private static let exceptionLimit = 4096

  private init(bytes: LogBytes, start: Int) {
    self.bytes = bytes
    self.start = start
  }

  /// Starts checking the second half of `bytes` on another thread; `nil` for a small log.
  static func start(for bytes: LogBytes) -> ChecksumPrepass? {
    let buffer = bytes.buffer
    guard buffer.count >= minimumBytes,
      let newline = Platform.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: buffer.count / 2),
      newline + 1 < buffer.count
    else { return nil }
    let prepass = ChecksumPrepass(bytes: bytes, start: newline + 1)
    DispatchQueue.global(qos: .userInitiated).async { prepass.run() }
    return prepass
  }

  /// The statuses of the lines from ``start`` that are not valid; waits for the pass. `nil` when
  /// the pass gave up.
  func exceptions() -> [Int: LogLine.ChecksumStatus]? {
    finished.wait()
    finished.signal()
    return outcome.withLock { $0.exceptions }
  }

  /// Stops the pass (the indexer stopped early).
  func cancel() {
    outcome.withLock { $0.isCancelled = true }
  }

  private func run() {
    defer { finished.signal() }
    let buffer = bytes.buffer
    var exceptions: [Int: LogLine.ChecksumStatus] = [:]
    var lineStart = start
    var lines = 0
    while lineStart < buffer.count {
      lines += 1
      if lines & 4095 == 0, outcome.withLock({ $0.isCancelled }) { return }
      let newline = Platform.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: lineStart)
      let end = newline ?? buffer.count
      var contentEnd = end
      if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
      let status = LogLine.checkChecksum(bytes.slice(lineStart, contentEnd))
      if status != .valid {
        exceptions[lineStart] = status
        if exceptions.count > Self.exceptionLimit { return }
      }
      lineStart = end + 1
    }
    outcome.withLock { $0.exceptions = exceptions }
  }
}

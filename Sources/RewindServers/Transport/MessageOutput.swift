import Rewind

/// Where a server's messages go: whole messages written to a descriptor, one at a time, in
/// order, each finished before the next begins (a short write is continued; `EINTR` retried).
///
/// Once a write fails (the peer closed its end), ``isClosed`` is `true` and later messages are
/// dropped: the server's loop ends at its next read.
package final class MessageOutput {
  /// The descriptor written.
  private let fd: Int32
  /// Whether a write failed.
  package private(set) var isClosed = false

  /// An output writing `fd` (not closed by it).
  package init(fd: Int32) {
    self.fd = fd
  }

  /// Writes `bytes` whole.
  /// - Returns: Whether they were written.
  @discardableResult
  package func write(_ bytes: [UInt8]) -> Bool {
    guard !isClosed else { return false }
    let (_, failure) = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    if failure != nil { isClosed = true }
    return !isClosed
  }
}

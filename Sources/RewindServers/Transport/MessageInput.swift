import Rewind
import RewindReplayService

/// The bytes of a protocol's messages, read from a descriptor with bounds a hostile peer cannot
/// break: no line or body longer than the caller allows is ever held (a longer one is skipped,
/// a buffer's worth at a time), and once a message has begun its remaining bytes must arrive
/// within ``partialMessageTimeoutMilliseconds`` (an idle peer between messages waits as long as
/// it likes).
///
/// Both servers read through one: the Debug Adapter Protocol's `Content-Length` headers and
/// bodies (``readLine(maxBytes:startsMessage:)``, ``read(count:)``), and MCP's newline-delimited
/// JSON-RPC (``readLine(maxBytes:startsMessage:)``).
package final class MessageInput {
  /// Why a read did not return what was asked.
  package enum Failure: Error, Equatable, Sendable {
    /// The input ended inside a message, `offset` bytes into the stream.
    case endedInsideMessage(offset: Int)
    /// A line or body longer than `limit` bytes began at `offset`; it was skipped (the next read
    /// starts after it).
    case tooLong(limit: Int, offset: Int)
    /// A message begun at `offset` was not finished within `milliseconds`.
    case timedOut(milliseconds: Int32, offset: Int)
    /// `read(2)` failed with `errno`.
    case readFailed(errno: Int32, offset: Int)

    /// What went wrong and where, for a log line or a protocol error.
    package var message: String {
      switch self {
      case .endedInsideMessage(let offset):
        return "the input ended inside a message (byte \(offset))"
      case .tooLong(let limit, let offset):
        return "a message at byte \(offset) is longer than the limit of \(limit) bytes; it was "
          + "skipped"
      case .timedOut(let milliseconds, let offset):
        return "a message begun at byte \(offset) was not finished within \(milliseconds) ms"
      case .readFailed(let errno, let offset):
        return "reading the input failed at byte \(offset) (errno \(errno))"
      }
    }
  }

  /// The descriptor read.
  private let fd: Int32
  /// How long the rest of a begun message may take to arrive.
  package let partialMessageTimeoutMilliseconds: Int32
  /// Bytes read and not yet returned, from `start`.
  private var buffer: [UInt8] = []
  /// The first unreturned byte of `buffer`.
  private var start = 0
  /// Whether the descriptor reached its end.
  private var atEnd = false
  /// Bytes returned or skipped so far: the stream offset of the next byte.
  package private(set) var offset = 0

  /// An input reading `fd` (not closed by it).
  package init(fd: Int32, partialMessageTimeoutMilliseconds: Int32 = 30_000) {
    self.fd = fd
    self.partialMessageTimeoutMilliseconds = partialMessageTimeoutMilliseconds
  }

  /// The next line, without its `\n` or `\r\n`.
  ///
  /// - Parameters:
  ///   - maxBytes: The longest line returned; a longer one is skipped through its end and
  ///     reported as ``Failure/tooLong(limit:offset:)``.
  ///   - startsMessage: Whether the line is the first of a message: the wait for its first
  ///     byte has no time limit. Otherwise the line is part of a begun message.
  ///   - skipsOverlong: Whether a line past `maxBytes` is read through its end before
  ///     ``Failure/tooLong(limit:offset:)`` is thrown, so the next read starts after it (a
  ///     server that goes on); `false` throws as soon as the limit is passed (a server that
  ///     closes the connection).
  /// - Returns: The line, or `nil` when the input ends before its first byte (a peer that
  ///   closed between messages). A last line without its newline is returned as a line.
  /// - Throws: ``Failure``.
  package func readLine(
    maxBytes: Int, startsMessage: Bool, skipsOverlong: Bool = true
  ) throws(Failure) -> [UInt8]? {
    let lineOffset = offset
    var scanned = start
    var waitsForever = startsMessage
    while true {
      if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        var end = newline
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        guard end - start <= maxBytes else {
          consume(through: newline + 1)
          throw .tooLong(limit: maxBytes, offset: lineOffset)
        }
        let line = Array(buffer[start..<end])
        consume(through: newline + 1)
        return line
      }
      scanned = buffer.count
      if buffer.count - start > maxBytes {
        // Too long: skipped through its newline without keeping it.
        consume(through: buffer.count)
        if skipsOverlong { try skipLine(waitsForever: false) }
        throw .tooLong(limit: maxBytes, offset: lineOffset)
      }
      if atEnd {
        guard buffer.count > start else {
          if startsMessage { return nil }
          throw .endedInsideMessage(offset: offset)
        }
        let line = Array(buffer[start...])
        consume(through: buffer.count)
        return line
      }
      try fill(waitsForever: waitsForever && buffer.count == start, messageOffset: lineOffset)
      waitsForever = waitsForever && buffer.count == start
    }
  }

  /// The next `count` bytes of a begun message.
  /// - Throws: ``Failure/endedInsideMessage(offset:)`` when the input ends first,
  ///   ``Failure/timedOut(milliseconds:offset:)`` when they do not arrive in time.
  package func read(count: Int) throws(Failure) -> [UInt8] {
    let messageOffset = offset
    while buffer.count - start < count {
      if atEnd { throw .endedInsideMessage(offset: offset + buffer.count - start) }
      try fill(waitsForever: false, messageOffset: messageOffset)
    }
    let bytes = Array(buffer[start..<(start + count)])
    consume(through: start + count)
    return bytes
  }

  /// Skips the next `count` bytes of a begun message without keeping them (a body longer than
  /// the server accepts), a buffer's worth at a time.
  /// - Throws: As ``read(count:)``.
  package func skip(count: Int) throws(Failure) {
    let messageOffset = offset
    var left = count
    while left > 0 {
      if buffer.count == start {
        if atEnd { throw .endedInsideMessage(offset: offset) }
        try fill(waitsForever: false, messageOffset: messageOffset)
        continue
      }
      let taken = min(left, buffer.count - start)
      consume(through: start + taken)
      left -= taken
    }
  }

  /// Skips through the next newline (or the end of input).
  private func skipLine(waitsForever: Bool) throws(Failure) {
    let lineOffset = offset
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        consume(through: newline + 1)
        return
      }
      consume(through: buffer.count)
      if atEnd { return }
      try fill(waitsForever: waitsForever, messageOffset: lineOffset)
    }
  }

  /// Drops the returned bytes before `index` of `buffer`.
  private func consume(through index: Int) {
    offset += index - start
    start = index
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start >= 1 << 16 {
      buffer.removeSubrange(0..<start)
      start = 0
    }
  }

  /// Reads what is available (64 KiB at most) onto `buffer`, waiting for it without a limit or
  /// within the partial-message time limit.
  private func fill(waitsForever: Bool, messageOffset: Int) throws(Failure) {
    let timeout = waitsForever ? -1 : partialMessageTimeoutMilliseconds
    guard Platform.waitForInput([fd], timeoutMilliseconds: timeout)[0] else {
      // A signal ends a wait early: only a wait that ran its course is a timeout. (A wait
      // without a limit is simply waited again.)
      if waitsForever { return }
      throw .timedOut(milliseconds: timeout, offset: messageOffset)
    }
    let chunk = 1 << 16
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: chunk))
    let n = buffer.withUnsafeMutableBytes { raw in
      Platform.readAvailable(
        fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[old..<(old + chunk)]))
    }
    if n < 0 {
      buffer.removeSubrange(old...)
      throw .readFailed(errno: Int32(-n), offset: offset + old - start)
    }
    buffer.removeSubrange((old + n)...)
    if n == 0 { atEnd = true }
  }
}

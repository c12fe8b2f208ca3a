import Rewind
import RewindJSON

/// Follows a log that an app is still recording, like `tail -f`: each ``poll()`` reads what was
/// appended since the last one and returns its complete lines as events.
///
/// A line still being written (no newline yet) is kept back until it is complete, so it is never
/// reported as corrupt. When the file is replaced (rotation: a new file at the same path) or
/// truncated, the tail starts again at the beginning of the new file.
public final class LogTail {
  /// What a poll found.
  public enum Event: Sendable {
    /// A header: a new file started (the first one, or after a rotation).
    case header(LogHeader)
    /// An action line.
    case action(RecordedAction)
    /// An end record; `reason` is `closed` (recording finished) or `rotated` (a new file follows).
    case end(reason: String)
    /// A line that is not a valid record.
    case fault(LogFault)
    /// The file at the path was replaced or truncated; reading restarts at its beginning.
    case restarted
  }

  /// The path followed.
  public let path: String
  private let limits: ReaderLimits
  private var identity: (device: UInt64, inode: UInt64)?
  private var offset = 0
  private var pending: [UInt8] = []
  private var scanned = 0
  private var discarding = false
  private var lineNumber = 0
  private var header: LogHeader?

  /// Follows `path` from its beginning.
  public init(path: String, limits: ReaderLimits = .default) {
    self.path = path
    self.limits = limits
  }

  /// Reads what was appended since the last poll.
  /// - Returns: The events, in file order; empty when nothing new was written (or the file does
  ///   not exist yet).
  /// - Complexity: O(bytes appended).
  public func poll() -> [Event] {
    guard let now = Platform.fileIdentity(path) else { return [] }
    var events: [Event] = []
    if let identity,
      identity.device != now.device || identity.inode != now.inode || now.size < offset
    {
      events.append(.restarted)
      offset = 0
      pending.removeAll()
      scanned = 0
      discarding = false
      lineNumber = 0
      header = nil
    }
    identity = (now.device, now.inode)
    guard now.size > offset else { return events }
    guard case .success(let file) = Platform.openForReading(path) else { return events }
    defer { Platform.close(file.fd) }
    var chunk = [UInt8](repeating: 0, count: min(now.size - offset, 1 << 20))
    while true {
      let count = chunk.withUnsafeMutableBytes { Platform.read(file.fd, into: $0, at: offset) }
      guard count > 0 else { break }
      pending.append(contentsOf: chunk[..<count])
      offset += count
      events += completeLines()
      if count < chunk.count { break }
    }
    return events
  }

  private func completeLines() -> [Event] {
    var events: [Event] = []
    var start = 0
    // Bytes before `scanned` were searched for a newline in an earlier poll already.
    while let newline = pending[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
      scanned = 0
      if discarding {
        // The rest of a line over the size limit: already reported, dropped unread.
        discarding = false
        lineNumber += 1
        start = newline + 1
        continue
      }
      lineNumber += 1
      var end = newline
      if end > start, pending[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      let isBlank = pending[start..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
      if end > start && !isBlank {
        let lineStart = offset - pending.count + start
        events += pending[start..<end].withUnsafeBytes { record($0, at: lineStart) }
      }
      start = newline + 1
    }
    pending.removeSubrange(..<start)
    scanned = pending.count
    if pending.count > limits.maxLineBytes || (discarding && !pending.isEmpty) {
      if !discarding {
        events.append(
          .fault(
            LogFault(
              path: path, line: lineNumber + 1, byteOffset: offset - pending.count,
              reason: .lineTooLong(length: pending.count, limit: limits.maxLineBytes))))
      }
      discarding = true
      pending.removeAll()
      scanned = 0
    }
    return events
  }

  private func record(_ line: UnsafeRawBufferPointer, at start: Int) -> [Event] {
    func fault(_ reason: LogFault.Reason) -> [Event] {
      [.fault(LogFault(path: path, line: lineNumber, byteOffset: start, reason: reason))]
    }
    switch LogLine.checkChecksum(line) {
    case .mismatch(let stored, let computed):
      return fault(.checksumMismatch(stored: stored, computed: computed))
    case .malformed: return fault(.malformedChecksum)
    case .valid, .absent: break
    }
    let value: JSONValue
    do { value = try JSONParser.parse(line, limits: limits.json) } catch {
      return fault(.invalidJSON(error.shifted(by: start)))
    }
    switch value["kind"]?.stringValue {
    case "header":
      do {
        let parsed = try LogHeader(value, path: path)
        header = parsed
        return [.header(parsed)]
      } catch {
        return fault(.invalidRecord(error.message))
      }
    case "action", "skipped":
      let isAction = value["kind"]?.stringValue == "action"
      return [
        .action(
          RecordedAction(
            seq: value["seq"]?.intValue ?? 0, time: value["time"]?.doubleValue,
            type: value["type"]?.stringValue, payload: isAction ? value["action"] : nil,
            isSanitized: value["sanitized"]?.boolValue ?? false, line: lineNumber,
            status: isAction
              ? .recorded : .skipped(reason: value["reason"]?.stringValue ?? "unknown")))
      ]
    case "end":
      return [.end(reason: value["reason"]?.stringValue ?? "closed")]
    default:
      return []
    }
  }
}

import RewindJSON

/// A faulty line of a log: where it is and what is wrong with it.
public struct LogFault: Sendable, Equatable, Codable, CustomStringConvertible {
  /// What is wrong with a line.
  public enum Reason: Error, Sendable, Equatable, Codable {
    /// The stored CRC-32C does not match the line: it was changed after it was recorded.
    case checksumMismatch(stored: UInt32, computed: UInt32)
    /// The line starts like a checksummed line but its `c` key is not 8 hex digits.
    case malformedChecksum
    /// The log's lines carry checksums but this one has none.
    case missingChecksum
    /// The `seq` does not continue the previous one (`expected` was due).
    case seqGap(expected: Int, found: Int)
    /// The line is not valid JSON.
    case invalidJSON(JSONParseError)
    /// The line is longer than the reader's limit.
    case lineTooLong(length: Int, limit: Int)
    /// The last line has no newline: the writer was cut off in the middle of it.
    case cutOff(length: Int)
    /// The record lacks a required key or has one of the wrong type.
    case invalidRecord(String)
    /// A second header, or a record after the `end` record.
    case misplacedRecord(String)

    /// One line of text saying what is wrong.
    public var summary: String {
      switch self {
      case .checksumMismatch(let stored, let computed):
        return "checksum mismatch (stored \(hex(stored)), computed \(hex(computed))) — "
          + "the line was changed after it was recorded"
      case .malformedChecksum: return "malformed checksum: \"c\" must be 8 lowercase hex digits"
      case .missingChecksum:
        return "the line has no checksum although the log's other lines do — it was changed "
          + "after it was recorded"
      case .seqGap(let expected, let found):
        return "seq gap \(expected - 1)→\(found): expected seq \(expected), found \(found) — "
          + "lines are missing or out of order"
      case .invalidJSON(let error): return "\(error.description)"
      case .lineTooLong(let length, let limit):
        return "line over the size limit (\(length) bytes, limit \(limit))"
      case .cutOff(let length):
        return "line cut off mid-write (\(length) bytes, no newline at the end of the file)"
      case .invalidRecord(let text): return "invalid record: \(text)"
      case .misplacedRecord(let text): return "misplaced record: \(text)"
      }
    }

    private func hex(_ value: UInt32) -> String {
      let digits = String(value, radix: 16)
      return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
  }

  /// The log file.
  public var path: String
  /// The line number, from 1.
  public var line: Int
  /// The byte offset of the start of the line (or of the problem inside it, for JSON errors).
  public var byteOffset: Int
  /// What is wrong.
  public var reason: Reason

  /// Creates a fault.
  public init(path: String, line: Int, byteOffset: Int, reason: Reason) {
    self.path = path
    self.line = line
    self.byteOffset = byteOffset
    self.reason = reason
  }

  /// `file:line (byte N): reason`.
  public var description: String {
    "\(path):\(line) (byte \(byteOffset)): \(reason.summary)"
  }
}

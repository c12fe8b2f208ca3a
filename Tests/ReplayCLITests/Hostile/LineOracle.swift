import RewindJSON
import RewindReplayService

@testable import ReplayCLI

/// What the log reader must say about a hand-written log (no checksums), worked out
/// independently of it: the first faulty line after the header, where it starts, and why.
///
/// The rules it follows are the log format's: lines end at `\n` (a `\r` before it is dropped),
/// blank lines are skipped, every other line must be a JSON object with a string `kind`.
struct LineOracle {
  struct Fault: Equatable, CustomStringConvertible {
    /// The 1-based line number.
    var line: Int
    /// The byte offset of the line's first byte in the file.
    var lineStart: Int
    /// The reason as the reader words it (`invalid JSON at byte N: …` with a file offset), or
    /// `nil` for a JSON value that is not a record (only its `invalid record:` prefix is known).
    var jsonError: String?
    /// Whether only blank lines follow it, so `--recovery tail` drops it.
    var isLast: Bool

    var description: String {
      "line \(line) (byte \(lineStart)): \(jsonError ?? "invalid record")\(isLast ? ", last" : "")"
    }

    /// The first line of the reader's diagnostic for this fault in the log at `path`, or its
    /// start when the reason is only known by its prefix.
    func diagnostic(_ severity: String, path: String) -> String {
      "\(severity): \(path):\(line) (byte \(lineStart)): \(jsonError.map { inert($0) } ?? "invalid record: ")"
    }
  }

  /// The first faulty line of `bytes` after its first line (the header, assumed sound).
  static func firstFault(in bytes: [UInt8]) -> Fault? {
    var lines: [(start: Int, end: Int)] = []
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      lines.append((start, end))
      start = end + 1
    }
    for (index, span) in lines.enumerated().dropFirst() {
      var end = span.end
      if end > span.start, bytes[end - 1] == 0x0D { end -= 1 }
      guard !isBlank(bytes[span.start..<end]) else { continue }
      let reason = problem(with: bytes[span.start..<end], at: span.start)
      guard let reason else { continue }
      let isLast = lines[(index + 1)...].allSatisfy { isBlank(bytes[$0.start..<$0.end]) }
      return Fault(
        line: index + 1, lineStart: span.start, jsonError: reason.jsonError, isLast: isLast)
    }
    return nil
  }

  private struct Problem { var jsonError: String? }

  private static func problem(with line: ArraySlice<UInt8>, at start: Int) -> Problem? {
    let value: JSONValue
    do {
      value = try JSONParser.parse(line)
    } catch {
      return Problem(
        jsonError: JSONParseError(offset: error.offset + start, reason: error.reason).description)
    }
    guard case .object = value, value["kind"]?.stringValue != nil else {
      return Problem(jsonError: nil)
    }
    return nil
  }

  private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
  }
}

import RewindJSON

/// The constants of the Rewind log format (`docs/log-format.md`).
public enum LogFormat {
  /// The value of the header's `format` key.
  public static let name = "rewind"
  /// The highest format version this build reads.
  public static let version = 2
  /// The version a file's header says when the header holds its state: most files.
  public static let writtenVersion = 1
  /// The version a file's header says when its state follows in a `state` record
  /// (`"stateFollows":true`): a file begun by a rotation whose state was encoded in the
  /// background. A reader of version 1 would find no state in the header, so such a file says 2.
  public static let stateFollowsVersion = 2
  /// The default number of actions between two checkpoints.
  public static let defaultCheckpointInterval = 1000

  /// The kinds of record, the value of each line's `kind` key.
  public enum Kind: String, Sendable, CaseIterable {
    /// The first line of every file: app, type names, session, and the state before `firstSeq`.
    case header
    /// One action, as it reached the reducers.
    case action
    /// The state after the action with the same `seq`, written right after that action.
    case checkpoint
    /// The state after the action with the same `seq`, encoded off the dispatching thread and
    /// written when it was ready — possibly after later actions —, in one line or, when large,
    /// in parts (`part`, `parts`, `text`).
    case state
    /// A checkpoint that fell due while the previous one was still being written, and was left
    /// out.
    case stateSkipped = "state-skipped"
    /// An action that was not recorded (deny list, or its encoding failed); keeps `seq` continuous.
    case skipped
    /// The last line of a cleanly closed (or rotated) file.
    case end
    /// The reducer times of the actions up to `seq` (``RecordingOptions/recordsReducerTimes``).
    case costs
  }
}

/// Frames and checks the lines of a log: `{"c":"XXXXXXXX",` + body + `}` + `\n`, where `c` is
/// the CRC-32C of the body bytes.
package enum LogLine {
  /// `{"c":"` — the start of a checksummed line.
  package static let checksumPrefix: [UInt8] = Array(#"{"c":""#.utf8)
  /// The length of `{"c":"`, where the checksum's eight hexadecimal digits start.
  package static let checksumOffset = 6
  /// The length of `{"c":"XXXXXXXX",`, where the checksummed body starts.
  package static let bodyOffset = 16

  /// Appends a whole line for `body` (the members between the braces, without the checksum) to
  /// `buffer`: `{"c":"<crc32c of body>",<body>}\n`.
  package static func appendFramed(body: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
    buffer.append(contentsOf: checksumPrefix)
    buffer.append(contentsOf: CRC32C.hex(CRC32C.checksum(body)))
    buffer.append(UInt8(ascii: "\""))
    buffer.append(UInt8(ascii: ","))
    buffer.append(contentsOf: body)
    buffer.append(UInt8(ascii: "}"))
    buffer.append(UInt8(ascii: "\n"))
  }

  /// The result of checking a line's `c` key.
  package enum ChecksumStatus: Equatable, Sendable {
    /// The line has no `c` key (hand-written logs and fixtures); nothing to check.
    case absent
    /// The checksum matches the body.
    case valid
    /// The line starts like a checksummed line but the checksum is not 8 lowercase hex digits
    /// followed by `",` — or the line does not end with `}`.
    case malformed
    /// The checksum does not match: the line was changed after it was recorded.
    case mismatch(stored: UInt32, computed: UInt32)
  }

  /// Whether the line starts with `{"c":"`, as a checksummed line does.
  package static func hasChecksumPrefix(_ line: UnsafeRawBufferPointer) -> Bool {
    let prefix: StaticString = #"{"c":""#
    return prefix.withUTF8Buffer { prefix in
      guard line.count >= prefix.count else { return false }
      for k in 0..<prefix.count where line[k] != prefix[k] { return false }
      return true
    }
  }

  /// Checks the checksum of one line (without its `\n`).
  /// - Complexity: O(n) in the line's length.
  package static func checkChecksum(_ line: UnsafeRawBufferPointer) -> ChecksumStatus {
    guard hasChecksumPrefix(line) else { return .absent }
    guard line.count >= bodyOffset + 1, line[14] == UInt8(ascii: "\""),
      line[15] == UInt8(ascii: ","), line[line.count - 1] == UInt8(ascii: "}")
    else { return .malformed }
    // The eight hex digits without a branch per digit: which of `0-9` and `a-f` a digit is, is
    // as good as random, and a mispredicted branch per digit costs more than the CRC of the line.
    var stored: UInt32 = 0
    var invalid: UInt8 = 0
    for i in 6..<14 {
      let byte = line[i]
      let isDigit: UInt8 = byte &- UInt8(ascii: "0") < 10 ? 1 : 0
      let isLetter: UInt8 = byte &- UInt8(ascii: "a") < 6 ? 1 : 0
      invalid |= 1 &- (isDigit | isLetter)
      // `0`-`9` are 0x30-0x39 and `a`-`f` 0x61-0x66: the low nibble, plus 9 for a letter.
      stored = stored << 4 | UInt32((byte & 0x0F) &+ 9 &* (byte >> 6))
    }
    guard invalid == 0 else { return .malformed }
    let body = UnsafeRawBufferPointer(rebasing: line[bodyOffset..<(line.count - 1)])
    let computed = CRC32C.checksum(body)
    return computed == stored ? .valid : .mismatch(stored: stored, computed: computed)
  }
}

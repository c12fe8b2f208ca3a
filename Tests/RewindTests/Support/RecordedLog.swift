import Foundation
import Rewind

/// A log file as it is on disk: its whole lines, and whatever follows the last `\n` (what a crash
/// in the middle of a `write(2)` leaves).
struct RecordedLog {
  /// The whole file.
  let bytes: [UInt8]
  /// Every line that ends with `\n`, without the `\n`.
  let lines: [[UInt8]]
  /// The bytes after the last `\n`; empty when the file ends at a line boundary.
  let partialTail: [UInt8]

  /// Reads the file at `path`.
  /// - Throws: The error of reading the file.
  init(path: String) throws {
    bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    var lines: [[UInt8]] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      lines.append(Array(bytes[start..<index]))
      start = index + 1
    }
    self.lines = lines
    partialTail = Array(bytes[start...])
  }

  /// The whole file as text.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Every whole line as text.
  var lineTexts: [String] { lines.map { String(decoding: $0, as: UTF8.self) } }

  /// What is wrong with the checksums of the whole lines, one message per bad line (empty when
  /// every line verifies): each line must pass `LogLine.checkChecksum` and, with
  /// `usingReference`, match the bit-by-bit ``ReferenceCRC32C`` of its body too.
  func checksumProblems(usingReference: Bool = true) -> [String] {
    lines.enumerated().compactMap { number, line in
      Self.checksumProblem(of: line, usingReference: usingReference).map {
        "line \(number + 1): \($0)"
      }
    }
  }

  /// Decodes every whole line with Foundation's `JSONDecoder`.
  /// - Throws: The decoding error of the first line that does not decode, with its number.
  func records<Action: Decodable, State: Decodable>(
    _ action: Action.Type, _ state: State.Type
  ) throws -> [LogRecord<Action, State>] {
    let decoder = JSONDecoder()
    return try lines.enumerated().map { number, line in
      do {
        return try decoder.decode(LogRecord<Action, State>.self, from: Data(line))
      } catch {
        throw LogLineError(line: number + 1, text: String(decoding: line, as: UTF8.self), error)
      }
    }
  }

  /// Why one line (without its `\n`) does not verify, or `nil` when it does.
  static func checksumProblem(of line: [UInt8], usingReference: Bool = true) -> String? {
    let status = line.withUnsafeBytes { LogLine.checkChecksum($0) }
    guard status == .valid else { return "LogLine.checkChecksum is \(status)" }
    guard usingReference else { return nil }
    // Independently of `LogLine`: `{"c":"xxxxxxxx",` + body + `}`.
    let prefix = Array(#"{"c":""#.utf8)
    guard line.count >= 17, line.starts(with: prefix), line[14] == UInt8(ascii: "\""),
      line[15] == UInt8(ascii: ","), line.last == UInt8(ascii: "}"),
      let stored = UInt32(String(decoding: line[6..<14], as: UTF8.self), radix: 16)
    else { return "not framed as {\"c\":\"xxxxxxxx\",…}" }
    let computed = ReferenceCRC32C.checksum(line[16..<(line.count - 1)])
    guard computed == stored else {
      return "stored checksum \(String(stored, radix: 16)), reference CRC-32C "
        + String(computed, radix: 16)
    }
    return nil
  }

  /// What is wrong with the order of a file's records (empty when nothing is): the first record
  /// is the only header; `action` and `skipped` records carry `seq` from the header's `firstSeq`
  /// rising by 1; a checkpoint carries the `seq` of the action before it; an `end` record, when
  /// there is one, is last and carries the last `seq`.
  static func sequenceProblems<Action, State>(_ records: [LogRecord<Action, State>]) -> [String] {
    guard let header = records.first else { return [] }
    var problems: [String] = []
    guard header.kind == "header", let firstSeq = header.firstSeq else {
      return ["line 1 is a \(header.kind) record, not a header with a firstSeq"]
    }
    var last = firstSeq - 1
    for (index, record) in records.enumerated().dropFirst() {
      let line = index + 1
      switch record.kind {
      case "action", "skipped":
        if record.seq != last + 1 {
          problems.append(
            "line \(line): \(record.kind) seq \(record.seq ?? -1), expected \(last + 1)")
        }
        last = record.seq ?? last + 1
      case "checkpoint":
        if record.seq != last {
          problems.append("line \(line): checkpoint seq \(record.seq ?? -1), expected \(last)")
        }
      case "end":
        if record.seq != last {
          problems.append("line \(line): end seq \(record.seq ?? -1), expected \(last)")
        }
        if line != records.count { problems.append("line \(line): end record is not last") }
      default:
        problems.append("line \(line): unexpected \(record.kind) record")
      }
    }
    return problems
  }
}

/// One line of a log, decoded: every key any kind of record has, optional.
struct LogRecord<Action: Decodable, State: Decodable>: Decodable {
  var c: String
  var kind: String
  var seq: Int?
  var time: Double?
  var type: String?
  var action: Action?
  var state: State?
  var reason: String?
  var sanitized: Bool?
  var format: String?
  var version: Int?
  var session: String?
  var app: String?
  var actionType: String?
  var stateType: String?
  var recordedAt: String?
  var firstSeq: Int?
  var segment: Int?
  var checkpointInterval: Int?

  /// `kind` and `seq` in one string (`"action 3"`, `"header"`), to compare a file's shape with
  /// an expected list.
  var shape: String { seq.map { "\(kind) \($0)" } ?? kind }
}

/// A line of a log that does not decode.
struct LogLineError: Error, CustomStringConvertible {
  var line: Int
  var text: String
  var underlying: any Error

  init(line: Int, text: String, _ underlying: any Error) {
    self.line = line
    self.text = text
    self.underlying = underlying
  }

  var description: String { "line \(line) does not decode (\(underlying)): \(text)" }
}

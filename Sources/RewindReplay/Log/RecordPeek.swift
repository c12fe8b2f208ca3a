import Rewind
import RewindJSON

/// The `kind`, `seq` and (for `end`) `reason` of a record line, read without decoding its payload.
struct RecordPeek {
  var kind: String
  var seq: Int?
  var reason: String?
  /// An action line's `type`, when it is a string (read by ``shallow(_:limits:)`` only).
  var type: String? = nil
  /// Whether the line has an `action` member (read by ``shallow(_:limits:)`` only).
  var hasAction = false

  /// Reads a line written by the recorder, whose members start `"kind":"…","seq":N`, straight
  /// from its bytes. Returns `nil` for any other layout (the caller then parses the line).
  static func fast(_ line: UnsafeRawBufferPointer) -> RecordPeek? {
    var i = LogLine.bodyOffset
    let kind: String
    if matches(actionStart, in: line, at: i) {
      // An action line, most of a log: its whole start in one comparison.
      kind = "action"
      i += actionStart.utf8CodeUnitCount
    } else {
      guard matches(#""kind":""#, in: line, at: i) else { return nil }
      i += 8
      let kindStart = i
      while i < line.count, line[i] >= UInt8(ascii: "a"), line[i] <= UInt8(ascii: "z") { i += 1 }
      guard i < line.count, line[i] == UInt8(ascii: "\""), i > kindStart else { return nil }
      let kindBytes = UnsafeRawBufferPointer(rebasing: line[kindStart..<i])
      if spells("end", kindBytes) || spells("header", kindBytes) { return nil }
      kind = knownKind(kindBytes)
      i += 1
      guard matches(#","seq":"#, in: line, at: i) else { return nil }
      i += 7
    }
    guard let seq = seqDigits(line, at: i) else { return nil }
    return RecordPeek(kind: kind, seq: seq)
  }

  /// The `seq` of an action line in the recorder's layout (`"kind":"action","seq":N` right after
  /// the checksum), read as ``fast(_:)`` reads it, or `nil` for any other line. The common line
  /// of a log, without making a ``RecordPeek``.
  static func actionSeq(_ line: UnsafeRawBufferPointer) -> Int? {
    guard matches(actionStart, in: line, at: LogLine.bodyOffset) else { return nil }
    return seqDigits(line, at: LogLine.bodyOffset + actionStart.utf8CodeUnitCount)
  }

  /// Where the digits of `seq` end in an action line in the recorder's layout, for a line
  /// ``actionSeq(_:)`` read `seq` from: the offset of the `,` or `}` after them.
  static func endOfActionSeq(_ seq: Int) -> Int {
    LogLine.bodyOffset + actionStart.utf8CodeUnitCount + DecimalDigits.count(UInt64(max(0, seq)))
  }

  /// How the recorder's action lines start, right after the checksum.
  private static let actionStart: StaticString = #""kind":"action","seq":"#

  /// The `seq` whose digits start at `start`: 1 to 18 digits, no leading zero, followed by `,`
  /// or `}`; else `nil`.
  @inline(__always)
  private static func seqDigits(_ line: UnsafeRawBufferPointer, at start: Int) -> Int? {
    var seq = 0
    var i = start
    while i < line.count {
      let digit = line[i] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      guard i - start < 18 else { return nil }
      seq = seq &* 10 &+ Int(digit)
      i += 1
    }
    guard i > start, i < line.count,
      line[i] == UInt8(ascii: ",") || line[i] == UInt8(ascii: "}"),
      !(line[start] == UInt8(ascii: "0") && i - start > 1)
    else { return nil }
    return seq
  }

  /// Reads the members of a line in no known layout: without building its value when it is
  /// valid JSON with no repeated key (``shallow(_:limits:)``); an invalid line's exact error
  /// from the parser without keeping its values; else (a valid line in which two keys share a
  /// hash) by parsing it whole.
  static func parsing(
    _ line: UnsafeRawBufferPointer, limits: JSONLimits
  ) -> Swift.Result<RecordPeek, LogFault.Reason> {
    if let peek = shallow(line, limits: limits) { return peek }
    if let error = JSONParser.firstError(in: line, limits: limits) {
      return .failure(.invalidJSON(error))
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(line, limits: limits)
    } catch {
      return .failure(.invalidJSON(error))
    }
    guard case .object = value else {
      return .failure(.invalidRecord("the line is a JSON \(value.kindName), not an object"))
    }
    guard let kind = value["kind"]?.stringValue else {
      return .failure(.invalidRecord("no string \"kind\""))
    }
    var seq: Int?
    if let seqValue = value["seq"] {
      guard let number = seqValue.intValue, number >= 0 else {
        return .failure(.invalidRecord("\"seq\" is not a non-negative integer"))
      }
      seq = number
    }
    return .success(RecordPeek(kind: kind, seq: seq, reason: value["reason"]?.stringValue))
  }

  /// The offset of the first `[` or `{` that opens more than `maxDepth` arrays and objects at
  /// once, or `nil`. A checksummed line is indexed without being parsed; this scan (one pass, no
  /// allocation) still finds lines nested too deeply to parse, so that recovery modes see them
  /// when the log is opened rather than when the action is decoded.
  ///
  /// A line no longer than `maxDepth` cannot open more containers than it has bytes, so it is
  /// not scanned; a longer one passes over each byte that does not matter with one table lookup.
  static func excessiveNesting(_ line: UnsafeRawBufferPointer, maxDepth: Int) -> Int? {
    guard line.count > maxDepth else { return nil }
    var depth = 0
    var inString = false
    var escaped = false
    return byteClasses.withUnsafeBufferPointer { classes -> Int? in
      for i in 0..<line.count {
        let byte = line[i]
        if classes[Int(byte)] == 0 && !escaped { continue }
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
          if depth > maxDepth { return i }
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        default: break
        }
      }
      return nil
    }
  }

  /// 1 for the bytes ``excessiveNesting(_:maxDepth:)`` looks at (`"` `\\` `[` `]` `{` `}`), 0 for
  /// the others, so that it passes over most bytes with one lookup.
  private static let byteClasses: [UInt8] = (0..<256).map { byte in
    [0x22, 0x5C, 0x5B, 0x5D, 0x7B, 0x7D].contains(byte) ? 1 : 0
  }

  /// The kind spelled by `bytes`: the common ones as string constants (no allocation per line).
  @inline(__always)
  private static func knownKind(_ bytes: UnsafeRawBufferPointer) -> String {
    if spells("action", bytes) { return "action" }
    if spells("checkpoint", bytes) { return "checkpoint" }
    if spells("skipped", bytes) { return "skipped" }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `bytes` are the UTF-8 of `name`.
  @inline(__always)
  private static func spells(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) -> Bool {
    name.utf8CodeUnitCount == bytes.count && matches(name, in: bytes, at: 0)
  }

  /// Whether `line` has `expected` at `offset`, compared eight bytes at a time (also used by
  /// ``ActionLineLayout``).
  @inline(__always)
  static func matches(
    _ expected: StaticString, in line: UnsafeRawBufferPointer, at offset: Int
  )
    -> Bool
  {
    let count = expected.utf8CodeUnitCount
    guard offset + count <= line.count else { return false }
    let text = UnsafeRawPointer(expected.utf8Start)
    var k = 0
    while k + 8 <= count {
      guard
        line.loadUnaligned(fromByteOffset: offset + k, as: UInt64.self)
          == text.loadUnaligned(fromByteOffset: k, as: UInt64.self)
      else { return false }
      k += 8
    }
    while k < count {
      guard line[offset + k] == text.load(fromByteOffset: k, as: UInt8.self) else { return false }
      k += 1
    }
    return true
  }
}

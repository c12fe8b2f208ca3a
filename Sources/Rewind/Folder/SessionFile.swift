import Foundation
import RewindJSON

/// What the index of a recordings folder reads from one log file without the app's reducer,
/// and without reading the whole file: a few fields of its header, and the last complete line.
/// (`replay tail` reads headers of rotated files through it too.)
package struct SessionFile {
  /// The header's `app`, `session` and `firstSeq` (`nil` when the file has no readable header).
  package struct Header {
    package var app: String
    package var session: String
    package var firstSeq: Int
  }

  /// The last complete line's `kind`, `seq`, and for an `end` or `signal` line its `reason` or
  /// `signal`.
  struct LastRecord {
    var kind: String
    var seq: Int?
    var reason: String?
    var signal: String?
  }

  let path: String
  let size: Int
  package let header: Header?
  let last: LastRecord?
  /// Whether the file ends in the middle of a line (the app died while writing it).
  let endsMidLine: Bool

  /// Reads `path` (its header, and its last line when `readsLastLine`); `nil` when it cannot be
  /// opened.
  package init?(path: String, readsLastLine: Bool) {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let end = try? handle.seekToEnd() else { return nil }
    self.path = path
    size = Int(end)
    header = Self.readHeader(handle)
    let tail =
      readsLastLine ? Self.readLastRecord(handle, size: size) : (record: nil, endsMidLine: false)
    last = tail.record
    endsMidLine = tail.endsMidLine
  }

  /// The header's fields before its `state`, which can be megabytes: the recorder writes them
  /// first, so the first few KiB hold them.
  private static func readHeader(_ handle: FileHandle) -> Header? {
    try? handle.seek(toOffset: 0)
    guard let data = try? handle.read(upToCount: 64 << 10) else { return nil }
    let bytes = [UInt8](data)
    let lineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    var line = Array(bytes[..<lineEnd])
    if let state = find(Array(#","state":"#.utf8), in: line) {
      line = Array(line[..<state]) + [UInt8(ascii: "}")]
    }
    guard let value = try? JSONParser.parse(line), value["kind"]?.stringValue == "header",
      let app = value["app"]?.stringValue
    else { return nil }
    return Header(
      app: app, session: value["session"]?.stringValue ?? "",
      firstSeq: value["firstSeq"]?.intValue ?? 1)
  }

  /// The last complete record that says how far the file got — not a `state` line: the
  /// recorder writes those from the background, possibly after later lines and with an older
  /// `seq` (a rotated file's header state comes after its first actions, a last part may come
  /// after a signal line) — and whether bytes follow the last line without a newline (a torn
  /// `state` part does not count).
  private static func readLastRecord(
    _ handle: FileHandle, size: Int
  ) -> (record: LastRecord?, endsMidLine: Bool) {
    guard size > 0, var lineEnd = lastNewline(handle, before: size) else {
      return (nil, size > 0)
    }
    var endsMidLine = false
    if lineEnd != size - 1 {
      let torn = read(handle, from: lineEnd + 1, to: size)
      endsMidLine = torn.flatMap { stringMember("kind", in: $0) } != "state"
    }
    // Back over the `state` lines: a large state's parts, 64 KiB each (1,100 lines: a state of
    // about 70 MB; past that the file is said to have no last record rather than read on).
    for _ in 0..<1_100 {
      let lineStart = (lastNewline(handle, before: lineEnd) ?? -1) + 1
      guard let line = read(handle, from: lineStart, to: lineEnd) else { break }
      let record = describe(line)
      guard record?.kind == "state", lineStart > 0 else { return (record, endsMidLine) }
      lineEnd = lineStart - 1
    }
    return (nil, endsMidLine)
  }

  /// The first 4 KiB of the bytes from `start` to `end`.
  private static func read(_ handle: FileHandle, from start: Int, to end: Int) -> [UInt8]? {
    try? handle.seek(toOffset: UInt64(start))
    return (try? handle.read(upToCount: min(4096, end - start))).map { [UInt8]($0) }
  }

  /// The offset of the last newline before `offset`, read backward 64 KiB at a time.
  private static func lastNewline(_ handle: FileHandle, before offset: Int) -> Int? {
    var end = offset
    while end > 0 {
      let start = max(0, end - (64 << 10))
      try? handle.seek(toOffset: UInt64(start))
      guard let data = try? handle.read(upToCount: end - start) else { return nil }
      if let index = data.lastIndex(of: UInt8(ascii: "\n")) {
        return start + (index - data.startIndex)
      }
      end = start
    }
    return nil
  }

  /// The fields of a record line (or of its first 4 KiB: `kind` and `seq` come first).
  private static func describe(_ line: [UInt8]) -> LastRecord? {
    if let value = try? JSONParser.parse(line), let kind = value["kind"]?.stringValue {
      return LastRecord(
        kind: kind, seq: value["seq"]?.intValue, reason: value["reason"]?.stringValue,
        signal: value["signal"]?.stringValue)
    }
    // A long line cut at 4 KiB: read its leading members.
    guard let kind = stringMember("kind", in: line) else { return nil }
    return LastRecord(kind: kind, seq: integerMember("seq", in: line), reason: nil, signal: nil)
  }

  private static func stringMember(_ name: String, in line: [UInt8]) -> String? {
    let key = Array("\"\(name)\":\"".utf8)
    guard let at = find(key, in: line) else { return nil }
    let start = at + key.count
    guard let end = line[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
    return String(decoding: line[start..<end], as: UTF8.self)
  }

  private static func integerMember(_ name: String, in line: [UInt8]) -> Int? {
    let key = Array("\"\(name)\":".utf8)
    guard let at = find(key, in: line) else { return nil }
    let digits = line[(at + key.count)...].prefix {
      $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
    }
    return Int(String(decoding: digits, as: UTF8.self))
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    var index = 0
    while index + needle.count <= haystack.count {
      if haystack[index] == needle[0],
        haystack[index..<(index + needle.count)].elementsEqual(needle)
      {
        return index
      }
      index += 1
    }
    return nil
  }
}

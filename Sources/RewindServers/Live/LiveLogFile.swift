import Foundation
import Rewind
import RewindJSON

/// The log file a live session is saved to (`replay listen --save FILE`, or a file of the
/// listener's own folder): what the app's connections send, kept as a valid Rewind log.
///
/// Each line is checked (JSON, its checksum, `seq` order) before it is written; a line that fails
/// is refused and nothing of it is written. The connection's own lines become log lines: a
/// `live-dropped` mark becomes one `skipped` line (reason `dropped`) per action the viewer did
/// not get, so that `seq` stays continuous and `replay info` names the first position whose state
/// is a guess. A reconnection of the same session continues the same file: its header's state
/// becomes a checkpoint after the actions missed while disconnected (also `skipped`), and lines
/// the file has already are not written again.
package final class LiveLogFile: @unchecked Sendable {
  // `@unchecked Sendable`: the listener hands a file to one connection at a time (its
  // `streaming` set), which alone calls it.
  /// The file's path.
  package let path: String
  /// The session the file holds.
  package let session: String
  private let fd: Int32
  /// The seq of the last action (or skipped action) written; 0 before the header.
  package private(set) var lastSeq = 0
  /// Whether the header was written.
  package private(set) var hasHeader = false
  /// Whether an `end` record of reason `closed` was written: the app closed its recorder.
  package private(set) var isClosed = false
  /// Actions written as `skipped` because the viewer did not get them.
  package private(set) var droppedActions = 0
  /// Lines of this seq or before are already in the file (a reconnection resends them).
  private var skipThrough = 0
  /// Whether the next line starts a connection.
  private var startsConnection = true
  private let document = JSONTapeDocument()

  /// The most actions one `live-dropped` mark may name (a larger range is refused).
  static let maxDroppedRange = 10_000_000

  /// Creates the file (it must not exist).
  /// - Throws: The reason it cannot be created.
  package init(path: String, session: String) throws(SocketFailure) {
    self.path = path
    self.session = session
    let fd = Platform.openForAppend(path, exclusive: true)
    guard fd >= 0 else {
      throw SocketFailure(
        "cannot create \(path): \(Platform.describe(errno: -fd))"
          + (-fd == EEXIST ? " (give another --save path)" : ""))
    }
    self.fd = fd
  }

  deinit { Platform.close(fd) }

  /// The next connection of the session begins: its header continues this file.
  package func beginConnection() { startsConnection = true }

  /// Writes one line the connection sent (without its `\n`).
  /// - Returns: The actions this line says were dropped (a `live-dropped` mark), else 0.
  /// - Throws: ``LiveRefusal/badLine(_:)`` saying what is wrong with it; nothing was written.
  @discardableResult
  package func take(_ line: [UInt8], lineNumber: Int) throws(LiveRefusal) -> Int {
    let loaded = line.withUnsafeBytes { document.load($0) }
    guard loaded, let kind = member("kind").flatMap({ document.string(at: $0) }) else {
      throw .badLine("line \(lineNumber) is not a JSON object with a \"kind\"")
    }
    if case .mismatch = line.withUnsafeBytes({ LogLine.checkChecksum($0) }) {
      throw .badLine("line \(lineNumber): its checksum does not match (changed on the way)")
    }
    let seq = integer("seq")
    if kind == "header" {
      try takeHeader(line, lineNumber: lineNumber)
      return 0
    }
    guard hasHeader else {
      throw .badLine("line \(lineNumber): a \"\(kind)\" before the header")
    }
    startsConnection = false
    switch kind {
    case "live-dropped":
      guard let from = integer("from"), let to = integer("to"), from >= 1, to >= from,
        to - from < Self.maxDroppedRange
      else {
        throw .badLine("line \(lineNumber): a live-dropped mark without a valid from…to range")
      }
      guard from <= lastSeq + 1 else {
        throw .badLine("line \(lineNumber): dropped \(from)…\(to) after action \(lastSeq)")
      }
      let first = lastSeq + 1
      guard to >= first else { return 0 }
      try writeSkipped(first...to)
      return to - first + 1
    case "action", "skipped":
      guard let seq else { throw .badLine("line \(lineNumber): an action without a seq") }
      if seq <= skipThrough { return 0 }
      guard seq == lastSeq + 1 else {
        throw .badLine("line \(lineNumber): action \(seq) after action \(lastSeq)")
      }
      try write(line)
      lastSeq = seq
    case "checkpoint", "state", "state-skipped":
      if let seq, seq <= skipThrough { return 0 }
      try write(line)
    case "end":
      try write(line)
      if document.member("reason", of: document.root).flatMap({ document.string(at: $0) })
        != "rotated"
      {
        isClosed = true
      }
    default:
      // `costs` and kinds of later versions: kept, as any reader ignores what it does not know.
      if let seq, seq <= skipThrough { return 0 }
      try write(line)
    }
    return 0
  }

  private func takeHeader(_ line: [UInt8], lineNumber: Int) throws(LiveRefusal) {
    guard let firstSeq = integer("firstSeq"), firstSeq >= 1 else {
      throw .badLine("line \(lineNumber): a header without firstSeq")
    }
    guard member("session").flatMap({ document.string(at: $0) }) == session else {
      throw .badLine("line \(lineNumber): a header of another session than the greeting's")
    }
    if !hasHeader {
      try write(line)
      hasHeader = true
      lastSeq = firstSeq - 1
      startsConnection = false
      return
    }
    guard startsConnection else {
      // A rotation in the app: the stream goes on in its next file, as a bundle does.
      try write(line)
      return
    }
    startsConnection = false
    let base = firstSeq - 1
    if base <= lastSeq {
      // What the file has already is sent again from the state before it: skip it.
      skipThrough = lastSeq
      return
    }
    guard let state = member("state") else {
      // Its state follows, in `state` lines for `base`: they come after the skipped lines.
      try writeSkipped((lastSeq + 1)...base)
      skipThrough = base - 1
      return
    }
    let stateText = Array(line[document.range(at: state)])
    try writeSkipped((lastSeq + 1)...base)
    var checkpoint: [UInt8] = Array(#"{"kind":"checkpoint","seq":"#.utf8)
    checkpoint += Array(String(base).utf8)
    checkpoint += Array(#","state":"#.utf8)
    checkpoint += stateText
    checkpoint.append(UInt8(ascii: "}"))
    try write(Self.framed(checkpoint))
    skipThrough = base
  }

  private func writeSkipped(_ seqs: ClosedRange<Int>) throws(LiveRefusal) {
    var chunk: [UInt8] = []
    for seq in seqs {
      chunk += Self.framed(Array(#"{"kind":"skipped","seq":\#(seq),"reason":"dropped"}"#.utf8))
      if chunk.count > 1 << 20 {
        try writeRaw(chunk)
        chunk.removeAll(keepingCapacity: true)
      }
    }
    try writeRaw(chunk)
    droppedActions += seqs.count
    lastSeq = seqs.upperBound
  }

  /// `{…}` framed with its checksum: `{"c":"…",…}\n`.
  private static func framed(_ object: [UInt8]) -> [UInt8] {
    var line: [UInt8] = []
    object.withUnsafeBytes { raw in
      LogLine.appendFramed(
        body: UnsafeRawBufferPointer(rebasing: raw[1..<(raw.count - 1)]), to: &line)
    }
    return line
  }

  private func write(_ line: [UInt8]) throws(LiveRefusal) {
    try writeRaw(line + [UInt8(ascii: "\n")])
  }

  private func writeRaw(_ bytes: [UInt8]) throws(LiveRefusal) {
    let (_, code) = bytes.withUnsafeBytes { Platform.writeAll(fd, $0) }
    if let code {
      throw .badLine("cannot write \(path): \(Platform.describe(errno: code))")
    }
  }

  private func member(_ name: StaticString) -> Int? {
    document.member(name, of: document.root)
  }

  private func integer(_ name: StaticString) -> Int? {
    guard let index = member(name) else { return nil }
    let text = document.text(at: index)
    guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
      return nil
    }
    return text.reduce(0) { $0 * 10 + Int($1 - 48) }
  }
}

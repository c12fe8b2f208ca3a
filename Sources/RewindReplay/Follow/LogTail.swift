import Rewind
import RewindJSON

/// Follows a log that an app is still recording, like `tail -f`: each ``poll()`` reads what was
/// appended since the last one and returns its complete lines as events.
///
/// A line still being written (no newline yet) is kept back until it is complete, so it is never
/// reported as corrupt. The file followed stays open: what is appended to it is read even after it
/// was renamed or deleted. When the path names another file, the old one is read to its end first
/// — a rotation's last actions and its `rotated` record are written after the rename. After a
/// `rotated` record the tail goes on with the file whose header continues its seqs: the one at
/// the path, or a rotated one (`session.1.jsonl`, …) when the recorder rotated more than once
/// since the last poll, so no action is missed while the files are kept. A rotation whose state
/// the recorder writes in the background starts the next file (its header's state follows)
/// before the old one's `rotated` record: the tail goes on with that file at once. Any other new
/// file (a replacement, a file deleted and made again) is read from its start after a
/// ``Event/restarted``, and a line the old file left unfinished (its writer was killed) is
/// reported as cut off. A file truncated in place is read again from its start. A tail made before its file existed
/// (started ahead of the recording) begins with the recording's first file still kept, even if
/// the recorder rotated before the first poll found the file, or is rotating while it looks.
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
    /// The file at the path was replaced (without a `rotated` record: not a rotation) or
    /// truncated; reading restarts at its beginning.
    case restarted
  }

  /// The path followed.
  public let path: String
  private let limits: ReaderLimits
  /// The file followed, open.
  private var file: (fd: Int32, device: UInt64, inode: UInt64)?
  /// The `reason` and `seq` of the followed file's end record, once read.
  private var endReason: String?
  private var endSeq = 0
  /// Polls since a `rotated` record whose next file was not found.
  private var missedSegmentPolls = 0
  /// The seq of the last action line read from the file followed (its header's `firstSeq - 1`
  /// before the first).
  private var lastActionSeq = 0
  /// Whether the file followed continues the one before it (a rotation), so that its header's
  /// state, when it follows in a `state` record, is not needed: the actions continue.
  private var continuesSession = false
  /// A header whose state follows, held back with the events after it until its `state` record
  /// is read (a file the tail starts with, whose state nothing before gives).
  private var awaited: (header: LogHeader, text: [UInt8], parts: Int, held: [Event])?
  private var offset = 0
  private var pending: [UInt8] = []
  private var scanned = 0
  private var discarding = false
  private var lineNumber = 0
  private var header: LogHeader?
  /// Whether the path had no file when the tail was made: its first file is then looked for
  /// among the rotated ones too.
  private let startsBeforeTheFile: Bool

  /// Whether a header whose state follows is held back until its state is read.
  private let waitsForStates: Bool

  /// Follows `path` from its beginning.
  ///
  /// - Parameter waitsForStates: Whether a caller that needs states (to apply the actions)
  ///   gets a file's header only once its state is known: a header whose state follows
  ///   (``LogHeader/stateFollows``) is then held back, with the actions after it, until the
  ///   `state` record that completes it (``awaitedStateSeq`` says which). With `false`, such a
  ///   header comes at once, its ``LogHeader/stateFollows`` set and its state `null`.
  public init(path: String, limits: ReaderLimits = .default, waitsForStates: Bool = true) {
    self.path = path
    self.limits = limits
    self.waitsForStates = waitsForStates
    startsBeforeTheFile = Platform.fileIdentity(path) == nil
  }

  /// The seq whose state a held-back header waits for (its `firstSeq - 1`), or `nil` when none
  /// waits.
  public var awaitedStateSeq: Int? { awaited.map { $0.header.firstSeq - 1 } }

  deinit {
    if let file { Platform.close(file.fd) }
  }

  /// Reads what was appended since the last poll.
  /// - Returns: The events, in file order; empty when nothing new was written (or the file does
  ///   not exist yet).
  /// - Complexity: O(bytes appended).
  public func poll() -> [Event] {
    var events: [Event] = []
    // Each turn reads the file followed to its end; a file that rotated is followed by the next
    // one, as many as there are since the last poll.
    while true {
      guard let current = file else {
        // The first file: the one at the path, or — for a tail that waited for it — the
        // recording's first one still kept, when the recorder rotated before this poll. The
        // recorder may rotate while the files are looked at: the file found is opened only if
        // it still starts where it did, else they are looked at again (at the next poll at
        // worst).
        guard startsBeforeTheFile else {
          guard open(path) else { return events }
          continue
        }
        guard let first = Self.firstSegment(of: path) else {
          // A file whose header is not written yet may be a rotation's new file, with older
          // ones kept: wait a little for its header before taking it as the first.
          if Platform.fileIdentity(path) != nil {
            missedSegmentPolls += 1
            guard missedSegmentPolls > 20 else { return events }
          }
          missedSegmentPolls = 0
          guard open(path) else { return events }
          continue
        }
        missedSegmentPolls = 0
        guard open(first.path, firstSeq: first.firstSeq) else { return events }
        continue
      }
      events += readNew(current.fd)
      let now = Platform.fileIdentity(path)
      if let now, now.device == current.device, now.inode == current.inode { return events }
      // Another file, or none, at the path: whatever its writer wrote before leaving it (a
      // rotation's `rotated` record comes before the new file) is there now. Read it.
      events += readNew(current.fd)
      if endReason == "rotated" {
        // The file with the next seqs: at the path, or rotated again already. It may not be
        // found for a moment: before the recorder makes its new file, or while it renames the
        // rotated ones. Only when it stays missing (the retention deleted it) is the file at the
        // path taken instead.
        if let next = Self.segment(of: path, firstSeq: endSeq + 1) {
          // Renamed again between the search and the opening, another file may be there now:
          // only the one that starts at the next seq is taken.
          guard open(next, firstSeq: endSeq + 1, continuing: true) else { return events }
          missedSegmentPolls = 0
          continue
        }
        missedSegmentPolls += 1
        guard missedSegmentPolls > 20, now != nil else { return events }
        missedSegmentPolls = 0
        guard open(path) else { return events }
        continue
      }
      // A rotation whose state is written in the background: the next file (its header's state
      // follows) starts before this one's final state and `end` record are written, and the
      // app may stop before they are. The next file continues the seqs; only the state record
      // and the end are left here, which a tail does not show.
      if endReason == nil, let session = header?.session,
        let next = Self.segment(of: path, firstSeq: lastActionSeq + 1, statesFollow: true),
        // Not the file followed, seen again under a rotated name.
        Platform.fileIdentity(next).map({
          $0.device != current.device || $0.inode != current.inode
        }) ?? false,
        SessionFile(path: next, readsLastLine: false)?.header?.session == session
      {
        guard open(next, firstSeq: lastActionSeq + 1, continuing: true) else { return events }
        continue
      }
      // The file followed is gone from the path: wait (reading it) until another appears.
      guard now != nil else { return events }
      // A file whose header is not written yet may be that next file: wait for it a little.
      if endReason == nil, header != nil, Self.headerFirstSeq(path) == nil {
        missedSegmentPolls += 1
        guard missedSegmentPolls > 20 else { return events }
      }
      missedSegmentPolls = 0
      events += cutOffLine()
      events.append(.restarted)
      guard open(path) else { return events }
    }
  }

  /// Follows `path` from its start instead of the file followed; `false` when it cannot be
  /// opened, or, given `firstSeq`, when its header does not start there.
  ///
  /// - Parameter continuing: Whether the file continues the one followed (a rotation).
  private func open(_ path: String, firstSeq: Int? = nil, continuing: Bool = false) -> Bool {
    guard case .success(let opened) = Platform.openForReading(path) else { return false }
    guard let identity = Platform.fileIdentity(fd: opened.fd),
      firstSeq == nil || Self.headerFirstSeq(opened.fd) == firstSeq
    else {
      Platform.close(opened.fd)
      return false
    }
    if let file { Platform.close(file.fd) }
    file = (opened.fd, identity.device, identity.inode)
    restart()
    continuesSession = continuing
    return true
  }

  /// The line the file left unfinished, when it is left behind (its writer was killed mid-line).
  private func cutOffLine() -> [Event] {
    guard !pending.isEmpty, !discarding else { return [] }
    return [
      .fault(
        LogFault(
          path: path, line: lineNumber + 1, byteOffset: offset - pending.count,
          reason: .cutOff(length: pending.count)))
    ]
  }

  /// Forgets where it was in the file: the next bytes read are a file's first.
  private func restart() {
    offset = 0
    pending.removeAll()
    scanned = 0
    discarding = false
    lineNumber = 0
    header = nil
    headerLine = nil
    endReason = nil
    endSeq = 0
    lastActionSeq = 0
    continuesSession = false
    awaited = nil
  }

  /// Reads `fd` from where the last read ended to its end; a file now shorter than that was
  /// truncated, and is read again from its start.
  private func readNew(_ fd: Int32) -> [Event] {
    guard let now = Platform.fileIdentity(fd: fd) else { return [] }
    var events: [Event] = []
    if now.size < offset {
      events += cutOffLine()
      events.append(.restarted)
      restart()
    }
    guard now.size > offset else { return events }
    var chunk = [UInt8](repeating: 0, count: min(now.size - offset, 1 << 20))
    while true {
      let count = chunk.withUnsafeMutableBytes { Platform.read(fd, into: $0, at: offset) }
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

  /// The events of one line; while a header waits for its state (``awaited``), held back with
  /// it until the `state` record that completes it.
  private func record(_ line: UnsafeRawBufferPointer, at start: Int) -> [Event] {
    let events = read(line, at: start)
    guard var waiting = awaited else { return events }
    // Faults are told at once; the rest waits with the header.
    var faults: [Event] = []
    for event in events {
      if case .fault = event { faults.append(event) } else { waiting.held.append(event) }
    }
    awaited = waiting
    return faults
  }

  /// Takes the line of a `state` record for the header that waits for it (``awaited``); when it
  /// completes the state, the header and the events held since are returned.
  private func awaitedState(_ value: JSONValue, at start: Int) -> [Event] {
    guard var waiting = awaited, value["seq"]?.intValue == waiting.header.firstSeq - 1 else {
      return []
    }
    let seq = waiting.header.firstSeq - 1
    /// The header goes on without its state, as if not waited for, after `reason`.
    func release(_ reason: String) -> [Event] {
      awaited = nil
      let fault = LogFault(
        path: path, line: lineNumber, byteOffset: start, reason: .invalidRecord(reason))
      return [.header(waiting.header), .fault(fault)] + waiting.held
    }
    var state = value["state"]
    if state == nil, let piece = value["text"]?.stringValue, let part = value["part"]?.intValue,
      let count = value["parts"]?.intValue
    {
      // A part missing (damaged, so not read as a record) or out of order: it will not come whole.
      guard part == waiting.parts, waiting.parts < count else {
        return release(
          "part \(part) of the state for seq \(seq) comes after \(waiting.parts) of its parts: "
            + "the state is not whole")
      }
      waiting.text += Array(piece.utf8)
      waiting.parts += 1
      awaited = waiting
      guard waiting.parts == count else { return [] }
      state = try? JSONParser.parse(waiting.text, limits: limits.json)
      if state == nil {
        return release("the parts of the state for seq \(seq) do not put together into JSON")
      }
    }
    guard let state else { return [] }
    awaited = nil
    waiting.header.state = state
    waiting.header.stateFollows = false
    header = waiting.header
    return [.header(waiting.header)] + waiting.held
  }

  /// The members of `line` — an object whose JSON is checked — built as a tree, but for a
  /// checkpoint's `state`, which a tail does not show: a large state is never built. (A header
  /// is read as ``LogHeader`` reads one; a `state` record's piece of a state is built.)
  private static func members(of line: UnsafeRawBufferPointer, limits: JSONLimits) -> JSONValue {
    var ranges: [(key: String, range: Range<Int>)] = []
    JSONScan.forEachMember(ofObjectIn: line) { ranges.append(($0, $1)) }
    func value(_ range: Range<Int>) -> JSONValue? {
      try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: line[range]), limits: limits)
    }
    let kind = ranges.first { $0.key == "kind" }.flatMap { value($0.range) }
    var members: [JSONMember] = []
    for (key, range) in ranges where key != "state" || kind == .string("state") {
      if let value = value(range) { members.append(JSONMember(key, value)) }
    }
    return .object(members)
  }

  /// The line number of the header read from the file followed (held back or not), or `nil`
  /// before one: a fault on a later line came after it.
  public private(set) var headerLine: Int?

  private func read(_ line: UnsafeRawBufferPointer, at start: Int) -> [Event] {
    func fault(_ reason: LogFault.Reason) -> [Event] {
      [.fault(LogFault(path: path, line: lineNumber, byteOffset: start, reason: reason))]
    }
    switch LogLine.checkChecksum(line) {
    case .mismatch(let stored, let computed):
      return fault(.checksumMismatch(stored: stored, computed: computed))
    case .malformed: return fault(.malformedChecksum)
    case .valid, .absent: break
    }
    if let error = JSONParser.firstError(in: line, limits: limits.json) {
      return fault(.invalidJSON(error.shifted(by: start)))
    }
    let value = Self.members(of: line, limits: limits.json)
    switch value["kind"]?.stringValue {
    case "header":
      do {
        // Its state kept as its text, as the log reader keeps a header's.
        let parsed = try LogHeader(checkedLine: line, path: path, limits: limits.json, file: nil)
        header = parsed
        headerLine = lineNumber
        lastActionSeq = parsed.firstSeq - 1
        // A file that continues the one followed needs no state: the actions continue. Else
        // the header waits for its state.
        if parsed.stateFollows && !continuesSession && waitsForStates {
          awaited = (parsed, [], 0, [])
          return []
        }
        return [.header(parsed)]
      } catch {
        return fault(.invalidRecord(error.message))
      }
    case "state":
      return awaitedState(value, at: start)
    case "action", "skipped":
      let isAction = value["kind"]?.stringValue == "action"
      if let seq = value["seq"]?.intValue { lastActionSeq = seq }
      return [
        .action(
          RecordedAction(
            seq: value["seq"]?.intValue ?? 0, time: value["time"]?.doubleValue,
            type: value["type"]?.stringValue, payload: isAction ? value["action"] : nil,
            isSanitized: value["sanitized"]?.boolValue ?? false, line: lineNumber,
            status: isAction
              ? .recorded : .skipped(reason: value["reason"]?.stringValue ?? "unknown"),
            site: isAction ? value["site"]?.stringValue : nil,
            cause: isAction ? value["cause"]?.intValue.flatMap { $0 > 0 ? $0 : nil } : nil,
            via: isAction ? value["via"]?.stringValue : nil))
      ]
    case "end":
      let reason = value["reason"]?.stringValue ?? "closed"
      endReason = reason
      endSeq = value["seq"]?.intValue ?? endSeq
      return [.end(reason: reason)]
    default:
      return []
    }
  }
}

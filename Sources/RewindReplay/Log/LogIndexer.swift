import Rewind
import RewindJSON

/// The one pass over a log's bytes that opening it makes: finds line breaks, checks checksums
/// and `seq` continuity, parses the header, and applies the recovery mode to faulty lines.
struct LogIndexer {
  struct Result {
    var header: LogHeader
    var faults: [LogFault]
    var endReason: String?
    var signal: RecordedSignal?
    var entries: LogEntryTable
    var checkpoints: [Int: LogEntry]
    /// States written in parts, complete ones only: each seq's part lines in order.
    var partedCheckpoints: [Int: [LogEntry]]
    /// The `costs` lines (recorded reducer times), in file order.
    var costs: [LogEntry] = []
    /// How many `state-skipped` marks the log holds.
    var skippedStates: Int
    /// How many rotated files after the first one the log joins (a bundle of a session).
    var joinedFiles: Int
    var suspectFrom: Int?
    var ignoredLines: Int
    /// The line the header's state was read from: the header's own, or the `state` record's
    /// (its first part's) when it follows (``ReplayLog/headerStateLine``).
    var headerStateLine = 1
    /// The identities of the actions, one an entry, when the open finds them
    /// (`identifiesActions`).
    var actionIdentities: ActionIdentities?
  }

  /// What to do after a fault.
  enum Continuation { case skipLine, stop }

  let path: String
  let bytes: LogBytes
  let recovery: RecoveryMode
  let limits: ReaderLimits

  /// The actions' identities, one an entry, when the open finds them (else `nil`).
  private var identities: ActionIdentities?
  /// The document that lines not in the recorder's layout are read with, for their identities.
  private var identityDocument: JSONTapeDocument?
  private var header: LogHeader?
  private var isChecksummed = false
  var faults: [LogFault] = []
  var entries = LogEntryTable()
  private var checkpoints: [Int: LogEntry] = [:]
  private var partedCheckpoints: [Int: [LogEntry]] = [:]
  /// The parts of each state read so far, until its last part completes it.
  private var pendingParts: [Int: (count: Int, entries: [LogEntry])] = [:]
  private var skippedStates = 0
  private var joinedFiles = 0
  private var endReason: String?
  private var endLine = 0
  private var signal: RecordedSignal?
  private var costs: [LogEntry] = []
  var suspectFrom: Int?
  private var ignoredLines = 0
  /// The bad line skipped just before the current one (salvage), if any.
  private var lastSkipped: (line: Int, start: Int)?

  /// - Parameter identifiesActions: Whether to find each action's identity in the pass
  ///   (``ActionIdentities``), while its line is in cache.
  init(
    path: String, bytes: LogBytes, recovery: RecoveryMode, limits: ReaderLimits,
    identifiesActions: Bool = false
  ) {
    self.path = path
    self.bytes = bytes
    self.recovery = recovery
    self.limits = limits
    if identifiesActions { identities = ActionIdentities() }
  }

  /// Lines whose checksums the pass ahead has checked (large logs only), as last asked.
  private var checkedLines = 0..<0
  /// Checks the JSON of lines the pass ahead has not, when ``ReaderLimits/checksJSONAtOpen``.
  var validator: JSONValidator?
  /// Lines starting before this offset are valid JSON: checked here, many at a time.
  var validJSONEnd = 0
  /// Lines starting before this offset are checked one at a time: one of them is not valid JSON.
  var singleJSONEnd = 0
  /// The bytes read so far, as `run` last saw (lines are checked many at a time up to there).
  var readEnd = 0

  /// The header's `firstSeq`, kept apart so that reading it per line copies no header.
  private var firstSeq = 1
  var expectedSeq: Int { firstSeq + entries.count }

  mutating func run() throws(ReplayError) -> Result {
    let prepass = bytes.prepass
    defer { prepass?.cancel() }
    // Held by `prepass` for the whole loop: used per line, it needs no retain and release.
    let unretainedPrepass = prepass.map { Unmanaged.passUnretained($0) }
    let memory = bytes.memory
    // The bytes read so far: a large file is still being read as it is indexed.
    var received = bytes.received()
    let expectedLines = Self.expectedLines(in: memory, judgingBy: received.count)
    entries.reserveCapacity(expectedLines)
    identities?.reserveCapacity(expectedLines)
    var start = 0
    var lineNumber = 0
    scan: while true {
      var newline = Self.newline(in: memory, from: start, before: received.count)
      while newline == nil && !received.isComplete {
        let searched = max(start, received.count)
        received = try bytes.waitForMore(than: received.count)
        newline = Self.newline(in: memory, from: searched, before: received.count)
      }
      guard start < received.count else { break }
      readEnd = received.count
      lineNumber += 1
      if lineNumber & 255 == 0 { prepass?.indexerReached(start) }
      let end = newline ?? received.count
      defer { start = end + 1 }
      var contentEnd = end
      if contentEnd > start, memory[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
      if isBlank(start, contentEnd) { continue }
      let span = (start: start, end: contentEnd, line: lineNumber)
      var fault: LogFault.Reason?
      if end - start > limits.maxLineBytes {
        fault = .lineTooLong(length: end - start, limit: limits.maxLineBytes)
      } else if newline == nil {
        fault = .cutOff(length: end - start)
      }
      if header == nil {
        if let fault {
          // A first "line" with no newline is either a header torn mid-write or not a log at
          // all; only a line that parses as a header is the former.
          if case .cutOff = fault, !Self.looksLikeHeader(bytes.slice(span.start, span.end)) {
            throw .notARewindLog(
              path: path,
              reason: "the file has no complete first line (no newline in "
                + "\(end - start) bytes), and what it has is not a Rewind header")
          }
          throw headerError(fault, span)
        }
        try readHeader(span)
        continue
      }
      if fault == nil { fault = record(span, prepass: unretainedPrepass) }
      if let fault {
        switch try handle(LogFault(path: path, line: lineNumber, byteOffset: start, reason: fault))
        {
        case .skipLine:
          lastSkipped = (lineNumber, start)
          continue
        case .stop: break scan
        }
      }
      lastSkipped = nil
    }
    guard let header else { throw .emptyLog(path: path) }
    if let suspect = suspectFrom, suspect > header.firstSeq - 1 + entries.count {
      suspectFrom = nil  // nothing was replayed after the skipped line
    }
    return Result(
      header: header, faults: faults, endReason: endReason, signal: signal, entries: entries,
      checkpoints: checkpoints, partedCheckpoints: partedCheckpoints,
      costs: costs, skippedStates: skippedStates, joinedFiles: joinedFiles,
      suspectFrom: suspectFrom, ignoredLines: ignoredLines, actionIdentities: identities)
  }

  // MARK: Header

  /// Whether a line starts the way a header does: `{"c":"` (checksummed) or `{"kind":"header"`.
  private static func looksLikeHeader(_ line: UnsafeRawBufferPointer) -> Bool {
    LogLine.hasChecksumPrefix(line) || line.starts(with: #"{"kind":"header""#.utf8)
  }

  private mutating func readHeader(_ span: (start: Int, end: Int, line: Int)) throws(ReplayError) {
    let line = bytes.slice(span.start, span.end)
    switch LogLine.checkChecksum(line) {
    case .valid: isChecksummed = true
    case .absent: isChecksummed = try secondLineHasChecksum(after: span.end)
    case .malformed: throw headerError(.malformedChecksum, span)
    case .mismatch(let stored, let computed):
      throw headerError(.checksumMismatch(stored: stored, computed: computed), span)
    }
    if !LogLine.hasChecksumPrefix(line) && isChecksummed {
      throw headerError(.missingChecksum, span)
    }
    // Checked whole (duplicate keys too: the state is kept as text, decoded later); then only
    // a header's members are built.
    if let error = JSONParser.firstError(in: line, limits: limits.json) {
      throw .notARewindLog(
        path: path, reason: "line \(span.line) is not valid JSON: \(error.description)")
    }
    let parsed = try LogHeader(
      checkedLine: line, path: path, limits: limits.json, file: (bytes, span.start))
    header = parsed
    firstSeq = parsed.firstSeq
  }

  private func headerError(
    _ reason: LogFault.Reason, _ span: (start: Int, end: Int, line: Int)
  ) -> ReplayError {
    .fault(
      LogFault(path: path, line: span.line, byteOffset: span.start, reason: reason),
      recovery: .strict, intactActions: 0, droppedLines: 0)
  }

  /// Whether the first non-blank line after the header has a checksum (reads the whole file).
  private func secondLineHasChecksum(after end: Int) throws(ReplayError) -> Bool {
    try bytes.waitForAll()
    var start = end + 1
    while start < bytes.buffer.count {
      let newline = Platform.firstIndex(of: UInt8(ascii: "\n"), in: bytes.buffer, from: start)
      let stop = newline ?? bytes.buffer.count
      if !isBlank(start, stop) { return LogLine.hasChecksumPrefix(bytes.slice(start, stop)) }
      start = stop + 1
    }
    return false
  }

  // MARK: Records

  /// Indexes one record line; returns what is wrong with it, if anything. (`prepass` is passed
  /// in unretained, not kept in a property: it would be retained and released for every line,
  /// an atomic operation on memory the checking thread writes to.)
  private mutating func record(
    _ span: (start: Int, end: Int, line: Int), prepass: Unmanaged<ChecksumPrepass>?
  ) -> LogFault.Reason? {
    let line = bytes.slice(span.start, span.end)
    var peeked: RecordPeek?
    var isRecorderLayout = false
    // The pass ahead's verdict when it has checked the line, else checked now. (Read here, not
    // through a method: a non-mutating call from this mutating one copies the whole indexer.)
    var status: LogLine.ChecksumStatus?
    var isValidJSON: Bool?
    if let prepass {
      if !checkedLines.contains(span.start) {
        checkedLines = prepass._withUnsafeGuaranteedRef { $0.checkedLines() }
      }
      if checkedLines.contains(span.start) {
        status = prepass._withUnsafeGuaranteedRef { $0.status(at: span.start) }
        isValidJSON = prepass._withUnsafeGuaranteedRef { $0.isValidJSON(at: span.start) }
      }
    }
    switch status ?? LogLine.checkChecksum(line) {
    case .valid:
      if limits.checksJSONAtOpen, !(isValidJSON ?? validate(line, at: span.start)),
        case .failure(let reason) = RecordPeek.parsing(line, limits: limits.json)
      {
        // The checksum holds but the JSON does not: the parser says where and why.
        if case .invalidJSON(let error) = reason {
          return .invalidJSON(error.shifted(by: span.start))
        }
        return reason
      }
      // (Valid JSON was checked for its depth.)
      if !limits.checksJSONAtOpen,
        let offset = RecordPeek.excessiveNesting(line, maxDepth: limits.json.maxDepth)
      {
        let at = span.start + offset
        return .invalidJSON(
          JSONParseError(offset: at, reason: .tooDeep(limit: limits.json.maxDepth)))
      }
      // Most lines: the next action, in the recorder's layout, before any end record.
      if endReason == nil, let seq = RecordPeek.actionSeq(line), seq == expectedSeq {
        entries.append(
          LogEntry(
            start: span.start, length: span.end - span.start, line: span.line, seq: seq,
            kind: .action, isRecorderLayout: true))
        if identities != nil {
          identify(line, at: span.start, isRecorderLayout: true, verifiedSeq: seq)
        }
        return nil
      }
      peeked = RecordPeek.fast(line)
      isRecorderLayout = peeked != nil
    case .absent:
      if isChecksummed { return .missingChecksum }
    case .malformed:
      return .malformedChecksum
    case .mismatch(let stored, let computed):
      return .checksumMismatch(stored: stored, computed: computed)
    }
    if peeked == nil {
      switch RecordPeek.parsing(line, limits: limits.json) {
      case .success(let peek): peeked = peek
      case .failure(let reason):
        if case .invalidJSON(let error) = reason {
          return .invalidJSON(error.shifted(by: span.start))
        }
        return reason
      }
    }
    guard let peek = peeked else { return .invalidRecord("no \"kind\"") }
    if peek.kind == "header", endReason == "rotated" {
      switch joinSegment(span, line, afterEnd: true) {
      case .joined, .notAJoin: return nil
      case .fault(let reason): return reason
      }
    }
    if endReason != nil {
      let article = peek.kind.first.map { "aeiou".contains($0) } == true ? "an" : "a"
      return .misplacedRecord(
        "\(article) \(peek.kind) line after the end record at line \(endLine)")
    }
    let length = span.end - span.start
    switch peek.kind {
    case "action", "skipped":
      guard let seq = peek.seq else {
        return .invalidRecord("an \(peek.kind) line with no \"seq\"")
      }
      if seq != expectedSeq {
        guard recovery == .salvage, seq > expectedSeq, seq - expectedSeq < 1 << 24 else {
          return .seqGap(expected: expectedSeq, found: seq)
        }
        // The seqs in between are missing. When a bad line was just skipped, they are its
        // actions and it is already reported; otherwise the gap itself is the fault.
        let cause = lastSkipped ?? (line: span.line, start: span.start)
        if lastSkipped == nil {
          faults.append(
            LogFault(
              path: path, line: span.line, byteOffset: span.start,
              reason: .seqGap(expected: expectedSeq, found: seq)))
        }
        markSuspect(from: expectedSeq)
        while expectedSeq < seq {
          entries.append(
            LogEntry(
              start: cause.start, length: 0, line: cause.line, seq: expectedSeq, kind: .missing))
          identities?.appendUnidentified()
        }
      }
      let kind: LogEntry.Kind = peek.kind == "action" ? .action : .skipped
      if kind == .skipped { markSuspect(from: seq) }
      entries.append(
        LogEntry(
          start: span.start, length: length, line: span.line, seq: seq, kind: kind,
          isRecorderLayout: isRecorderLayout && kind == .action))
      if kind == .action {
        if identities != nil { identify(line, at: span.start, isRecorderLayout: isRecorderLayout) }
      } else {
        identities?.appendUnidentified()
      }
    case "checkpoint":
      guard let seq = peek.seq else { return .invalidRecord("a checkpoint line with no \"seq\"") }
      guard seq == expectedSeq - 1 else {
        return .invalidRecord(
          "a checkpoint for seq \(seq) after action \(expectedSeq - 1): it must follow its action")
      }
      checkpoints[seq] = LogEntry(
        start: span.start, length: length, line: span.line, seq: seq, kind: .checkpoint)
    case "end":
      guard let seq = peek.seq else { return .invalidRecord("an end line with no \"seq\"") }
      guard seq == expectedSeq - 1 else {
        return .invalidRecord(
          "the end record says seq \(seq) but the last action is \(expectedSeq - 1)")
      }
      endReason = peek.reason ?? "closed"
      endLine = span.line
    case "state":
      guard let seq = peek.seq else { return .invalidRecord("a state line with no \"seq\"") }
      // A header whose state follows announces the record for `firstSeq - 1`.
      let lowest = header?.stateFollows == true ? firstSeq - 1 : firstSeq
      guard seq >= lowest else {
        return .invalidRecord(
          "a state for seq \(seq), before this file's first action \(firstSeq) (only a header "
            + "whose state follows announces one, for seq \(firstSeq - 1))")
      }
      guard seq <= expectedSeq - 1 else {
        return .invalidRecord(
          "a state for seq \(seq) after action \(expectedSeq - 1): it must follow its action")
      }
      let entry = LogEntry(
        start: span.start, length: length, line: span.line, seq: seq, kind: .checkpoint)
      switch StateRecordPeek.read(line, limits: limits.json) {
      case nil:
        return .invalidRecord("a state line with neither a \"state\" nor a valid part")
      case .whole:
        if checkpoints[seq] == nil, partedCheckpoints[seq] == nil { checkpoints[seq] = entry }
      case .part(let index, let count):
        var pending = pendingParts[seq] ?? (count, [])
        guard pending.count == count, index == pending.entries.count else {
          return .invalidRecord(
            "part \(index) of \(count) of the state for seq \(seq) is out of order")
        }
        pending.entries.append(entry)
        if pending.entries.count == count {
          pendingParts[seq] = nil
          if checkpoints[seq] == nil, partedCheckpoints[seq] == nil {
            partedCheckpoints[seq] = pending.entries
          }
        } else {
          pendingParts[seq] = pending
        }
      }
    case "state-skipped":
      skippedStates += 1
    case "costs":
      guard let seq = peek.seq else { return .invalidRecord("a costs line with no \"seq\"") }
      guard seq <= expectedSeq - 1 else {
        return .invalidRecord(
          "the reducer times of actions up to \(seq) after action \(expectedSeq - 1): they must "
            + "follow their actions")
      }
      costs.append(
        LogEntry(start: span.start, length: length, line: span.line, seq: seq, kind: .checkpoint))
    case "signal":
      guard let seq = peek.seq else { return .invalidRecord("a signal line with no \"seq\"") }
      let value = try? JSONParser.parse(line, limits: limits.json)
      signal = RecordedSignal(
        seq: seq, signal: value?["signal"]?.stringValue ?? "an unknown signal",
        address: value?["address"]?.stringValue, line: span.line)
    case "header":
      // A file rotated in the background ends with its final state and `end` record after the
      // next file has begun: the app may have stopped before either was written.
      switch joinSegment(span, line, afterEnd: false) {
      case .joined: return nil
      case .fault(let reason): return reason
      case .notAJoin: break
      }
      return .misplacedRecord(
        "a second header not after a rotated file's end record (a log holds one recording, or "
          + "the rotated files of one, joined in order)")
    default:
      ignoredLines += 1
    }
    return nil
  }

  /// Joins the next rotated file of the session, as a bundle holds it
  /// (`RecordedSession.bundle(to:)`): its header continues the `seq`s after the `end` record of
  /// reason `rotated` — or, for a header whose state follows, after the previous file's last
  /// action, that file's `end` record not written yet when the app stopped (`afterEnd` false) —,
  /// and its state is the checkpoint before its first action (when that file's own final
  /// checkpoint is not already there; a state that follows comes as a `state` record).
  ///
  /// - Returns: ``Join/notAJoin`` only when `afterEnd` is false and the header is not a
  ///   continuation of this kind: the caller reports it as misplaced.
  private mutating func joinSegment(
    _ span: (start: Int, end: Int, line: Int), _ line: UnsafeRawBufferPointer, afterEnd: Bool
  ) -> Join {
    let next =
      JSONParser.firstError(in: line, limits: limits.json) == nil
      ? try? LogHeader(
        checkedLine: line, path: path, limits: limits.json, file: (bytes, span.start)) : nil
    guard let header, let next else {
      guard afterEnd else { return .notAJoin }
      return .fault(
        .invalidRecord("a header after a rotated file's end that is not a valid header"))
    }
    guard afterEnd || next.stateFollows else { return .notAJoin }
    guard next.session == header.session else {
      return .fault(
        .misplacedRecord(
          "a header of session \(next.session) after a rotated file of session "
            + "\(header.session)"))
    }
    guard next.firstSeq == expectedSeq else {
      return .fault(
        .invalidRecord(
          "the next rotated file starts at seq \(next.firstSeq), but the last action is "
            + "\(expectedSeq - 1)"))
    }
    endReason = nil
    joinedFiles += 1
    // The previous file's state cut off midway is left out; the next file's parts start afresh.
    pendingParts = [:]
    let seq = next.firstSeq - 1
    if !next.stateFollows, seq >= firstSeq, checkpoints[seq] == nil, partedCheckpoints[seq] == nil {
      checkpoints[seq] = LogEntry(
        start: span.start, length: span.end - span.start, line: span.line, seq: seq,
        kind: .checkpoint)
    }
    return .joined
  }

  /// What ``joinSegment(_:_:afterEnd:)`` did with a header.
  private enum Join {
    /// It continues the session: joined.
    case joined
    /// It would continue the session but is wrong in this way.
    case fault(LogFault.Reason)
    /// It is not a file joined without the previous one's `end` record.
    case notAJoin
  }

  /// Adds the identity of the action line `line`, which starts at `start`, to ``identities``;
  /// `verifiedSeq` is its seq when ``RecordPeek/actionSeq(_:)`` read it.
  private mutating func identify(
    _ line: UnsafeRawBufferPointer, at start: Int, isRecorderLayout: Bool,
    verifiedSeq: Int? = nil
  ) {
    identities?.identify(
      line: line, at: start, isRecorderLayout: isRecorderLayout, verifiedSeq: verifiedSeq,
      limits: limits.json, document: &identityDocument)
  }
}

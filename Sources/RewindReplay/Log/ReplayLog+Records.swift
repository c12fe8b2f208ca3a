import RewindJSON

/// One action of a log as recorded, before decoding it with the app's `Action` type.
public struct RecordedAction: Sendable {
  /// Whether the action's payload is in the log.
  public enum Status: Sendable, Equatable {
    /// Recorded: ``RecordedAction/payload`` holds it.
    case recorded
    /// A `skipped` line: the recorder did not record it (`reason`: `"denied"`,
    /// `"encodingFailed"`).
    case skipped(reason: String)
    /// No line: a seq that `--recovery salvage` skipped over.
    case missing
  }

  /// The action's seq.
  public var seq: Int
  /// Seconds since recording started, when recorded.
  public var time: Double?
  /// The action's type (its enum case name), when known.
  public var type: String?
  /// The encoded action, when recorded.
  public var payload: JSONValue?
  /// Whether the recorder's sanitizer changed the action before it was written.
  public var isSanitized: Bool
  /// The line number in the log.
  public var line: Int
  /// Whether the payload is in the log.
  public var status: Status
  /// Whether ``payload`` (and ``type``) are the recorded action as the app's schema migrations
  /// changed it, not what the app wrote (``ReplayLog/migration``).
  public var isMigrated = false
  /// Where the app dispatched it, `Module/File.swift:line` (`#fileID:#line`), when the recorder
  /// recorded origins (the line's `site`).
  public var site: String?
  /// The `seq` of the action whose handling dispatched it, when recorded (the line's `cause`).
  public var cause: Int?
  /// Who sent it other than the app's own code: `"viewer"` for an action the live viewer
  /// dispatched into the app (`replay listen`'s `dispatch`; the line's `via`).
  public var via: String?

  /// Creates a recorded action (for tools that build logs, and tests).
  public init(
    seq: Int, time: Double?, type: String?, payload: JSONValue?, isSanitized: Bool, line: Int,
    status: Status, site: String? = nil, cause: Int? = nil, via: String? = nil
  ) {
    self.seq = seq
    self.time = time
    self.type = type
    self.payload = payload
    self.isSanitized = isSanitized
    self.line = line
    self.status = status
    self.site = site
    self.cause = cause
    self.via = via
  }
}

extension ReplayLog {
  /// The `type` of the action with `seq` (its enum case name), read without building the
  /// action's value: what a search by type or a summary needs, in memory that does not grow with
  /// the action's size (``action(at:)`` builds the whole payload). It says what
  /// `action(at: seq).type` says, and throws where that throws.
  ///
  /// - Returns: `nil` for a seq with no line, or a line whose `type` is not a string.
  /// - Throws: As ``action(at:)``: for a line that is not valid JSON or lacks an `action`.
  public func actionType(at seq: Int) throws(ReplayError) -> String? {
    guard let entry = entry(seq: seq), entry.kind != .missing, migration == nil else {
      return try action(at: seq).type
    }
    let line = bytes.slice(entry.start, entry.start + entry.length)
    if entry.kind == .action,
      let layout = ActionLineLayout(
        line, limits: limits.json, verifiedSeq: entry.isRecorderLayout ? entry.seq : nil)
    {
      // The layout vouches for the line around the action, not for the action's own text.
      guard JSONParser.firstError(in: line, limits: limits.json) == nil else {
        return try action(at: seq).type
      }
      return ActionLineLayout.typeName(
        quoted: UnsafeRawBufferPointer(rebasing: line[layout.type]),
        isEscaped: layout.typeIsEscaped)
    }
    if case .success(let peek) = RecordPeek.shallow(line, limits: limits.json),
      peek.hasAction || entry.kind == .skipped
    {
      return peek.type
    }
    return try action(at: seq).type
  }

  /// The action with `seq`, as recorded.
  ///
  /// - Throws: `ReplayError.positionOutOfRange` for a seq outside the log; `.fault` when its
  ///   line is not valid JSON or lacks an `action`.
  /// - Complexity: O(length of its line).
  public func action(at seq: Int) throws(ReplayError) -> RecordedAction {
    guard let entry = entry(seq: seq) else {
      guard actionCount > 0 else { throw .noActions(path: path, position: positions.lowerBound) }
      throw .positionOutOfRange(seq, valid: firstSeq...lastSeq)
    }
    switch entry.kind {
    case .missing:
      return RecordedAction(
        seq: seq, time: nil, type: nil, payload: nil, isSanitized: false, line: entry.line,
        status: .missing)
    case .skipped:
      let value = try parse(entry, members: ["time", "type", "reason"])
      return RecordedAction(
        seq: seq, time: value["time"]?.doubleValue, type: value["type"]?.stringValue,
        payload: nil, isSanitized: false, line: entry.line,
        status: .skipped(reason: value["reason"]?.stringValue ?? "unknown"))
    case .action, .checkpoint:
      let value = try parse(
        entry, members: ["action", "time", "type", "sanitized", "site", "cause", "via"])
      guard let payload = value["action"] else {
        throw recordFault(entry, "the action line has no \"action\"")
      }
      var action = RecordedAction(
        seq: seq, time: value["time"]?.doubleValue, type: value["type"]?.stringValue,
        payload: payload, isSanitized: value["sanitized"]?.boolValue ?? false, line: entry.line,
        status: .recorded, site: value["site"]?.stringValue,
        cause: value["cause"]?.intValue.flatMap { $0 > 0 && $0 < seq ? $0 : nil },
        via: value["via"]?.stringValue)
      if let migration { action = try migration.migrated(action, in: path) }
      return action
    }
  }

  /// The state recorded in the checkpoint after action `seq`, or `nil` when there is none.
  /// - Throws: `ReplayError.fault` when the checkpoint's line is not valid JSON or has no state.
  public func checkpointState(at seq: Int) throws(ReplayError) -> JSONValue? {
    if let parts = partedCheckpointEntries[seq] {
      return try migratedState(
        partedState(parts), line: parts[0].line, what: "checkpoint at seq \(seq)")
    }
    guard let entry = checkpointEntries[seq] else { return nil }
    let value = try parse(entry, members: ["state"])
    guard let state = value["state"] else {
      throw recordFault(entry, "the checkpoint line has no \"state\"")
    }
    return try migratedState(state, line: entry.line, what: "checkpoint at seq \(seq)")
  }

  /// `state` after the migration chain, when the log has one.
  func migratedState(_ state: JSONValue, line: Int, what: String) throws(ReplayError)
    -> JSONValue
  {
    guard let migration else { return state }
    return try migration.migratedState(state, in: path, line: line, what: what)
  }

  /// The JSON text of the state recorded in the checkpoint after `seq`, as the file holds it
  /// (the `text` of its parts put together, for one written in parts), or `nil` when there is no
  /// such checkpoint, the log is read through a migration, or the text is not JSON within the
  /// log's limits.
  ///
  /// For comparing with a state encoded the way the recorder encodes it, byte for byte, without
  /// building either as a ``JSONValue`` tree (`replay verify`).
  package func checkpointStateText(at seq: Int) -> [UInt8]? {
    withCheckpointStateText(at: seq) { Array($0) }
  }

  /// Calls `body` with ``checkpointStateText(at:)`` — for a checkpoint in one line, the bytes
  /// where the file holds them, found without loading the line into a tape — and returns what
  /// it returns; `nil` (without calling it) when there is no such text.
  package func withCheckpointStateText<R, E: Error>(
    at seq: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R
  ) throws(E) -> R? {
    guard let text = checkpointStateSource(at: seq) else { return nil }
    return try text.withUnsafeBytes(body)
  }

  /// ``checkpointStateText(at:)`` as a ``StateText``: for a checkpoint in one line, where the
  /// file holds it, found without loading the line into a tape.
  package func checkpointStateSource(at seq: Int) -> StateText? {
    guard migration == nil else { return nil }
    // Checked here as the parser reads it, against the log's limits, duplicate keys included
    // (whatever was checked at open): the parts' text put together, as a state in one line is,
    // or the line the state is read from.
    func isJSON(_ text: UnsafeRawBufferPointer) -> Bool {
      JSONParser.firstError(in: text, limits: limits.json) == nil
    }
    if let parts = partedCheckpointEntries[seq] {
      guard let text = try? partedStateText(parts), text.withUnsafeBytes(isJSON) else {
        return nil
      }
      return StateText(text)
    }
    guard let entry = checkpointEntries[seq] else { return nil }
    let line = bytes.slice(entry.start, entry.start + entry.length)
    guard isJSON(line) else { return nil }
    var state: Range<Int>?
    JSONScan.forEachMember(ofObjectIn: line) { key, range in
      if key == "state" { state = range }
    }
    guard let state else { return nil }
    return StateText(
      in: bytes, at: (entry.start + state.lowerBound)..<(entry.start + state.upperBound))
  }

  /// The `text` strings of a `state` record's parts, put together.
  private func partedStateText(_ parts: [LogEntry]) throws(ReplayError) -> [UInt8] {
    var text: [UInt8] = []
    for entry in parts {
      guard let piece = try parse(entry)["text"]?.stringValue else {
        throw recordFault(entry, "the state part has no \"text\"")
      }
      text.append(contentsOf: piece.utf8)
    }
    return text
  }

  /// The state of a `state` record written in parts: their `text` strings put together, parsed.
  private func partedState(_ parts: [LogEntry]) throws(ReplayError) -> JSONValue {
    let text = try partedStateText(parts)
    do {
      return try JSONParser.parse(text, limits: limits.json)
    } catch {
      throw recordFault(
        parts[0], "the state's parts do not put together into JSON: \(error.description)")
    }
  }

  /// The line number of the checkpoint after `seq` (its first line, for one in parts), when
  /// there is one.
  public func checkpointLine(at seq: Int) -> Int? {
    checkpointEntries[seq]?.line ?? partedCheckpointEntries[seq]?.first?.line
  }

  /// The bytes of the checkpoint after `seq` in the file (all its parts), or 0.
  func checkpointByteCount(at seq: Int) -> Int {
    if let entry = checkpointEntries[seq] { return entry.length }
    return partedCheckpointEntries[seq]?.reduce(0) { $0 + $1.length } ?? 0
  }

  /// About how large the log's states are as text: the larger of the header's state and the
  /// last checkpoint's line (0 when neither is kept as text), for sizing what holds states.
  package var recordedStateByteCount: Int {
    let header = header.withStateText { $0.count } ?? 0
    return max(header, checkpointSeqs.last.map { checkpointByteCount(at: $0) } ?? 0)
  }

  /// The latest checkpoint at or before `position`, if any.
  /// - Complexity: O(log c) in the number of checkpoints.
  public func checkpointSeq(atOrBefore position: Int) -> Int? {
    var low = 0
    var high = checkpointSeqs.count
    while low < high {
      let mid = (low + high) / 2
      if checkpointSeqs[mid] <= position { low = mid + 1 } else { high = mid }
    }
    return low > 0 ? checkpointSeqs[low - 1] : nil
  }

  private func recordFault(_ entry: LogEntry, _ text: String) -> ReplayError {
    .fault(
      LogFault(path: path, line: entry.line, byteOffset: entry.start, reason: .invalidRecord(text)),
      recovery: recovery, intactActions: max(0, entry.seq - firstSeq), droppedLines: 0)
  }
}

extension JSONParseError {
  /// The same error with its offset moved by `delta` (from line-relative to file-relative).
  func shifted(by delta: Int) -> JSONParseError {
    var copy = self
    copy.offset += delta
    return copy
  }
}

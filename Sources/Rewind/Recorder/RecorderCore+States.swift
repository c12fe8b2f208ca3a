import Foundation

/// The states a recording writes besides its actions: checkpoints (on the calling thread or, for
/// large states, planned for the background), the final checkpoint, the `state-skipped` marks,
/// and rotation's new file, whose header holds the state.
extension RecorderCore {
  /// Whether ``recordState(_:)`` has work to do after the last action.
  var needsState: Bool { isCheckpointDue || isRotationDue }

  private var isCheckpointDue: Bool {
    options.checkpointInterval > 0 && seq > lastCheckpointSeq
      && (seq % options.checkpointInterval == 0 || checkpointOwed)
  }

  /// Runs before each action is recorded. When the state after the previous action was due and
  /// never came — a store that runs an action dispatched from a subscriber or middleware at once,
  /// inside the previous one, so the recorder sees `willReduce(A)`, `willReduce(B)`,
  /// `didReduce(B)`, `didReduce(A)` — the checkpoint of that action is marked as skipped
  /// (`state-skipped`, reason `nested`) and the next state that does come is checkpointed
  /// instead. Returns an error to report.
  mutating func settleAwaitedState() -> RecorderError? {
    guard awaitsState else { return nil }
    awaitsState = false
    guard isRecording, isCheckpointDue else { return nil }
    checkpointOwed = true
    return appendStateLine(StateRecord.skipped(seq: seq, reason: .nested))
  }

  private var isRotationDue: Bool {
    guard let rotation = options.rotation, let writer else { return false }
    return writer.length >= rotation.maxBytes
  }

  /// How the state after the last action is to be written, when a checkpoint or a rotation is
  /// due.
  enum StatePlan {
    /// Nothing is due.
    case nothing
    /// Now, on the calling thread (``recordState(_:)``): a small state (its last encoding was at
    /// most ``inlineStateBytes``, a few tens of microseconds), a rotation, whose new file's
    /// header needs the state at once, or a reproducible recording, whose bytes must not depend
    /// on timing.
    case now
    /// A checkpoint for `seq`, to be encoded and written off the calling thread as a `state`
    /// record; it is no longer due.
    case later(seq: Int)
  }

  /// Decides how the due state is written (``StatePlan``); a checkpoint handed to the
  /// background counts as written.
  mutating func planState() -> StatePlan {
    awaitsState = false
    guard isRecording, needsState else { return .nothing }
    if isRotationDue || options.reproducible != nil || lastStateBytes <= Self.inlineStateBytes {
      return .now
    }
    lastCheckpointSeq = seq
    checkpointOwed = false
    return .later(seq: seq)
  }

  /// States whose JSON was at most this many bytes last time are written on the calling thread,
  /// right after their action (a `checkpoint` record): encoding them costs less than handing
  /// them over.
  static let inlineStateBytes = 16 << 10

  /// Records that the checkpoint planned for `seq` (``StatePlan/later(seq:)``) was skipped: if
  /// `seq` is still the last action when the recording closes, the final checkpoint covers it.
  mutating func checkpointSkipped(at seq: Int) {
    if lastCheckpointSeq == seq { lastCheckpointSeq = seq - 1 }
  }

  /// Remembers the size of the last state encoded, to plan the next one.
  mutating func noteStateBytes(_ count: Int) { lastStateBytes = count }

  /// Appends one line of a `state` record (or its `state-skipped` mark), written after
  /// whatever actions came meanwhile. Returns an error to report; nothing once recording stopped.
  mutating func appendStateLine(_ line: [UInt8]) -> RecorderError? {
    guard isRecording else { return nil }
    do { try writer?.append(line, seq: seq) } catch { return fail(error) }
    return nil
  }

  /// Writes a checkpoint and rotates the file when they are due, with the state after the last
  /// action. Returns an error to report.
  mutating func recordState(_ encode: () throws -> [UInt8]) -> RecorderError? {
    let stateJSON: [UInt8]
    do {
      stateJSON = try encode()
    } catch {
      return fail(.stateEncodingFailed(description: "\(error)"))
    }
    lastStateBytes = stateJSON.count
    do {
      if isCheckpointDue { try appendCheckpoint(stateJSON) }
      if isRotationDue { try rotate(stateJSON: stateJSON) }
    } catch {
      return fail(error)
    }
    return nil
  }

  /// Writes a `checkpoint` line with the state after the last action.
  private mutating func appendCheckpoint(_ stateJSON: [UInt8]) throws(RecorderError.Reason) {
    var line = LogLineBuilder(kind: .checkpoint)
    line.integer("seq", seq)
    line.json("state", stateJSON)
    try writer?.append(line.framed(), seq: seq)
    lastCheckpointSeq = seq
    checkpointOwed = false
  }

  /// Whether the file's last action has no checkpoint yet: what a final checkpoint, before the
  /// `end` record, is for.
  var lacksFinalCheckpoint: Bool { isRecording && seq > lastCheckpointSeq && seq >= firstSeqOfFile }

  /// Writes the checkpoint of the state after the last action, before the `end` record, so that
  /// `verify` can always compare the end state. Returns an error to report.
  mutating func recordFinalState(_ stateJSON: [UInt8]) -> RecorderError? {
    guard lacksFinalCheckpoint else { return nil }
    do { try appendCheckpoint(stateJSON) } catch { return fail(error) }
    return nil
  }

  /// Rotates the file: renames it, ends it, and starts a new one whose header holds the state.
  private mutating func rotate(stateJSON: [UInt8]) throws(RecorderError.Reason) {
    guard let rotation = options.rotation, let old = writer else { return }
    // Rename first, with the file still open: when that fails, the file must not end with a
    // `rotated` record that promises a next file. It then ends at its last action, as a log that
    // stopped on an error does.
    let code = LogWriter.shiftRotatedFiles(path, keep: rotation.keepFiles, fileSystem: fileSystem)
    if code != 0 { throw .rotationFailed(errno: code) }
    // The file ends with its last state, as a closed one does.
    if lacksFinalCheckpoint { try appendCheckpoint(stateJSON) }
    try old.append(endLine(reason: "rotated"), seq: seq)
    try old.flush()
    old.close()
    writer = nil
    do {
      writer = try LogWriter(
        path: path, fileSystem: fileSystem, exclusive: false, durability: options.durability,
        committedSeq: seq)
    } catch {
      throw .rotationFailed(errno: error.errno)
    }
    segment += 1
    firstSeqOfFile = seq + 1
    if let signalOwner, let fd = writer?.fileDescriptor {
      FatalSignalRecord.move(owner: signalOwner, to: fd)
    }
    try writer?.append(header(firstSeq: seq + 1, stateJSON: stateJSON), seq: seq)
  }

  /// A header line for a file whose first action is `firstSeq`, with `stateJSON` as its state.
  func header(firstSeq: Int, stateJSON: [UInt8]) -> [UInt8] {
    LogLineBuilder.header(
      session: identity.session, app: identity.app, actionType: identity.actionType,
      stateType: identity.stateType,
      recordedAt: options.reproducible?.recordedAt ?? LogLineBuilder.timestamp(Date()),
      firstSeq: firstSeq, segment: segment, checkpointInterval: options.checkpointInterval,
      build: options.build, stateJSON: stateJSON
    ).framed()
  }

}

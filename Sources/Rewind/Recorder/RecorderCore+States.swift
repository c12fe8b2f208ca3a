import Dispatch
import Foundation

/// The states a recording writes besides its actions: checkpoints (on the calling thread or, for
/// large states, planned for the background), the final checkpoint, the `state-skipped` marks,
/// and rotation's new file, whose header holds the state.
extension RecorderCore {
  /// Whether ``recordState(_:)`` has work to do after the last action.
  var needsState: Bool { isCheckpointDue || isRotationDue }

  private var isCheckpointDue: Bool {
    seq > lastCheckpointSeq
      && (liveStateOwed
        || (options.checkpointInterval > 0
          && (seq % options.checkpointInterval == 0 || checkpointOwed)))
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

  /// Whether the file has reached its rotation's `maxBytes`.
  var isRotationDue: Bool {
    guard let rotation = options.rotation, let writer else { return false }
    return writer.length >= rotation.maxBytes
  }

  /// How the state after the last action is to be written, when a checkpoint or a rotation is
  /// due.
  enum StatePlan {
    /// Nothing is due, or a due rotation waits for the state being written (see
    /// ``planState(writerIsIdle:)``).
    case nothing
    /// Now, on the calling thread (``recordState(_:)``): a small state (its last encoding was at
    /// most ``inlineStateBytes``, a few tens of microseconds), or a reproducible recording, whose
    /// bytes must not depend on timing.
    case now
    /// A checkpoint for `seq`, to be encoded and written off the calling thread as a `state`
    /// record; it is no longer due.
    case later(seq: Int)
    /// A rotation after action `seq` with a large state: the caller starts the new file at once
    /// (``beginRotation()``), with a header whose state follows, and the state is encoded off the
    /// calling thread and written to both files (``appendStateLine(_:)``,
    /// ``appendRetiringLine(_:)``, ``finishRotation()``).
    case rotateLater(seq: Int)
  }

  /// Decides how the due state is written (``StatePlan``); a checkpoint handed to the
  /// background counts as written.
  ///
  /// - Parameter writerIsIdle: Whether no state is being encoded or written in the background.
  ///   A rotation of a large state waits for it (to the next action): its lines go to the file
  ///   they began in.
  mutating func planState(writerIsIdle: Bool) -> StatePlan {
    awaitsState = false
    guard isRecording, !isClosing, needsState else { return .nothing }
    let isInline = options.reproducible != nil || lastStateBytes <= Self.inlineStateBytes
    if isInline { return .now }
    if isRotationDue {
      if writerIsIdle { return .rotateLater(seq: seq) }
      guard isCheckpointDue else { return .nothing }
    }
    // A checkpoint owed (one skipped because the writer was busy, a nested action's, the live
    // viewer's) waits for the writer without a mark: the first state after it is idle is
    // written. Only a checkpoint due by the interval is marked skipped when the writer is busy.
    let isByInterval = options.checkpointInterval > 0 && seq % options.checkpointInterval == 0
    if !writerIsIdle && !isByInterval { return .nothing }
    lastCheckpointSeq = seq
    checkpointOwed = false
    liveStateOwed = false
    return .later(seq: seq)
  }

  /// States whose JSON was at most this many bytes last time are written on the calling thread,
  /// right after their action (a `checkpoint` record): encoding them costs less than handing
  /// them over.
  static let inlineStateBytes = 16 << 10

  /// Records that the checkpoint planned for `seq` (``StatePlan/later(seq:)``) was skipped (the
  /// writer was busy): it is owed, so the first state after the writer is idle is checkpointed
  /// (a later checkpoint is always written: the distance between two is at most the interval plus
  /// the actions dispatched while one state is encoded); and if `seq` is still the last action
  /// when the recording closes, the final checkpoint covers it.
  mutating func checkpointSkipped(at seq: Int) {
    if lastCheckpointSeq == seq { lastCheckpointSeq = seq - 1 }
    checkpointOwed = true
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

  /// Appends one line of a `state` record encoded in the background (``StatePlan/later(seq:)``,
  /// ``StatePlan/rotateLater(seq:)``), as ``appendStateLine(_:)`` does, except that the live
  /// viewer takes it by reference (``LogWriter/appendShared(_:seq:)``): the lock is held for its
  /// `write(2)`, not for a copy of its bytes. Returns an error to report.
  mutating func appendStatePart(_ line: [UInt8]) -> RecorderError? {
    guard isRecording else { return nil }
    do { try writer?.appendShared(line, seq: seq) } catch { return fail(error) }
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
    liveStateOwed = false
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
    try shiftFiles(rotation)
    // The file ends with its last state, as a closed one does.
    if lacksFinalCheckpoint { try appendCheckpoint(stateJSON) }
    try old.append(endLine(reason: "rotated", seq: seq), seq: seq)
    try old.flush()
    writer = nil
    try startNextFile()
    try writer?.append(header(firstSeq: seq + 1, stateJSON: stateJSON), seq: seq)
    try moveSignalRecord()
    // Closed only now: the new file would otherwise get its descriptor number while the
    // fatal-signal record still points at it, before the header is there.
    try retire(old)
  }

  /// What ``beginRotation()`` did.
  enum RotationStart {
    /// The new file is started; the retiring one waits for the state (when it is kept).
    case started
    /// Nothing was started: the recording is closing or stopped, or it stopped now, with this
    /// error to report.
    case notStarted(RecorderError?)
  }

  /// Starts the next file without encoding the state (``StatePlan/rotateLater(seq:)``): renames
  /// the current file and keeps it open as the retiring file, and starts the new one with a
  /// header whose state follows (`"stateFollows":true`, docs/log-format.md).
  mutating func beginRotation() -> RotationStart {
    guard isRecording, !isClosing, let rotation = options.rotation, let old = writer else {
      return .notStarted(nil)
    }
    do {
      try shiftFiles(rotation)
      try old.flush()
      old.live = nil
      writer = nil
      try startNextFile()
      lastCheckpointSeq = seq
      checkpointOwed = false
      try writer?.append(header(firstSeq: seq + 1, stateJSON: nil), seq: seq)
      try moveSignalRecord()
      // With one file kept, the old one is gone already: nothing more is written to it. (Closed
      // only now, as in ``rotate(stateJSON:)``.)
      if rotation.keepFiles > 1 {
        retiringWriter = old
      } else {
        old.close()
      }
    } catch {
      return .notStarted(fail(error))
    }
    return .started
  }

  /// Renames the current file away, shifting the kept ones. Done first, with the file still
  /// open: when a rename fails, the file must not end with a `rotated` record that promises a
  /// next file; it then ends at its last action, as a log that stopped on an error does.
  private func shiftFiles(_ rotation: Rotation) throws(RecorderError.Reason) {
    let (code, release) = LogWriter.shiftRotatedFiles(
      path, keep: rotation.keepFiles, fileSystem: fileSystem)
    if let release { Self.releaseInBackground(release) }
    if code != 0 { throw .rotationFailed(errno: code) }
  }

  /// Opens the next file under the recording's path, for the actions after the last one.
  private mutating func startNextFile() throws(RecorderError.Reason) {
    do {
      writer = try LogWriter(
        path: path, fileSystem: fileSystem, exclusive: false, durability: options.durability,
        committedSeq: seq)
    } catch {
      throw .rotationFailed(errno: error.errno)
    }
    writer?.live = live
    segment += 1
    firstSeqOfFile = seq + 1
  }

  /// Points the fatal-signal record at the new file, once its header is in it (a buffered
  /// recording writes the header out first): a signal line before the header would make the
  /// file unreadable.
  private func moveSignalRecord() throws(RecorderError.Reason) {
    guard let signalOwner, let fd = writer?.fileDescriptor else { return }
    try writer?.flush()
    FatalSignalRecord.move(owner: signalOwner, to: fd)
  }

  /// Appends one line of the `state` record of the rotation's state to the retiring file, whose
  /// final state it is (the new file has it first, as its header's state). Returns an error to
  /// report.
  mutating func appendRetiringLine(_ line: [UInt8]) -> RecorderError? {
    guard isRecording, let retiring = retiringWriter else { return nil }
    do { try retiring.append(line, seq: firstSeqOfFile - 1) } catch { return fail(error) }
    return nil
  }

  /// Ends the retiring file (``beginRotation()``) with its `end` record and closes it. Returns an
  /// error to report.
  mutating func finishRotation() -> RecorderError? {
    guard let retiring = retiringWriter else { return nil }
    retiringWriter = nil
    guard isRecording else {
      retiring.close()
      return nil
    }
    do {
      try retiring.append(
        endLine(reason: "rotated", seq: firstSeqOfFile - 1), seq: firstSeqOfFile - 1)
      try retiring.flush()
      try retire(retiring)
    } catch {
      retiring.close()
      return fail(error)
    }
    return nil
  }

  /// Frees a file the rotation dropped, off the calling thread: deleting a file of many MiB
  /// takes milliseconds (5 ms for 16 MB on ext4 here).
  private static func releaseInBackground(_ release: @escaping @Sendable () -> Void) {
    DispatchQueue.global(qos: .utility).async(execute: release)
  }

  /// A header line for a file whose first action is `firstSeq`, with `stateJSON` as its state, or
  /// a header whose state follows in a `state` record when `stateJSON` is `nil`.
  func header(firstSeq: Int, stateJSON: [UInt8]?) -> [UInt8] {
    Self.header(
      identity: identity, options: options, firstSeq: firstSeq, segment: segment,
      stateJSON: stateJSON)
  }

  /// A header line of the recording `identity` with `options`: the file's, or a live
  /// connection's (``LiveSink``).
  static func header(
    identity: Identity, options: RecordingOptions, firstSeq: Int, segment: Int,
    stateJSON: [UInt8]?
  ) -> [UInt8] {
    LogLineBuilder.header(
      session: identity.session, app: identity.app, actionType: identity.actionType,
      stateType: identity.stateType,
      recordedAt: options.reproducible?.recordedAt ?? LogLineBuilder.timestamp(Date()),
      firstSeq: firstSeq, segment: segment, checkpointInterval: options.checkpointInterval,
      build: options.build, stateJSON: stateJSON
    ).framed()
  }

}

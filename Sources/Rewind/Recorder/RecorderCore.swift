import Foundation
import RewindJSON

/// The mutable heart of a ``Recorder``: the current file, the next `seq`, and what is due.
/// Lives inside the recorder's mutex; every method runs with it held. The states it writes
/// (checkpoints, the final one, rotation's header) are in RecorderCore+States.swift.
struct RecorderCore {
  /// How long the app's thread waits for the core's lock without sleeping (nanoseconds) before
  /// it sleeps on it (``Recorder/withCoreOnAppThread(_:)``): longer than the longest hold of
  /// the background writer, one part of a state (a 64 KiB line's `write(2)`, tens of
  /// microseconds). 0 on a single core, where the holder cannot run while the app's thread
  /// spins.
  static let appThreadSpin: UInt64 = ProcessInfo.processInfo.activeProcessorCount > 1 ? 150_000 : 0

  /// What the header says about the recording.
  struct Identity {
    var app: String
    var actionType: String
    var stateType: String
    var session: String
  }

  let path: String
  let identity: Identity
  let options: RecordingOptions
  let fileSystem: any LogFileSystem
  var writer: LogWriter?
  /// The file just rotated away from, while its final state is written in the background
  /// (``beginRotation()``); `nil` at other times.
  var retiringWriter: LogWriter?
  /// Files rotated away whose last lines were never synced (``Durability/interval(_:)`` only),
  /// oldest first, each a duplicated handle for the next background sync or ``close()``. At most
  /// `keepFiles - 1`: older ones were deleted by later rotations (see ``retire(_:)``).
  var rotatedAwaitingSync: [any LogFileHandle] = []
  /// Set by `Recorder.close()` before it waits for the state being written: no state is planned
  /// after it (``planState(writerIsIdle:)``), so that the one it waits for is the last.
  var isClosing = false
  private(set) var seq = 0
  /// This recording's identity for ``FatalSignalRecord``, when it writes the fatal-signal line.
  let signalOwner: ObjectIdentifier?
  /// What ``signalOwner`` identifies.
  private let signalToken = SignalRecordToken()
  private(set) var status: RecordingStatus = .recording
  var segment = 0
  var lastCheckpointSeq = 0
  /// Whether the state after the last action is due (a checkpoint or a rotation) and has not
  /// reached the recorder yet (``planState()``). Still set when the next action arrives: the app
  /// dispatched it before handing over the state of this one (see ``settleAwaitedState()``).
  var awaitsState = false
  /// A checkpoint that was due at an action whose state never came: the next state that does
  /// come is checkpointed, whatever its `seq`.
  var checkpointOwed = false
  /// The first seq of the current file (`firstSeq` of its header).
  var firstSeqOfFile = 1
  /// The size of the JSON of the last state encoded (the header's, at first).
  var lastStateBytes = 0
  private var reportedSkip = false
  /// The action types reported as not recordable (each is reported once).
  private var reportedUnrecordable: Set<String> = []
  /// Times the actions (``RecordingClock``).
  private var clock = RecordingClock(source: SystemClockSource())
  private var startNanos: UInt64 = 0
  /// Encodes actions straight into ``actionBytes`` (the same bytes as `RewindJSONEncoder`).
  private let streamEncoder = JSONStreamEncoder()
  /// Foundation's encoder, for ``LogCoder/foundation``.
  private let foundationEncoder: JSONEncoder?
  /// Reads what Foundation's encoder wrote, for the action's `type`.
  private let foundationOutput: JSONTapeDocument?
  /// The stream encoder's output for the last action, reused from one action to the next.
  private var actionBytes: [UInt8] = []
  /// Writes an action's JSON through its direct path; kept from one action to the next.
  private var actionWriter: JSONDirectWriter
  /// The last action's JSON (``actionWriter``'s output, whichever path wrote it). A `let` of its
  /// own, so that reading it costs no reference count.
  private let actionOutput: ByteBuffer
  /// The last action's `type`, quoted and escaped, when it is not copied from its JSON.
  private let typeOutput = ByteBuffer()
  /// Where the next action came from, as its line's members (``noteOrigin(_:)``).
  private var origin = OriginMembers()
  /// Reducer times not written yet.
  private var reducerTimes = ReducerTimeBatch()
  /// The live viewer's sink (``RecordingOptions/liveViewer``), fed by the current file's writer.
  let live: LiveSink?
  /// Whether the live viewer asked for the state after the last action (a checkpoint is due,
  /// whatever the interval).
  var liveStateOwed = false

  init(
    path: String, identity: Identity, options: RecordingOptions, fileSystem: any LogFileSystem,
    initialStateJSON: [UInt8]
  ) throws(RecorderError) {
    self.path = path
    self.identity = identity
    self.options = options
    self.fileSystem = fileSystem
    signalOwner = options.recordsFatalSignals ? ObjectIdentifier(signalToken) : nil
    lastStateBytes = initialStateJSON.count
    startNanos = clock.now()
    actionOutput = ByteBuffer()
    actionWriter = JSONDirectWriter(output: actionOutput)
    if options.coder == .foundation {
      foundationEncoder = LogCoder.makeFoundationEncoder()
      foundationOutput = JSONTapeDocument()
    } else {
      foundationEncoder = nil
      foundationOutput = nil
    }
    live = LiveSink.forRecording(identity: identity, options: options)
    do {
      writer = try LogWriter(
        path: path, fileSystem: fileSystem, exclusive: options.ifExists == .fail,
        durability: options.durability)
      writer?.live = live
    } catch {
      let reason: RecorderError.Reason =
        error.errno == EEXIST ? .fileExists : .cannotOpen(errno: error.errno)
      throw RecorderError(reason, path: path, lastRecordedSeq: 0)
    }
    do {
      try writer?.append(header(firstSeq: 1, stateJSON: initialStateJSON), seq: 0)
      // The fatal-signal line goes straight to the file: the header must be there before it.
      if signalOwner != nil { try writer?.flush() }
    } catch {
      throw RecorderError(error, path: path, lastRecordedSeq: 0)
    }
    if let signalOwner, let fd = writer?.fileDescriptor, fd >= 0 {
      FatalSignalRecord.attach(owner: signalOwner, descriptor: fd, seq: 0)
    }
  }

  var isRecording: Bool {
    if case .recording = status { return true }
    return false
  }

  /// Says where the next recorded action came from: its line carries `origin` when the options
  /// record origins (``RecordingOptions/recordsOrigins``), `"via":"viewer"` when the live viewer
  /// sent it — or nothing, for `nil`.
  @inline(__always)
  mutating func noteOrigin(_ origin: ActionOrigin?) {
    // Most actions have none, as the last had: nothing to clear then.
    if origin == nil, self.origin.origin == nil, !self.origin.viaViewer, self.origin.bytes.isEmpty {
      return
    }
    self.origin.set(origin, writesSite: options.recordsOrigins)
  }

  /// Keeps the reducer time of the last recorded action, and writes a `costs` line when the
  /// batch is full (or the action does not follow the batch's last). A time for an action
  /// already timed (a store that hands states over out of order, nested) is dropped. Returns an
  /// error to report.
  mutating func noteReducerTime(nanoseconds: Int) -> RecorderError? {
    guard isRecording, seq > 0, seq != reducerTimes.lastSeq else { return nil }
    if !reducerTimes.continues(at: seq), let report = writeReducerTimes() { return report }
    reducerTimes.append(nanoseconds, seq: seq)
    return reducerTimes.isFull ? writeReducerTimes() : nil
  }

  /// Writes the kept reducer times as one `costs` line. Returns an error to report.
  mutating func writeReducerTimes() -> RecorderError? {
    guard let line = reducerTimes.takeLine() else { return nil }
    return appendStateLine(line)
  }

  /// Writes the line of the next action (or a `skipped` line). Returns an error to report.
  ///
  /// - Parameter direct: The action type's own encoding (``JSONDirectEncodable``), when it has
  ///   one and the coder is Rewind's.
  @inline(__always)
  mutating func recordAction<Action: Encodable>(
    encoding action: Action, sanitizer: ((Action) -> Action)?,
    direct: JSONDirectCoding.Encoder<Action>? = nil
  ) -> RecorderError? {
    if sanitizer == nil, case .written(let report) = recordActionDirectly(action, direct: direct) {
      return report
    }
    let coder = options.coder
    let next = seq + 1
    var report: RecorderError?
    var line: LogLineBuilder
    do {
      var value = try coder.encodeValue(action)
      let type = LogLineBuilder.typeName(of: value, fallback: identity.actionType)
      if options.deniedActionTypes.contains(type) {
        line = LogLineBuilder(kind: .skipped)
        line.integer("seq", next)
        line.string("type", type)
        line.string("reason", "denied")
      } else {
        var sanitized = false
        if let sanitizer {
          let clean = try coder.encodeValue(sanitizer(action))
          sanitized = clean != value
          value = clean
        }
        line = LogLineBuilder(kind: .action)
        line.integer("seq", next)
        line.seconds("time", nanoseconds: elapsedNanoseconds(seq: next))
        line.string("type", type)
        if let origin = origin.origin {
          line.string("site", "\(origin.file):\(origin.line)")
          if let cause = origin.cause, cause > 0 { line.integer("cause", cause) }
        }
        if origin.viaViewer { line.string("via", "viewer") }
        var bytes: [UInt8] = []
        value.write(into: &bytes)
        line.json("action", bytes)
        if sanitized { line.flag("sanitized") }
      }
    } catch {
      line = LogLineBuilder(kind: .skipped)
      line.integer("seq", next)
      line.string("type", Self.caseName(of: action))
      line.string("reason", "encodingFailed")
      if !reportedSkip {
        reportedSkip = true
        report = RecorderError(
          .actionEncodingFailed(seq: next, description: "\(error)"), path: path,
          lastRecordedSeq: seq)
      }
    }
    if let failure = commitActionLine(line, seq: next) { return failure }
    return report
  }

  /// Writes the line of action `next` (an `action` or `skipped` line built in full) and makes it
  /// the last recorded one; returns the error to report when the write fails.
  private mutating func commitActionLine(_ line: LogLineBuilder, seq next: Int) -> RecorderError? {
    do {
      try writer?.append(line.framed(), seq: next)
    } catch {
      return fail(error)
    }
    seq = next
    if let signalOwner { FatalSignalRecord.note(seq: next, owner: signalOwner) }
    return nil
  }

  /// Writes a `skipped` line (reason `unregistered`) for an action whose type is not in the
  /// recorder's ``ActionCatalog``; reports the type once. Returns an error to report.
  mutating func recordUnrecordable(_ problem: UnrecordableAction) -> RecorderError? {
    let next = seq + 1
    var line = LogLineBuilder(kind: .skipped)
    line.integer("seq", next)
    line.string("type", problem.type)
    line.string("reason", problem.miss == .unlisted ? "unregistered" : "sharedName")
    if let failure = commitActionLine(line, seq: next) { return failure }
    guard reportedUnrecordable.insert(problem.type).inserted else { return nil }
    return RecorderError(
      .actionTypeNotRecordable(
        seq: next, type: problem.type, catalog: problem.catalog,
        sharesName: problem.miss == .sharedName),
      path: path, lastRecordedSeq: seq)
  }

  /// What ``recordActionDirectly(_:direct:)`` did.
  enum DirectRecording {
    /// The line was written (or writing failed, with this report).
    case written(RecorderError?)
    /// The action did not encode or its type is denied: the full path writes the line.
    case needsFullPath
  }

  /// Writes the line of the next action the fast way: the action encoded straight into a reused
  /// buffer and the line assembled around it in one pass in the writer's buffer
  /// (``LogLine/appendAction(seq:micros:type:origin:action:to:)``) — the same bytes as the
  /// ``LogLineBuilder`` path, without a ``JSONValue`` tree or an intermediate array.
  private mutating func recordActionDirectly<Action: Encodable>(
    _ action: Action, direct: JSONDirectCoding.Encoder<Action>?
  ) -> DirectRecording {
    guard let type = encodeAction(action, direct: direct) else { return .needsFullPath }
    return writeEncodedAction(type: type)
  }

  /// Writes the line of the next action as ``recordActionDirectly(_:direct:)`` does, the action
  /// written by `encode` — its own ``JSONDirectEncodable`` path, specialised for its type in the
  /// app's module (``Recorder/willReduce(_:)`` is inlinable) — into ``actionWriter``. Not
  /// generic: the action's type stays on the caller's side. `.needsFullPath` when `encode`
  /// threw or did not write one whole value, or the action's type is denied: the caller then
  /// records the action through ``recordAction(encoding:sanitizer:direct:)``, which decides.
  mutating func recordActionDirectly(
    encodedBy encode: (inout JSONDirectWriter) throws -> Void
  ) -> DirectRecording {
    actionWriter.reset()
    guard (try? encode(&actionWriter)) != nil, actionWriter.isComplete else {
      return .needsFullPath
    }
    let type: ActionType
    if options.deniedActionTypes.isEmpty, let name = actionWriter.topLevelName {
      type = .written(name)
    } else {
      let text = Self.typeName(of: actionWriter.topLevel, fallback: identity.actionType)
      if !options.deniedActionTypes.isEmpty && options.deniedActionTypes.contains(text) {
        return .needsFullPath
      }
      type = .text(text)
    }
    return writeEncodedAction(type: type)
  }

  /// Writes the line of the action just encoded into ``actionOutput`` as the next one, named
  /// `type`.
  @inline(__always)
  private mutating func writeEncodedAction(type: ActionType) -> DirectRecording {
    let next = seq + 1
    let micros = elapsedNanoseconds(seq: next) / 1_000
    do {
      try writeActionLine(seq: next, micros: micros, type: type)
    } catch {
      return .written(fail(error))
    }
    seq = next
    if let signalOwner { FatalSignalRecord.note(seq: next, owner: signalOwner) }
    return .written(nil)
  }

  /// Assembles the line of the action just encoded into ``actionOutput`` in the writer's buffer,
  /// and writes it (or keeps it, buffered). Not generic, so that the path from the encoded action
  /// to `write(2)` is one function with no generic layer, no protocol witness and no reference
  /// to count between the two: the writer's commit and `write(2)` are inlined into it.
  private func writeActionLine(
    seq: Int, micros: UInt64, type: ActionType
  ) throws(RecorderError.Reason) {
    let action = actionOutput.bytes
    let name: UnsafeRawBufferPointer
    switch type {
    case .written(let range):
      // The name's bytes in the action's JSON are escaped as the line escapes its strings.
      name = UnsafeRawBufferPointer(rebasing: action[range])
    case .text(let text):
      typeOutput.removeAll()
      typeOutput.appendJSONString(text)
      let quoted = typeOutput.bytes
      name = UnsafeRawBufferPointer(rebasing: quoted[1..<(quoted.count - 1)])
    }
    try writer?.writeAction(
      seq: seq, micros: micros, type: name, origin: origin.bytes.bytes, action: action)
  }

  /// An action's `type` for its line.
  private enum ActionType {
    /// The name as the action's own JSON holds it (the key of its only member, or the string it
    /// is), between these offsets of ``actionOutput``: copied into the line as it is, without
    /// making a `String`.
    case written(Range<Int>)
    case text(String)
  }

  /// Encodes `action` into ``actionOutput`` with the coder — through the action's own
  /// ``JSONDirectEncodable`` path when it has one and it writes one whole value — and returns
  /// its `type`; `nil` when the full path must decide (the action did not encode, or its type is
  /// denied).
  private mutating func encodeAction<Action: Encodable>(
    _ action: Action, direct: JSONDirectCoding.Encoder<Action>?
  ) -> ActionType? {
    actionWriter.reset()
    var topLevel: JSONStreamEncoder.TopLevel?
    if direct != nil {
      // `unsafelyUnwrapped` after the test above: binding it with `if let` cost a retain and a
      // release of the encoder per action.
      if (try? direct.unsafelyUnwrapped.encode(action, to: &actionWriter)) != nil,
        actionWriter.isComplete
      {
        // The name is copied into the line as it is; the deny list needs a `String`.
        if options.deniedActionTypes.isEmpty, let name = actionWriter.topLevelName {
          return .written(name)
        }
        topLevel = actionWriter.topLevel
      } else {
        // The direct path threw or wrote no whole value: the Codable path decides.
        actionOutput.removeAll()
      }
    }
    if topLevel == nil, let foundationEncoder, let foundationOutput {
      guard let encoded = try? foundationEncoder.encode(action) else { return nil }
      actionOutput.append(Array(encoded))
      guard foundationOutput.load(actionOutput.bytes) else { return nil }
      let root = foundationOutput.root
      topLevel =
        foundationOutput.onlyKey(of: root).map { .singleKeyObject($0) }
        ?? foundationOutput.string(at: root).map { .string($0) } ?? .other
    } else if topLevel == nil {
      actionBytes.removeAll(keepingCapacity: true)
      guard let encoded = try? streamEncoder.encode(action, into: &actionBytes) else { return nil }
      actionOutput.append(actionBytes)
      topLevel = encoded
    }
    let type = Self.typeName(of: topLevel ?? .other, fallback: identity.actionType)
    if !options.deniedActionTypes.isEmpty && options.deniedActionTypes.contains(type) {
      return nil
    }
    return .text(type)
  }

  /// The log's `type` of an action whose top level is `topLevel`.
  private static func typeName(of topLevel: JSONStreamEncoder.TopLevel, fallback: String) -> String
  {
    switch topLevel {
    case .singleKeyObject(let key): return key
    case .string(let text): return text
    case .other: return fallback
    }
  }

  /// Writes buffered lines.
  mutating func flush() -> RecorderError? {
    guard isRecording else { return nil }
    do { try writer?.flush() } catch { return fail(error) }
    return nil
  }

  /// Writes the `end` record, syncs and closes. Returns an error to report.
  mutating func close() -> RecorderError? {
    guard isRecording, let writer else { return nil }
    // A rotation's state still unwritten (`Recorder.close()` waits for it, so only when a
    // contract-breaking caller raced it): the retiring file still ends as rotated files do.
    if let report = finishRotation() { return report }
    if let report = writeReducerTimes() { return report }
    do throws(RecorderError.Reason) {
      try syncRotatedFiles()
      try writer.append(endLine(reason: "closed", seq: seq), seq: seq)
      try writer.flush()
      try writer.sync()
    } catch {
      return fail(error)
    }
    if let signalOwner { FatalSignalRecord.detach(owner: signalOwner) }
    writer.close()
    self.writer = nil
    live?.finish()
    status = .closed
    return nil
  }

  /// Stops recording because of `reason`; returns the error to report (once).
  mutating func fail(_ reason: RecorderError.Reason) -> RecorderError? {
    guard isRecording else { return nil }
    if let signalOwner { FatalSignalRecord.detach(owner: signalOwner) }
    // What is in the file: buffered lines that were never written do not count.
    let intact = writer?.committedSeq ?? seq
    live?.finish()
    writer?.stop()
    writer = nil
    retiringWriter?.close()
    retiringWriter = nil
    // The files rotated away before the failure still get their sync, in the background (its
    // own failure has no recording left to stop).
    if !rotatedAwaitingSync.isEmpty {
      let pending = rotatedAwaitingSync
      DispatchQueue.global(qos: .utility).async { _ = Self.syncAndClose(pending) }
      rotatedAwaitingSync = []
    }
    let error = RecorderError(reason, path: path, lastRecordedSeq: intact)
    status = .stopped(error)
    return error
  }

  /// An `end` record after action `seq`.
  func endLine(reason: String, seq: Int) -> [UInt8] {
    var line = LogLineBuilder(kind: .end)
    line.integer("seq", seq)
    line.string("reason", reason)
    return line.framed()
  }

  private mutating func elapsedNanoseconds(seq: Int) -> UInt64 {
    // The rate alone, not the whole `Reproducible` (a copy of it retains its strings).
    if let secondsPerAction = options.reproducible?.secondsPerAction {
      return UInt64(max(0, (Double(seq) * secondsPerAction * 1e9).rounded()))
    }
    let now = clock.now()
    return now >= startNanos ? now - startNanos : 0
  }

  /// The case name of an enum value, for a `skipped` line when encoding failed.
  static func caseName<Action>(of action: Action) -> String {
    if let label = Mirror(reflecting: action).children.first?.label { return label }
    let text = String(describing: action)
    return String(text.prefix { $0 != "(" })
  }
}

/// An object whose identity names one recording to ``FatalSignalRecord``.
private final class SignalRecordToken: Sendable {}

import Dispatch
import Foundation
import RewindJSON

/// Records every action that reaches the reducers to a crash-safe JSON-lines log
/// (`docs/log-format.md`), so that a session — or the last seconds before a crash — can be
/// replayed later.
///
/// Start it on a ``Store`` with ``Store/startRecording(to:app:options:actionSanitizer:stateSanitizer:onError:)``;
/// the store then calls ``willReduce(_:)`` with each action after every middleware and just
/// before the reducer (write-ahead: when a reducer traps, the log ends with the action that killed
/// the app), and ``didReduce(_:)`` after it (checkpoints, rotation). Apps with their own store
/// call those two methods from their dispatch path.
///
/// The recorder never crashes or blocks the app: on an I/O or encoding failure it reports once
/// through `onError`, cuts the file back to its last whole line, and stops (I/O) or records a
/// `skipped` line (encoding). Closing writes the `end` record; releasing the recorder (or the
/// store that holds it) closes it too.
public final class Recorder<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
  /// The path of the current log file.
  public let path: String
  /// The recording's state, behind the lock every writer takes.
  let core: Locked<RecorderCore>
  /// ``RecorderCore/appThreadSpin``, read once (a `static let` is checked at every read).
  private let appThreadSpin = RecorderCore.appThreadSpin
  private let onError: @Sendable (RecorderError) -> Void
  /// The checks of the app's reducer the wrappers make (``reduceChecked(_:keepsState:actionType:reducing:)``).
  let checks: Locked<ReducerChecks>
  /// How many actions apart the determinism check samples; 0 when off.
  let determinismInterval: Int
  /// Set once nothing is left for ``reduceChecked(_:keepsState:actionType:reducing:)`` to check
  /// (the check off, the first state compared).
  let uncheckedFromHere = AtomicWord(0)
  /// The header's state as the log's coder wrote it (sanitized).
  let headerState: [UInt8]
  /// The coder of the log's states.
  let stateCoder: LogCoder
  /// The last state a reducer wrapper saw: the final checkpoint's when the recorder is closed or
  /// released without a state of its own (an app's own store).
  let lastState: Locked<State?> = Locked(nil)
  private let actionSanitizer: (@Sendable (Action) -> Action)?
  let stateSanitizer: (@Sendable (State) -> State)?
  /// Whether the last ``willReduce(_:)`` left a checkpoint or a rotation due, so that
  /// ``didReduce(_:)`` can return without taking the lock for the other actions. Set with the
  /// lock held; the lock is taken again, and the answer checked, before anything is written.
  @usableFromInline let stateDue = AtomicWord(0)
  /// Whether the reducer checks found a problem to report (``reportPending()``).
  @usableFromInline let hasPendingReports = AtomicWord(0)
  /// The action type's own encoding (``JSONDirectEncodable``), with Rewind's coder.
  private let directEncoding: JSONDirectCoding.Encoder<Action>?
  /// ``directEncoding`` when every action may take it first (no action sanitizer): the path
  /// ``willReduce(_:)`` takes, inlined into the app, before the full one.
  @usableFromInline let directPath: JSONDirectCoding.Encoder<Action>?
  let syncTimer: Locked<DispatchSourceTimer?> = Locked(nil)
  /// Held by a background sync from taking its handles until its failure is recorded, and by
  /// ``close()`` around closing the file: closing waits for a sync in flight, so that sync's
  /// failure is reported, not dropped (taken before the core's lock, never after).
  let syncGate = Locked(())
  /// Encodes and writes checkpoints off the dispatching thread.
  private let checkpoints = CheckpointWriter()
  /// The final state ``close(finalState:)`` gives, which ``close()`` prefers to the store's.
  private let finalStateSource: Locked<(@Sendable () -> State?)?> = Locked(nil)
  /// Detaches from the store, returning its state at that moment: the state after the last
  /// action this recorder saw (the store holds its lock across an action and its hooks).
  private let detach: Locked<(@Sendable () -> State?)?> = Locked(nil)
  /// When the last action's reducer started, in ``DispatchTime`` nanoseconds, when the options
  /// record reducer times (``RecordingOptions/recordsReducerTimes``); `nil` otherwise.
  @usableFromInline let reduceStart: AtomicWord?
  /// The app-lifecycle observers that flush a buffered recording (``Platform/flushNotifications``).
  private let lifecycleObservers: Locked<[any NSObjectProtocol]> = Locked([])

  /// Creates the log file, writes its header with `initialState`, and starts recording.
  ///
  /// - Parameters:
  ///   - path: The log file to create (mode 0600).
  ///   - app: The app's name, which `replay` uses to find its reducer (for example `"todo"`).
  ///   - initialState: The state before the first recorded action.
  ///   - options: Durability, checkpoints, rotation, deny list.
  ///   - actionSanitizer: Replaces secrets in an action before it is written (same type in and
  ///     out); a line whose action it changed is marked `"sanitized":true`.
  ///   - stateSanitizer: Replaces secrets in a state before a header or checkpoint is written.
  ///   - onError: Called once when recording stops or first skips an action; never per action.
  /// - Throws: ``RecorderError`` when the file cannot be created or the header not written.
  public convenience init(
    path: String,
    app: String,
    initialState: State,
    options: RecordingOptions = RecordingOptions(),
    actionSanitizer: (@Sendable (Action) -> Action)? = nil,
    stateSanitizer: (@Sendable (State) -> State)? = nil,
    onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
  ) throws(RecorderError) {
    try self.init(
      path: path, app: app, initialState: initialState, options: options,
      actionSanitizer: actionSanitizer, stateSanitizer: stateSanitizer,
      fileSystem: POSIXLogFileSystem(), onError: onError)
  }

  /// Creates a recorder on an injected file layer (fault-injection tests).
  package init(
    path: String,
    app: String,
    initialState: State,
    options: RecordingOptions,
    actionSanitizer: (@Sendable (Action) -> Action)?,
    stateSanitizer: (@Sendable (State) -> State)?,
    fileSystem: any LogFileSystem,
    onError: @escaping @Sendable (RecorderError) -> Void
  ) throws(RecorderError) {
    self.path = path
    self.onError = onError
    determinismInterval = options.determinismCheck.interval
    checks = Locked(ReducerChecks(interval: options.determinismCheck.interval))
    stateCoder = options.coder
    self.actionSanitizer = actionSanitizer
    self.stateSanitizer = stateSanitizer
    directEncoding = options.coder == .rewind ? JSONDirectCoding.encoder(for: Action.self) : nil
    directPath = actionSanitizer == nil ? directEncoding : nil
    reduceStart = options.recordsReducerTimes ? AtomicWord(0) : nil
    let identity = RecorderCore.Identity(
      app: app,
      actionType: LogTypeName.of(Action.self),
      stateType: LogTypeName.of(State.self),
      session: options.reproducible?.session ?? UUID().uuidString.lowercased())
    let stateJSON: [UInt8]
    do {
      stateJSON = try options.coder.encode(stateSanitizer?(initialState) ?? initialState)
    } catch {
      throw RecorderError(
        .stateEncodingFailed(description: "\(error)"), path: path, lastRecordedSeq: 0)
    }
    headerState = stateJSON
    core = Locked(
      try RecorderCore(
        path: path, identity: identity, options: options, fileSystem: fileSystem,
        initialStateJSON: stateJSON))
    if case .interval(let interval) = options.durability { startSyncTimer(every: interval) }
    if case .buffered = options.durability { flushOnLifecycleNotifications() }
  }

  /// Flushes the buffer when the app goes to the background or quits: the moments after which
  /// the system may end the process without another chance (docs/recording.md). `names` are
  /// the platform's notifications (tests pass their own).
  func flushOnLifecycleNotifications(_ names: [Notification.Name] = Platform.flushNotifications) {
    guard !names.isEmpty else { return }
    let observers = names.map { name in
      NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) {
        [weak self] _ in self?.flush()
      }
    }
    lifecycleObservers.withLock { $0 += observers }
  }

  deinit { close() }

  /// The recording's status.
  public var status: RecordingStatus { core.withLock { $0.status } }

  /// The `seq` of the last action recorded (0 before the first).
  public var lastSeq: Int { core.withLock { $0.seq } }

  /// Whether no checkpoint is being encoded or written in the background (tests wait for it).
  package var isCheckpointWriterIdle: Bool { checkpoints.isIdle }

  /// Records `action` as the next line — call it after every middleware, just before the
  /// reducer runs (``Store`` does this for you).
  @inlinable
  public func willReduce(_ action: Action) {
    // Inlined into the app, so that the action is encoded by code specialised for its type: the
    // generic path copied it through its value witnesses, twice an action.
    if directPath != nil,
      recordDirectly(
        origin: nil, { try self.directPath.unsafelyUnwrapped.encode(action, to: &$0) }) != nil
    {
      return
    }
    recordThroughFullPath(action, origin: nil)
  }

  /// Records the next action, written into the writer by `encode` (its direct path, called from
  /// the app's specialised code), with `origin`; the path from there to `write(2)` is not
  /// generic. Returns the `seq` recorded (0 when the recording has stopped), or `nil` when the
  /// action must take the full path (``recordThroughFullPath(_:origin:)``): its direct path
  /// threw or wrote no whole value, or its type is denied.
  @usableFromInline
  func recordDirectly(
    origin: ActionOrigin?, _ encode: (inout JSONDirectWriter) throws -> Void
  ) -> Int? {
    var recorded: Int? = 0
    let report = withCoreOnAppThread { core -> RecorderError? in
      guard core.isRecording else { return nil }
      let missed = core.awaitsState ? core.settleAwaitedState() : nil
      core.noteOrigin(origin)
      guard case .written(let report) = core.recordActionDirectly(encodedBy: encode) else {
        // Nothing written: the full path records the action, and notes what is due then.
        recorded = nil
        return missed
      }
      if report == nil { recorded = core.seq }
      if let request = origin?.viewerRequest, report == nil {
        core.live?.answer(request: request, seq: core.seq)
      }
      noteDue(&core)
      return missed ?? report
    }
    if let report { self.report(report) }
    if recorded != nil { startReducerClock() }
    return recorded
  }

  /// Records `action` through the coder (``RecorderCore/recordAction(encoding:sanitizer:direct:)``):
  /// the path of an action type without a direct encoding, of a sanitized recording, and of an
  /// action whose direct path failed. Returns the `seq` recorded, 0 when nothing was.
  @usableFromInline
  @discardableResult
  func recordThroughFullPath(_ action: Action, origin: ActionOrigin?) -> Int {
    var recorded = 0
    recordNext { core in
      core.noteOrigin(origin)
      let before = core.seq
      let report = core.recordAction(
        encoding: action, sanitizer: actionSanitizer, direct: directEncoding)
      if core.seq > before { recorded = core.seq }
      if let request = origin?.viewerRequest, recorded > 0 {
        core.live?.answer(request: request, seq: recorded)
      }
      return report
    }
    startReducerClock()
    return recorded
  }

  /// Runs `body` with the core's lock held, from the app's thread (an action's line, its
  /// reducer time, planning its state): a lock held by the background writer for one part of a
  /// state is waited for without sleeping (``RecorderCore/appThreadSpin``), so that the app's
  /// thread is not left to be woken and scheduled again after a hold of tens of microseconds.
  func withCoreOnAppThread<Result>(_ body: (inout RecorderCore) -> Result) -> Result {
    core.withLock(spinningFor: appThreadSpin, body)
  }

  /// Notes when the reducer starts, when reducer times are recorded.
  @inline(__always)
  private func startReducerClock() {
    guard let reduceStart else { return }
    reduceStart.store(Int(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds))
  }

  /// Hands the time since ``startReducerClock()`` to the core, when reducer times are recorded.
  @inline(__always)
  private func stopReducerClock() {
    guard let reduceStart else { return }
    let now = Int(truncatingIfNeeded: DispatchTime.now().uptimeNanoseconds)
    let elapsed = max(0, now - reduceStart.load())
    if let report = withCoreOnAppThread({ $0.noteReducerTime(nanoseconds: elapsed) }) {
      self.report(report)
    }
  }

  /// Records `action` as the next line, saying where it came from when the options record
  /// origins (``RecordingOptions/recordsOrigins``): an app's own store calls it with the call
  /// site of its `dispatch` and, for an action dispatched while another was handled, that
  /// action's `seq` (docs/recording.md, "Where an action came from").
  ///
  /// - Returns: The `seq` of the line written, to give as the ``ActionOrigin/cause`` of the
  ///   actions its handling dispatches; 0 when nothing was recorded (the recording stopped).
  @inlinable
  @discardableResult
  public func willReduce(_ action: Action, origin: ActionOrigin) -> Int {
    if directPath != nil,
      let recorded = recordDirectly(
        origin: origin, { try self.directPath.unsafelyUnwrapped.encode(action, to: &$0) })
    {
      return recorded
    }
    return recordThroughFullPath(action, origin: origin)
  }

  /// Makes the action just recorded owe a checkpoint (written by the ``didReduce(_:)`` that
  /// follows, when checkpoints are on): after a first action whose store started from another
  /// state than the header's, so that `replay verify` compares the state there and says so too.
  func oweCheckpoint() {
    core.withLock { core in
      guard core.isRecording else { return }
      core.checkpointOwed = true
      core.awaitsState = core.needsState
      stateDue.store(core.awaitsState ? 1 : 0)
    }
  }

  /// Records the next action line with `write`, after settling a state the previous action was
  /// owed, and notes whether this one's state is due.
  func recordNext(_ write: (inout RecorderCore) -> RecorderError?) {
    let report = withCoreOnAppThread { core -> RecorderError? in
      guard core.isRecording else { return nil }
      // Asked here first: most actions follow one whose state came (a call saved per action).
      let missed = core.awaitsState ? core.settleAwaitedState() : nil
      let report = write(&core)
      noteDue(&core)
      return missed ?? report
    }
    if let report { self.report(report) }
  }

  /// After an action's line: notes whether its state is due (a checkpoint, a rotation, the live
  /// viewer's request), for ``didReduce(_:)``.
  @inline(__always)
  private func noteDue(_ core: inout RecorderCore) {
    if let live = core.live, live.stateRequested.load() != 0 {
      live.stateRequested.store(0)
      core.liveStateOwed = true
    }
    core.awaitsState = core.isRecording && core.needsState
    stateDue.store(core.awaitsState ? 1 : 0)
  }

  /// Tells the recorder the state after the last recorded action, for checkpoints and rotation
  /// (``Store`` does this for you).
  ///
  /// A due checkpoint of a large state (its last encoding over 16 KiB of JSON) is handed, as a
  /// value, to a background queue that sanitizes, encodes and writes it (a `state` record,
  /// docs/log-format.md), so this returns at once; one that falls due while the previous one is
  /// still being written is skipped, and marked so in the log. A due rotation of a large state
  /// starts the new file here, with a header whose state follows, and hands the state to the same
  /// queue, which writes it to both files; it waits (to a later action) while a state is being
  /// written. A small state is encoded and written here, right after its action, which costs less
  /// than handing it over.
  @inlinable
  public func didReduce(_ state: State) {
    // Most actions need nothing here: found out in the app's code, without a call or the lock.
    if reduceStart == nil, hasPendingReports.load() == 0, stateDue.load() == 0 { return }
    handOver(state)
  }

  /// What ``didReduce(_:)`` does when reducer times are recorded, a problem is to report or the
  /// state is due.
  @usableFromInline
  func handOver(_ state: State) {
    stopReducerClock()
    if hasPendingReports.load() != 0 { reportPending() }
    guard stateDue.load() != 0 else { return }
    let isIdle = checkpoints.isIdle
    let (locked, onError, sanitizer) = (core, self.onError, stateSanitizer)
    let checkpoints = self.checkpoints
    // A checkpoint for the background is planned and submitted under one lock, so that a
    // `close()` (which stops planning under the same lock) waits for it; submitting only
    // enqueues.
    let (plan, report) = withCoreOnAppThread { core -> (RecorderCore.StatePlan, RecorderError?) in
      let plan = core.planState(writerIsIdle: isIdle)
      // A rotation due waits for the state being encoded: that state is needed now.
      if !isIdle && core.isRotationDue { checkpoints.hurry() }
      guard case .later(let seq) = plan else { return (plan, nil) }
      let coder = core.options.coder
      let handed = HandedState(state)
      let submitted = checkpoints.submit { pacer in
        let json = Self.encodeState(handed, sanitizer: sanitizer, coder: coder, pacer: pacer)
        return { Self.writeState(json, seq: seq, core: locked, releasing: handed).map(onError) }
      }
      if submitted { return (plan, nil) }
      core.checkpointSkipped(at: seq)
      return (plan, core.appendStateLine(StateRecord.skipped(seq: seq, reason: .busy)))
    }
    if let report { self.report(report) }
    switch plan {
    case .nothing, .later:
      return
    case .now:
      // A state line still being written goes before the rotation's end record.
      checkpoints.waitUntilIdle()
      let report = core.withLock { core -> RecorderError? in
        guard core.isRecording, core.needsState else { return nil }
        let sanitized = stateSanitizer?(state) ?? state
        let coder = core.options.coder
        return core.recordState { try coder.encode(sanitized) }
      }
      if let report { self.report(report) }
    case .rotateLater(let seq):
      let coder = core.withLock { $0.options.coder }
      let handed = HandedState(state)
      let job: @Sendable (EncodingPacer?) -> @Sendable () -> Void = { pacer in
        let json = Self.encodeState(handed, sanitizer: sanitizer, coder: coder, pacer: pacer)
        return {
          Self.writeState(json, seq: seq, core: locked, releasing: handed, rotating: true)
            .map(onError)
        }
      }
      // The new file and the job that completes both files start under one lock, so that a
      // `close()` in between cannot end the new file before the old one has its state: closing
      // waits for the job.
      let (report, submitted) = core.withLock { core -> (RecorderError?, Bool) in
        switch core.beginRotation() {
        case .started: return (nil, checkpoints.submit { job($0) })
        case .notStarted(let report): return (report, true)
        }
      }
      if let report { self.report(report) }
      // The writer was idle when planned, and only this method submits (one call at a time):
      // were it busy after all, the state is written here rather than not at all.
      if !submitted { job(nil)() }
    }
  }

  /// Writes the lines waiting in the buffer (``Durability/buffered(capacity:)`` only).
  public func flush() {
    let report = core.withLock { $0.flush() }
    if let report { self.report(report) }
  }

  /// Writes a last checkpoint with `finalState` (unless the last action has one), then the `end`
  /// record, syncs and closes the file: for an app with its own store, so that `replay verify`
  /// can always compare the end state. Later actions are not recorded; calling it again does
  /// nothing.
  ///
  /// The state is encoded on the calling thread: closing is not a dispatch, but a large state
  /// takes a while.
  public func close(finalState: State) {
    finalStateSource.withLock { $0 = { finalState } }
    close()
  }

  /// Writes a last checkpoint (with the attached ``Store``'s state, unless the last action has
  /// one), then the `end` record, syncs and closes the file, and detaches from the store. Later
  /// actions are not recorded. Calling it again does nothing.
  public func close() {
    syncTimer.withLock { timer in
      timer?.cancel()
      timer = nil
    }
    let observers = lifecycleObservers.withLock { slot in
      let observers = slot
      slot = []
      return observers
    }
    for observer in observers { NotificationCenter.default.removeObserver(observer) }
    let detachStore = detach.withLock { slot in
      let action = slot
      slot = nil
      return action
    }
    // The store's state at detaching, not at the final checkpoint: other threads may dispatch
    // in between, and their actions are not recorded.
    let stateAtDetach = detachStore?()
    // No state is planned from here on (an app with its own store may still be dispatching):
    // the one being written, a rotation's included, is the last to wait for.
    core.withLock { $0.isClosing = true }
    checkpoints.waitUntilIdle()
    let source = finalStateSource.withLock { slot in
      let source = slot
      slot = nil
      return source
    }
    if core.withLock({ $0.lacksFinalCheckpoint }),
      let state = source?() ?? stateAtDetach ?? lastState.withLock({ $0 })
    {
      let sanitized = stateSanitizer?(state) ?? state
      let report = core.withLock { core -> RecorderError? in
        do {
          return core.recordFinalState(try core.options.coder.encode(sanitized))
        } catch {
          return core.fail(.stateEncodingFailed(description: "\(error)"))
        }
      }
      if let report { self.report(report) }
    }
    let report = syncGate.withLock { _ in core.withLock { $0.close() } }
    if let report { self.report(report) }
  }

  /// Reports `error` through `onError`; in debug builds, a problem that does not stop the
  /// recording (an action type not recordable, a reducer that is not deterministic, a store that
  /// starts from another state than the header's) is also written to standard error, so that it
  /// is seen where it happens even without an `onError`.
  func report(_ error: RecorderError) {
    onError(error)
    #if DEBUG
      switch error.reason {
      case .actionTypeNotRecordable, .nondeterministicReducer, .initialStateDiffers:
        let line = Array((error.description + "\n").utf8)
        line.withUnsafeBytes { _ = Platform.writeAll(2, $0) }
      default: break
      }
    #endif
  }

  /// Remembers how to detach from the store on close: `action` detaches and returns the store's
  /// state at that moment, the final checkpoint's.
  func setDetach(_ action: @escaping @Sendable () -> State?) {
    detach.withLock { $0 = action }
  }

}

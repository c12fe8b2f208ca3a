import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// A timeline whose reductions run in a child `replay` process — the default of every command
/// that runs the app's reducer — so that a reducer that traps (the crash the log recorded) kills
/// the child, not the debugger.
///
/// When the child dies, the request fails with `ReplayError.reducerCrashed` and a
/// ``CrashReport``: the action, the signal, the runtime's message and the reducer's frames. The
/// crash is remembered: later requests at or past the crashing action, with the same skipped
/// actions, fail with the same report at once, without another child; anything else starts a
/// new child.
///
/// In a session (`runsAhead`), the child rebuilds the states after the last one asked for while
/// the user looks at it (``WorkerRunAhead``). Every state from the checkpoint that position is
/// rebuilt from up to how far the child got is then known not to trap — reducers are
/// deterministic (docs/determinism.md), and a state is always rebuilt from the same checkpoint —
/// so ``reach(_:)`` moves there without asking the child: a step costs what it costs in process.
///
/// When the child answers with an error instead (an action that no longer decodes, a damaged
/// line), its reply carries the typed ``ReplayError`` (``WorkerReply/failed(_:)``), thrown here
/// as the child threw it. A request that walks the whole log (``verifyWalk()``) runs whole in the
/// child: one round trip, not one per action.
package final class IsolatedTimeline: ReplayTimeline {
  package let log: ReplayLog
  /// The same timeline in this process, asked only for what needs no reducer (the header's
  /// state, a checkpoint's).
  private let local: any ReplayTimeline
  package private(set) var skippedSeqs: Set<Int> = []
  package var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  private let recovery: RecoveryMode
  private let usesCheckpoints: Bool
  private let reportsFrames: Bool
  private let runsAhead: Bool
  private var worker: WorkerProcess?
  /// Where the stretch known not to trap starts (the worker's frontier is its end), and the
  /// skipped actions it holds for.
  private var proven: (start: Int, skips: Set<Int>)?
  /// The skipped actions of the last request the worker rebuilds ahead of.
  private var aheadSkips: Set<Int> = []
  /// A position whose rebuild ahead hung (``WorkerProcess/Outcome/stuckAhead(position:)``), and
  /// the skipped actions it hung with: no worker rebuilds ahead up to it again.
  private var stuckAhead: (position: Int, skips: Set<Int>)?
  private var memo: (position: Int, skips: Set<Int>, state: Memo)?
  /// The last state the worker sent, as it was asked for.
  private enum Memo {
    case value(JSONValue)
    case text([UInt8])
  }
  /// The last crash, and the skipped actions it happened with.
  package private(set) var knownCrash: (report: CrashReport, skips: Set<Int>)?
  /// The length and CRC-32C of the bytes this process read, which every worker checks its file
  /// against (computed once, when the first worker starts).
  private lazy var readBytes: (length: Int, checksum: UInt32) = {
    let length = log.indexedLength
    return (length, log.checksum(ofFirst: length) ?? 0)
  }()
  /// How many child processes were started (for `shrink`'s report).
  package private(set) var workersStarted = 0
  /// How many requests were sent to a child.
  package private(set) var requestsSent = 0
  /// Whether the current child process is still running (it may have died rebuilding ahead).
  package var hasRunningWorker: Bool { worker?.isRunning == true }
  /// The current child's process identifier (tests stop it).
  package var workerProcessIdentifier: Int32? { worker?.processIdentifier }
  /// Whether the current child is rebuilding states ahead.
  package var workerIsRunningAhead: Bool { worker?.wasRunningAhead == true }
  /// Whether the current child sleeps until the next request.
  package var workerIsAsleep: Bool { worker?.isAsleep == true }

  /// A timeline over `log`, reduced in a child process.
  ///
  /// - Parameters:
  ///   - usesCheckpoints: Whether the child starts rebuilding from recorded checkpoints.
  ///   - reportsFrames: Whether a crash report gets the reducer's frames from the Swift
  ///     backtracer (a few tens of milliseconds per crash; `shrink`, which crashes on purpose
  ///     hundreds of times, goes without).
  ///   - runsAhead: Whether the child rebuilds states ahead of the last one asked for while it
  ///     waits: for a session, whose next request is most often the next position.
  package init(
    local: any ReplayTimeline, recovery: RecoveryMode, usesCheckpoints: Bool = true,
    reportsFrames: Bool = true, runsAhead: Bool = false
  ) {
    self.local = local
    self.log = local.log
    self.recovery = recovery
    self.usesCheckpoints = usesCheckpoints
    self.reportsFrames = reportsFrames
    self.runsAhead = runsAhead
  }

  /// The crash that rebuilding the state at `position` would meet again, if one is known.
  package func knownCrash(before position: Int) -> CrashReport? {
    guard let knownCrash, knownCrash.skips == skippedSeqs, let seq = knownCrash.report.seq,
      position >= seq
    else { return nil }
    return knownCrash.report
  }

  package func stateJSON(at position: Int) throws(ReplayError) -> JSONValue {
    guard log.positions.contains(position) else {
      throw .positionOutOfRange(position, valid: log.positions)
    }
    if let memo, memo.position == position, memo.skips == skippedSeqs {
      switch memo.state {
      case .value(let state): return state
      case .text(let text): return try Self.parsed(text)
      }
    }
    if needsNoReducer(position) { return try local.stateJSON(at: position) }
    if let report = knownCrash(before: position) { throw .reducerCrashed(report) }
    let text = try exchange(
      request(.state(at: position, aheadLimit: aheadLimit)), reading: WorkerReply.stateText(in:))
    let state = try Self.parsed(text)
    memo = (position, skippedSeqs, .value(state))
    return state
  }

  /// The tree of a state's text that the worker sent.
  private static func parsed(_ text: [UInt8]) throws(ReplayError) -> JSONValue {
    do { return try JSONParser.parse(text, limits: .unlimited) } catch {
      throw .encodingFailed(what: "worker reply", reason: error.description)
    }
  }

  /// The state at `position` rebuilt in this process (tests compare it with the worker's).
  package func localStateJSON(at position: Int) throws(ReplayError) -> JSONValue {
    try local.stateJSON(at: position)
  }

  /// Whether rebuilding the state at `position` is known not to trap: it lies in the stretch the
  /// worker rebuilt for the last request and ahead of it, with the same skipped actions.
  package func isProven(_ position: Int) -> Bool {
    guard let proven, let worker, proven.skips == skippedSeqs, position >= proven.start else {
      return false
    }
    return position <= worker.frontier
  }

  /// The position the state at `position` is rebuilt from: the last checkpoint before it and
  /// before the first skipped action, else the header's state (as ``Timeline`` does).
  private func rebuildStart(for position: Int) -> Int {
    let firstSkip = skippedSeqs.min() ?? Int.max
    guard usesCheckpoints,
      let checkpoint = log.checkpointSeq(atOrBefore: min(position, firstSkip - 1))
    else { return log.positions.lowerBound }
    return checkpoint
  }

  /// Whether the state at `position` is read from the log without running the reducer: the
  /// header's, or a recorded checkpoint's with no skipped action before it. It is decoded in this
  /// process (the app's `init(from:)`, not its reducer), and no worker is started for it.
  package func needsNoReducer(_ position: Int) -> Bool {
    if position == log.positions.lowerBound { return true }
    guard usesCheckpoints, skippedSeqs.allSatisfy({ $0 > position }) else { return false }
    return log.checkpointSeq(atOrBefore: position) == position
  }

  /// Has the worker rebuild the state at `position` without sending it: one round trip, no
  /// encoding, no parsing.
  package func reach(_ position: Int) throws(ReplayError) {
    guard log.positions.contains(position) else {
      throw .positionOutOfRange(position, valid: log.positions)
    }
    if let memo, memo.position == position, memo.skips == skippedSeqs { return }
    if needsNoReducer(position) { return try local.reach(position) }
    if let report = knownCrash(before: position) { throw .reducerCrashed(report) }
    if isProven(position) { return }
    try exchange(request(.reach(at: position, aheadLimit: aheadLimit)), reading: Self.done(in:))
  }

  /// The state as text: encoded straight to bytes in this process where no reducer runs (the
  /// header's state, a checkpoint), else the worker's reply written out.
  package func stateJSONText(at position: Int) throws(ReplayError) -> [UInt8] {
    guard log.positions.contains(position) else {
      throw .positionOutOfRange(position, valid: log.positions)
    }
    if let memo, memo.position == position, memo.skips == skippedSeqs {
      switch memo.state {
      case .value(let state): return state.serializedBytes
      case .text(let text): return text
      }
    }
    if needsNoReducer(position) { return try local.stateJSONText(at: position) }
    if let report = knownCrash(before: position) { throw .reducerCrashed(report) }
    // The worker's text, cut out of its checked reply: never built as a tree here.
    let text = try exchange(
      request(.state(at: position, aheadLimit: aheadLimit)), reading: WorkerReply.stateText(in:))
    memo = (position, skippedSeqs, .text(text))
    return text
  }

  package func stateJSONText(runningOnly seqs: [Int]) throws(ReplayError) -> [UInt8] {
    try exchange(WorkerRequest(.run(seqs: seqs)), reading: WorkerReply.stateText(in:))
  }

  package func statesEqual(_ a: Int, _ b: Int) throws(ReplayError) -> Bool {
    if let report = knownCrash(before: max(a, b)) { throw .reducerCrashed(report) }
    return try exchange(request(.equal(a: a, b: b))) { (line) throws(ReplayError) -> Bool in
      guard case .equal(let equal) = try Self.reply(in: line) else {
        throw Self.unexpected("equal")
      }
      return equal
    }
  }

  /// Every action of `seqs` decoded in the worker: one request for the range.
  package func checkActions(_ seqs: ClosedRange<Int>) throws(ReplayError) {
    try exchange(
      WorkerRequest(.check(from: seqs.lowerBound, through: seqs.upperBound)),
      reading: Self.done(in:))
  }

  /// ``Verifier``'s walk, whole in the worker: one request.
  package func verifyWalk() throws(ReplayError) -> VerifyWalk {
    if let report = knownCrash(before: log.positions.upperBound) {
      throw .reducerCrashed(report)
    }
    return try exchange(request(.verify)) { (line) throws(ReplayError) -> VerifyWalk in
      guard case .verified(let walk) = try Self.reply(in: line) else {
        throw Self.unexpected("verify")
      }
      return walk
    }
  }

  /// The changes of the value at `path`, whole in the worker: one request.
  package func valueHistory(
    of path: JSONPath, from first: Int, through last: Int, limit: Int?
  ) throws(ReplayError) -> ValueHistory {
    if let report = knownCrash(before: last) { throw .reducerCrashed(report) }
    let asked = request(
      .history(path: path.sessionText, from: first, through: last, limit: limit))
    return try exchange(asked) { (line) throws(ReplayError) -> ValueHistory in
      guard case .history(let history) = try Self.reply(in: line) else {
        throw Self.unexpected("history")
      }
      return history
    }
  }

  /// What each action cost the reducer, timed whole in the worker: one request.
  package func actionProfile(through last: Int, passes: Int, top: Int, type: String?)
    throws(ReplayError) -> ActionProfile
  {
    if let report = knownCrash(before: last) { throw .reducerCrashed(report) }
    let asked = request(.profile(through: last, passes: passes, top: top, type: type))
    return try exchange(asked) { (line) throws(ReplayError) -> ActionProfile in
      guard case .profiled(let profile) = try Self.reply(in: line) else {
        throw Self.unexpected("profile")
      }
      return profile
    }
  }

  /// Where having a match changes, found whole in the worker: one request, one position back.
  package func presenceChange(
    of query: StateQuery, from position: Int, direction: TimelineSearch.Direction,
    isPresent: Bool
  ) throws(ReplayError) -> Int? {
    let last = direction == .forward ? log.positions.upperBound : position
    if knownCrash(before: last) != nil {
      // A batch at a time here: a change before the crash is still found, and the crash is
      // thrown where the walk reaches it.
      return try presenceChangeInProcess(
        of: query, from: position, direction: direction, isPresent: isPresent)
    }
    let asked = request(
      .search(
        query: query, from: position, backward: direction == .backward, present: isPresent))
    return try exchange(asked) { (line) throws(ReplayError) -> Int? in
      guard case .found(let found) = try Self.reply(in: line) else {
        throw Self.unexpected("search")
      }
      return found
    }
  }

  /// The states a batch at a time (``stateJSONTexts(from:through:maxBytes:)``: one request of
  /// the worker each, the next asked for as one arrives).
  package func forEachStateText(
    from first: Int, through last: Int, _ body: (Int, [UInt8]) throws(ReplayError) -> Bool
  ) throws(ReplayError) {
    var next = first
    while next <= last {
      let texts = try stateJSONTexts(from: next, through: last, maxBytes: 4 << 20)
      for (offset, text) in texts.enumerated() {
        guard try body(next + offset, text) else { return }
      }
      next += texts.count
    }
  }

  /// The states in one request to the worker (``WorkerRequest/Operation/states(from:through:maxBytes:)``);
  /// past a known crash, one at a time here (the first past it throws the crash).
  package func stateJSONTexts(
    from first: Int, through last: Int, maxBytes: Int
  ) throws(ReplayError) -> [[UInt8]] {
    guard log.positions.contains(first), log.positions.contains(last), first <= last else {
      throw .positionOutOfRange(
        log.positions.contains(first) ? last : first, valid: log.positions)
    }
    if knownCrash(before: last) != nil {
      // One at a time: the first past the crash throws it, at once.
      var texts: [[UInt8]] = []
      var size = 0
      for position in first...last where texts.isEmpty || size < maxBytes {
        let text = try stateJSONText(at: position)
        guard text.withUnsafeBytes({ JSONParser.firstError(in: $0, limits: .unlimited) }) == nil
        else {
          throw .encodingFailed(what: "state at position \(position)", reason: "it is not JSON")
        }
        size += text.count
        texts.append(text)
      }
      return texts
    }
    let asked = request(.states(from: first, through: last, maxBytes: maxBytes))
    let texts: [[UInt8]]
    if let prefetched, prefetched == asked, let worker {
      // Asked for ahead, with the last batch: the worker has been rebuilding it since.
      self.prefetched = nil
      texts = try answer(
        worker.receive(progress: progress), from: worker, to: asked,
        reading: WorkerReply.stateTexts(in:))
    } else {
      texts = try exchange(asked, reading: WorkerReply.stateTexts(in:))
    }
    // The next batch is asked for now: the worker rebuilds it while this process uses these (a
    // walk's next request is most often that one; any other first waits for it and drops it).
    let next = first + texts.count
    if !runsAhead, next <= last, let worker {
      let ahead = request(.states(from: next, through: last, maxBytes: maxBytes))
      if worker.send(ahead.line) == nil {
        prefetched = ahead
        requestsSent += 1
      } else {
        self.worker = nil
      }
    }
    return texts
  }

  /// A batch of states asked for ahead of a walk (``stateJSONTexts(from:through:maxBytes:)``),
  /// whose reply has not been read.
  private var prefetched: WorkerRequest?

  /// Asks for the batch of states that a walk's first ``stateJSONTexts(from:through:maxBytes:)``
  /// will ask for with the same arguments, without waiting for it: the worker (started now
  /// when there is none) opens the log and rebuilds the batch while this process does other
  /// work — an export reading its actions. A walk that asks for something else first drops it;
  /// a worker that cannot start says so when the walk asks.
  package func askAhead(statesFrom first: Int, through last: Int, maxBytes: Int) {
    guard !runsAhead, log.positions.contains(first), log.positions.contains(last), first <= last,
      knownCrash(before: last) == nil
    else { return }
    settlePrefetched()
    guard let worker = try? startedWorker() else { return }
    let ahead = request(.states(from: first, through: last, maxBytes: maxBytes))
    if worker.send(ahead.line) == nil {
      prefetched = ahead
      requestsSent += 1
    } else {
      self.worker = nil
    }
  }

  /// Reads and drops the reply to a batch asked for ahead and not wanted after all, so that the
  /// next reply read is the next request's; a crash met building it is remembered.
  private func settlePrefetched() {
    guard let asked = prefetched else { return }
    prefetched = nil
    guard let worker else { return }
    switch worker.receive(progress: nil) {
    case .reply: return
    case .stuckAhead: self.worker = nil
    case .died(let signal, let stderr):
      self.worker = nil
      let report = CrashReport(
        workerStandardError: stderr, signal: signal,
        relativeTo: FileManager.default.currentDirectoryPath)
      if report.seq != nil { knownCrash = (report, Set(asked.skips)) }
    }
  }

  package func setSkipped(_ seq: Int, _ isSkipped: Bool) {
    if isSkipped { skippedSeqs.insert(seq) } else { skippedSeqs.remove(seq) }
    local.setSkipped(seq, isSkipped)
  }

  /// A request with the skipped actions of now, saying whether to report progress.
  private func request(_ operation: WorkerRequest.Operation) -> WorkerRequest {
    WorkerRequest(operation, skips: skippedSeqs, progress: progress != nil)
  }

  /// The last position a worker may rebuild ahead to, with the skipped actions of now: before a
  /// known crash, or a rebuild ahead that hung; `nil` when there is no such bound (or the worker
  /// does not rebuild ahead).
  private var aheadLimit: Int? {
    guard runsAhead else { return nil }
    var limit: Int?
    if let knownCrash, knownCrash.skips == skippedSeqs, let seq = knownCrash.report.seq {
      limit = seq - 1
    }
    if let stuckAhead, stuckAhead.skips == skippedSeqs {
      limit = min(limit ?? Int.max, stuckAhead.position - 1)
    }
    return limit
  }

  /// Sends `request` to the worker (started when there is none) and returns its reply as `read`
  /// takes it from the reply's line. A worker that hung rebuilding ahead, or died, is replaced and
  /// the request sent again, unless the crash is the answer.
  @discardableResult
  private func exchange<Answer>(
    _ request: WorkerRequest,
    reading read: (ArraySlice<UInt8>) throws(ReplayError) -> Answer
  ) throws(ReplayError) -> Answer {
    settlePrefetched()
    proven = nil
    let worker = try startedWorker()
    requestsSent += 1
    return try answer(
      worker.exchange(request.line, progress: progress), from: worker, to: request, reading: read)
  }

  /// The worker, started when there is none.
  private func startedWorker() throws(ReplayError) -> WorkerProcess {
    if let worker { return worker }
    do {
      let started = try WorkerProcess(
        log: log.path, recovery: recovery, usesCheckpoints: usesCheckpoints,
        reportsFrames: reportsFrames, expected: readBytes, linesChecked: log.faults.isEmpty,
        runsAhead: runsAhead)
      worker = started
      workersStarted += 1
      // While the worker opens the log: this process's first use of the protocol's types.
      _ = WorkerProtocol.warmedUp
      return started
    } catch {
      let why = (error as? WorkerError)?.description ?? error.localizedDescription
      throw .cannotOpen(
        path: log.path,
        reason: "cannot start a replay worker process (\(why)); run with --no-isolate to replay "
          + "in this process")
    }
  }

  /// What `worker` answered to `request` (its `outcome`), as `read` takes it from the reply's
  /// line. A worker that hung rebuilding ahead, or died, is replaced and the request sent again,
  /// unless the crash is the answer.
  private func answer<Answer>(
    _ outcome: WorkerProcess.Outcome, from worker: WorkerProcess, to request: WorkerRequest,
    reading read: (ArraySlice<UInt8>) throws(ReplayError) -> Answer
  ) throws(ReplayError) -> Answer {
    let reaching = request.reaching
    switch outcome {
    case .reply(let line):
      let answer = try read(line)
      if runsAhead, let reaching {
        proven = (rebuildStart(for: reaching), skippedSeqs)
        aheadSkips = skippedSeqs
      }
      return answer
    case .stuckAhead(let position):
      // It hung rebuilding ahead and has been ended: the next worker stops before that point.
      self.worker = nil
      stuckAhead = (position, aheadSkips)
      return try exchange(request.limitingAhead(to: aheadLimit), reading: read)
    case .died(let signal, let stderr):
      let diedAhead = worker.wasRunningAhead
      self.worker = nil
      let report = CrashReport(
        workerStandardError: stderr, signal: signal,
        relativeTo: FileManager.default.currentDirectoryPath)
      if report.seq == nil, signal.hasPrefix("exit status") {
        // It ended without a signal, before any action: it could not open the log or find the
        // app (a replay binary that is not a worker, a log changed or removed since).
        let said = stderr.split(separator: "\n").last.map { ": \($0)" } ?? ""
        throw .cannotOpen(
          path: log.path,
          reason: "the replay worker process ended (\(signal)) before answering\(said); run "
            + "with --no-isolate to replay in this process")
      }
      if diedAhead {
        // It died rebuilding ahead of the last request, before it read this one: a crash is
        // known for the next time; this request goes to a new worker.
        if report.seq != nil { knownCrash = (report, aheadSkips) }
        if let reaching, let known = knownCrash(before: reaching) { throw .reducerCrashed(known) }
        return try exchange(request.limitingAhead(to: aheadLimit), reading: read)
      }
      if report.seq != nil { knownCrash = (report, skippedSeqs) }
      throw .reducerCrashed(report)
    }
  }
}

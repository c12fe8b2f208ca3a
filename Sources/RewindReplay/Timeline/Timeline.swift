import Foundation
import Rewind
import RewindJSON

/// Every state of a recorded session, rebuilt on demand by running the log's actions through the
/// app's own reducer.
///
/// Position `firstSeq - 1` is the state from the header (0 for an unrotated log); position `n` is
/// the state after the action with seq `n`. States are rebuilt from the nearest cached state or
/// recorded checkpoint at or before the position asked for, and every `stride`-th state on the
/// way is cached, within a memory budget.
///
/// - Complexity: ``state(at:)`` one position after the last one asked for: one reduction.
///   Any other position: at most `stride` reductions (default 64, doubled each time the cache
///   budget is reached) from a cached state, or from the log's nearest checkpoint; stepping
///   backward through a range costs about one forward pass over it, because the states of the
///   last rebuilt stretch are kept.
public final class Timeline<State: Codable & Sendable, Action: Codable & Sendable> {
  /// The log being replayed.
  public let log: ReplayLog
  /// The app's reducer (``reductionTimes(through:passes:)`` times it).
  let reducer: Reducer<State, Action>
  private let decoder = RewindJSONDecoder()
  /// Decodes actions and checkpoints straight from the log's bytes (the fast path).
  let lines: LineDecoder
  /// `Action`'s and `State`'s own decoding (``JSONDirectDecodable``), with Rewind's coder.
  let directAction: JSONDirectCoding.Decode<Action>?
  private let directState: JSONDirectCoding.Decode<State>?
  /// The state type's own encoding (``JSONDirectEncodable``), with Rewind's coder: the same
  /// bytes as its `encode(to:)`, written without `Codable`'s containers.
  package let directStateEncoder: JSONDirectCoding.Encoder<State>?
  /// Where a decoded action is handed over (empty between steps): a return value of the generic
  /// `Action?` would cost a metadata lookup per step (see ``LineDecoder``).
  let actionSlot = UnsafeMutablePointer<Action>.allocate(capacity: 1)
  /// The JSON coder that decodes the log's actions and checkpoints.
  public var coder: LogCoder { lines.coder }
  private var cache: StateCache<State>
  private var cursor: (position: Int, state: State)?
  private var recent: (start: Int, states: [State])?
  private var initial: State?
  private let usesCheckpoints: Bool
  /// Whether the budget holds a state besides the one asked for. When it does not (the log's
  /// largest checkpoint, decoded, is estimated over the budget), nothing is cached — not the
  /// header's state, not a stretch — and a rebuild from a checkpoint lets go of the state it
  /// replaces before decoding the checkpoint's: at most two states at once, not six.
  private let keepsStates: Bool
  /// The most states of a rebuilt stretch kept for stepping back through it.
  private let stretchLimit: Int
  /// How far from the last state cached the cache keeps others while no action is skipped
  /// (``StateCache``): twice the longest stretch between two checkpoints of a log that has them,
  /// so that a walk back keeps the stretch it is in and the one before; farther, the checkpoints
  /// serve as well. Without checkpoints (or with a skip, which rebuilds from before it), `Int.max`.
  private let cacheWindow: Int
  /// Called during long rebuilds with the positions done and to do (every 4,096 reductions),
  /// and once with `(total, total)` at the end, so a front end can show progress.
  public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  /// Seqs the user chose to replay as if they had not happened (`skip N`).
  public private(set) var skippedSeqs: Set<Int> = []
  /// Rebuilds of at least this many actions decode on a second thread too
  /// (``ActionPrefetcher``): long rebuilds, and the walk back across a checkpoint (up to one
  /// checkpoint interval of actions). `Int.max` (the default on a single core) turns that off.
  package var prefetchThreshold =
    ProcessInfo.processInfo.activeProcessorCount > 1 ? 512 : Int.max
  /// The most seqs in one of the prefetcher's batches; a rebuild cuts its seqs into at least 8
  /// batches (of at least 64 seqs), so that both threads have a share of a short one.
  package var prefetchBatchSize = 1_024

  /// Creates a timeline over `log` for `reducer`.
  ///
  /// - Parameters:
  ///   - stride: Keep every `stride`-th state (a step back costs at most this many reductions).
  ///   - memoryBudget: About how many bytes of cached states to keep; past it the cache thins
  ///     out. At most half the log's size is used (but at least 32 MiB): the log itself is in
  ///     memory too, so stepping through a whole log stays within about twice its size, whatever
  ///     the size of the state. A state estimated larger than the budget by itself (four times
  ///     the log's last checkpoint) is never cached: each position is rebuilt from the nearest
  ///     checkpoint (or the header) when asked for. A log with checkpoints keeps cached states
  ///     only within two checkpoint intervals of the last one cached (``cacheWindow``): beyond,
  ///     a checkpoint is as good a starting point, so stepping through such a log holds a few
  ///     dozen states, not the budget's worth.
  ///   - usesCheckpoints: Start from the log's recorded checkpoints (`true`, fast), or rebuild
  ///     every state from the header through the reducer (`false`, what `verify` needs).
  ///   - coder: The JSON coder for the actions and checkpoints: Rewind's (the default, fast) or
  ///     Foundation's `JSONDecoder`, to compare against. Errors are Rewind's either way: a line
  ///     that does not decode is decoded again the exact way, for the message.
  public init(
    log: ReplayLog, reducer: Reducer<State, Action>, stride: Int = 64,
    memoryBudget: Int = 256 << 20, usesCheckpoints: Bool = true, coder: LogCoder = .rewind
  ) {
    self.log = log
    self.reducer = reducer
    self.usesCheckpoints = usesCheckpoints
    self.lines = LineDecoder(coder: coder, limits: log.limits.json)
    directAction = coder == .rewind ? JSONDirectCoding.decoder(for: Action.self) : nil
    directState = coder == .rewind ? JSONDirectCoding.decoder(for: State.self) : nil
    directStateEncoder = coder == .rewind ? JSONDirectCoding.encoder(for: State.self) : nil
    let stateBytes = max(256, Self.estimatedStateBytes(log) * 4)
    let budget = min(memoryBudget, max(log.byteCount / 2, 32 << 20))
    keepsStates = budget >= stateBytes
    cacheWindow = usesCheckpoints ? Self.cacheWindow(log, stride: stride) : Int.max
    cache = StateCache(
      stride: stride, capacity: keepsStates ? budget / stateBytes : 0, window: cacheWindow)
    // The states of the last rebuilt stretch count against the budget too: at most a quarter.
    stretchLimit = keepsStates ? max(8, budget / 4 / stateBytes) : 0
  }

  deinit {
    actionSlot.deallocate()
  }

  /// Every position, from the header's state to the state after the last action.
  public var positions: ClosedRange<Int> { log.positions }

  /// The state at `position`.
  ///
  /// - Throws: `ReplayError.positionOutOfRange`; `.actionDecodingFailed` or
  ///   `.stateDecodingFailed` when the log no longer decodes with the app's types; `.fault` for
  ///   a line that turns out invalid when decoded.
  /// - Complexity: See ``Timeline``.
  public func state(at position: Int) throws(ReplayError) -> State {
    guard positions.contains(position) else {
      throw .positionOutOfRange(position, valid: positions)
    }
    if let cursor, cursor.position == position { return cursor.state }
    if let recent, position >= recent.start, position < recent.start + recent.states.count {
      let state = recent.states[position - recent.start]
      cursor = (position, state)
      return state
    }
    let (start, known) = try startingPoint(for: position)
    let total = position - start
    // Started before the checkpoint's state is decoded, so that the helper decodes the first
    // actions meanwhile.
    let prefetcher = position > start ? self.prefetcher(for: start + 1...position) : nil
    defer { prefetcher?.cancel() }
    var state: State
    if let known {
      state = known
    } else {
      if !keepsStates {
        cursor = nil
        recent = nil
      }
      state = try checkpointState(start)
      cache.insert(state, at: start)
    }
    let keepsStretch =
      position > start && position - start <= min(4 * min(cache.stride, 1 << 40), stretchLimit)
    var stretch: [State] = []
    if keepsStretch {
      stretch.reserveCapacity(position - start + 1)
      stretch.append(state)
    }
    var seq = start
    let reportsProgress = progress != nil && total > 4096
    let marks = StepMarker.claim()
    defer { if marks { StepMarker.release() } }
    while seq < position {
      seq += 1
      try advance(seq, &state, prefetcher: prefetcher, marks: marks)
      if cache.wants(seq) { cache.insert(state, at: seq) }
      if keepsStretch { stretch.append(state) }
      if reportsProgress, (seq - start) & 4095 == 0 { progress?(seq - start, total) }
    }
    if reportsProgress { progress?(total, total) }
    if keepsStretch { recent = (start, stretch) }
    cursor = (position, state)
    return state
  }

  /// A helper thread that decodes the actions `seqs` ahead of a rebuild that applies them in
  /// turn, when there are enough of them to pay for it (``prefetchThreshold``); `nil` otherwise.
  func prefetcher(for seqs: ClosedRange<Int>) -> ActionPrefetcher<Action>? {
    guard seqs.count >= prefetchThreshold else { return nil }
    return ActionPrefetcher<Action>(
      log: log, coder: coder, direct: directAction, seqs: seqs,
      batchSize: min(prefetchBatchSize, max(64, seqs.count / 8)), callerDecoder: lines)
  }

  /// Calls `body` with each state from `first` through `last` in turn, each rebuilt by applying
  /// one action to the one before, with no copy of it kept between them (a walk of the log, as
  /// `history` makes: ``state(at:)`` keeps each state it returns, so the next action copies
  /// it). `body` returns `false` to stop; the cursor is left at the last state it saw.
  ///
  /// - Throws: What ``state(at:)`` throws, or `body`'s error.
  public func forEachState(
    from first: Int, through last: Int, _ body: (Int, State) throws(ReplayError) -> Bool
  ) throws(ReplayError) {
    var state = try self.state(at: first)
    guard try body(first, state), first < last else { return }
    // The walk's state is the only one the next action changes.
    cursor = nil
    recent = nil
    let total = last - first
    let prefetcher = self.prefetcher(for: first + 1...last)
    defer { prefetcher?.cancel() }
    let reportsProgress = progress != nil && total > 4096
    let marks = StepMarker.claim()
    defer { if marks { StepMarker.release() } }
    var seq = first
    while seq < last {
      seq += 1
      try advance(seq, &state, prefetcher: prefetcher, marks: marks)
      if cache.wants(seq) { cache.insert(state, at: seq) }
      if reportsProgress, (seq - first) & 4095 == 0 { progress?(seq - first, total) }
      guard try body(seq, state) else { break }
    }
    if reportsProgress { progress?(total, total) }
    cursor = (seq, state)
  }

  /// The action with `seq`, decoded with the app's `Action` type; `nil` when it was not
  /// recorded (a `skipped` line, or a seq skipped by `--recovery salvage`).
  /// - Throws: `ReplayError.actionDecodingFailed` naming the line, type and coding path.
  public func action(at seq: Int) throws(ReplayError) -> Action? {
    if lines.action(Action.self, seq: seq, in: log, direct: directAction, into: actionSlot) != nil {
      return actionSlot.move()
    }
    try throwLastFailure(seq: seq)
    let record = try log.action(at: seq)
    guard let payload = record.payload else { return nil }
    return try decodeAction(payload, record: record)
  }

  /// Throws the error the line decoder met decoding the action `seq` from its line, if it met
  /// one: the line need not be parsed again for it.
  func throwLastFailure(seq: Int) throws(ReplayError) {
    guard let failure = lines.lastFailure else { return }
    let (codingPath, reason) = DecodeFailureText.describe(
      failure.error, onlyKey: failure.onlyKey, as: Action.self)
    throw .actionDecodingFailed(
      path: log.path, line: failure.line, seq: seq, type: failure.type ?? "?",
      codingPath: codingPath, reason: reason)
  }

  func decodeAction(
    _ payload: JSONValue, record: RecordedAction
  ) throws(ReplayError) -> Action {
    do {
      return try decoder.decode(Action.self, from: payload)
    } catch {
      let (codingPath, reason) = DecodeFailureText.describe(
        error, decoding: payload, as: Action.self)
      throw .actionDecodingFailed(
        path: log.path, line: record.line, seq: record.seq, type: record.type ?? "?",
        codingPath: codingPath, reason: reason)
    }
  }

  /// The state after applying only the actions `seqs`, in that order, to the header's state —
  /// what `replay shrink` asks for each candidate subsequence.
  /// - Throws: As ``state(at:)``.
  /// - Complexity: One reduction per seq.
  public func state(applying seqs: [Int]) throws(ReplayError) -> State {
    var state = try initialState()
    let marks = StepMarker.claim()
    defer { if marks { StepMarker.release() } }
    for seq in seqs {
      guard log.entry(seq: seq) != nil else {
        throw .positionOutOfRange(seq, valid: positions)
      }
      try apply(seq, to: &state, honoringSkips: false, marks: marks)
    }
    return state
  }

  /// Replays as if the action `seq` had (`true`) or had not (`false`) been skipped; every
  /// later state is recomputed.
  public func setSkipped(_ seq: Int, _ isSkipped: Bool) {
    let changed = isSkipped ? skippedSeqs.insert(seq).inserted : skippedSeqs.remove(seq) != nil
    guard changed else { return }
    cache.removeAll(after: seq - 1)
    cache.window = skippedSeqs.isEmpty ? cacheWindow : Int.max
    if let cursor, cursor.position >= seq { self.cursor = nil }
    recent = nil
  }

  // MARK: Rebuilding

  /// Where a rebuild to `position` starts: a position and its state, or (state `nil`) a recorded
  /// checkpoint whose state the caller decodes.
  private func startingPoint(for position: Int) throws(ReplayError) -> (Int, State?) {
    var best = cache.nearest(atOrBefore: position)
    if let cursor, cursor.position < position, cursor.position > best?.0 ?? Int.min {
      best = cursor
    }
    // The last checkpoint before the first skipped action, so that the state at a position is
    // always rebuilt from the same checkpoint, whatever is cached: a crash-isolated timeline
    // relies on that (IsolatedTimeline's proven stretch).
    let firstSkip = skippedSeqs.min() ?? Int.max
    if usesCheckpoints,
      let checkpoint = log.checkpointSeq(atOrBefore: min(position, firstSkip - 1)),
      checkpoint > best?.0 ?? positions.lowerBound
    {
      return (checkpoint, nil)
    }
    if let best { return best }
    // The header's state, decoded only when no later state serves: a large one is not decoded
    // for a position a checkpoint reaches. (The cursor serves no more: let go of it first when
    // no state besides the one asked for is kept.)
    if !keepsStates {
      cursor = nil
      recent = nil
    }
    let initial = (positions.lowerBound, try initialState())
    cache.insert(initial.1, at: initial.0)
    return initial
  }

  /// Applies the action `seq` to `state` as a rebuild does: decoded ahead by `prefetcher` when it
  /// has it, else here (``apply(_:to:honoringSkips:marks:)``).
  private func advance(
    _ seq: Int, _ state: inout State, prefetcher: ActionPrefetcher<Action>?, marks: Bool
  ) throws(ReplayError) {
    if let prefetcher, skippedSeqs.isEmpty || !skippedSeqs.contains(seq),
      let line = prefetcher.take(seq, into: actionSlot)
    {
      if marks { StepMarker.willApply(seq: seq, type: line.type.string, line: line.line) }
      reducer.reduce(&state, actionSlot.move())
    } else {
      try apply(seq, to: &state, marks: marks)
    }
  }

  /// Applies the action `seq` to `state`; `marks`: this thread holds the ``StepMarker``.
  private func apply(
    _ seq: Int, to state: inout State, honoringSkips: Bool = true, marks: Bool
  ) throws(ReplayError) {
    if honoringSkips && !skippedSeqs.isEmpty && skippedSeqs.contains(seq) { return }
    // Straight from the line's bytes; anything unusual goes the full way below, which gives the
    // same value or the exact error.
    if let line = lines.action(
      Action.self, seq: seq, in: log, direct: directAction, into: actionSlot)
    {
      if marks { StepMarker.willApply(seq: seq, type: line.type.string, line: line.line) }
      reducer.reduce(&state, actionSlot.move())
      return
    }
    try throwLastFailure(seq: seq)
    let record = try log.action(at: seq)
    guard record.status == .recorded, let payload = record.payload else { return }
    let action = try decodeAction(payload, record: record)
    if marks { StepMarker.willApply(seq: seq, type: record.type, line: record.line) }
    reducer.reduce(&state, action)
  }

  private func initialState() throws(ReplayError) -> State {
    if let initial { return initial }
    let state = try decodedInitialState()
    if keepsStates { initial = state }
    return state
  }

  /// The header's state, decoded now (a value no one else holds: its first change copies
  /// nothing).
  func decodedInitialState() throws(ReplayError) -> State {
    if log.isInitialStateMissing { throw log.initialStateError }
    if let decoded = log.header.withStateText({
      lines.state(State.self, text: $0, direct: directState)
    }), let state = decoded {
      return state
    }
    return try decodeState(
      log.header.state, line: log.headerStateLine, what: "header's initial state")
  }

  private func checkpointState(_ seq: Int) throws(ReplayError) -> State {
    if let state = lines.checkpointState(State.self, seq: seq, in: log, direct: directState) {
      return state
    }
    guard let json = try log.checkpointState(at: seq) else {
      throw .positionOutOfRange(seq, valid: positions)
    }
    return try decodeState(
      json, line: log.checkpointLine(at: seq) ?? 0, what: "checkpoint at seq \(seq)")
  }

  private func decodeState(_ json: JSONValue, line: Int, what: String) throws(ReplayError) -> State
  {
    do {
      return try decoder.decode(State.self, from: json)
    } catch {
      let (codingPath, reason) = DecodeFailureText.describe(error, decoding: json, as: State.self)
      throw .stateDecodingFailed(
        path: log.path, line: line, what: what, codingPath: codingPath, reason: reason)
    }
  }

  /// Twice the longest stretch of positions with no checkpoint in it (from the header's, or a
  /// checkpoint, to the next or to the end), at least four strides; `Int.max` for a log with
  /// no checkpoint.
  private static func cacheWindow(_ log: ReplayLog, stride: Int) -> Int {
    guard !log.checkpointSeqs.isEmpty else { return Int.max }
    var longest = 0
    var previous = log.positions.lowerBound
    for seq in log.checkpointSeqs + [log.positions.upperBound] {
      longest = max(longest, seq - previous)
      previous = seq
    }
    return max(2 * longest, 4 * min(max(1, stride), 1 << 40))
  }

  private static func estimatedStateBytes(_ log: ReplayLog) -> Int {
    max(log.recordedStateByteCount, 64)
  }
}

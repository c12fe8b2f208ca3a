import Rewind
import RewindJSON

/// A timeline seen through JSON: what the command line needs from a ``Timeline`` without knowing
/// the app's `State` and `Action` types.
public protocol ReplayTimeline: AnyObject {
  /// The log being replayed.
  var log: ReplayLog { get }
  /// Seqs replayed as if they had not happened.
  var skippedSeqs: Set<Int> { get }
  /// The state at `position`, encoded as JSON.
  /// - Throws: See ``Timeline/state(at:)``; `.encodingFailed` when the state does not encode.
  func stateJSON(at position: Int) throws(ReplayError) -> JSONValue
  /// The state at `position` as compact JSON text: the bytes of ``stateJSON(at:)``'s value
  /// written out, encoded straight to text where the timeline can (a replay worker sends it).
  /// - Throws: See ``stateJSON(at:)``.
  func stateJSONText(at position: Int) throws(ReplayError) -> [UInt8]
  /// Rebuilds the state at `position` without encoding it: a debugger's cursor moving there,
  /// which shows the state only when asked.
  /// - Throws: See ``stateJSON(at:)``.
  func reach(_ position: Int) throws(ReplayError)
  /// The state after applying only the actions `seqs` to the header's state, as compact JSON
  /// text.
  /// - Throws: See ``Timeline/state(applying:)``.
  func stateJSONText(runningOnly seqs: [Int]) throws(ReplayError) -> [UInt8]
  /// Whether the states at `a` and `b` are equal (compares encodings when `State` is not
  /// `Equatable`).
  func statesEqual(_ a: Int, _ b: Int) throws(ReplayError) -> Bool
  /// Decodes every action of `seqs` with the app's type (to check that they still decode),
  /// throwing for the first that does not: one request for a range, in a worker.
  func checkActions(_ seqs: ClosedRange<Int>) throws(ReplayError)
  /// See ``Timeline/setSkipped(_:_:)``.
  func setSkipped(_ seq: Int, _ isSkipped: Bool)
  /// See ``Timeline/progress``.
  var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? { get set }
  /// ``Verifier``'s walk of the whole log — every action decoded, every checkpoint rebuilt and
  /// compared — done whole where the reducer runs: a timeline in a worker process sends one
  /// request, not one per action.
  /// - Throws: See ``Verifier/verify(_:)``.
  func verifyWalk() throws(ReplayError) -> VerifyWalk
  /// Calls `body` with the compact JSON text of each state from `first` through `last` in turn
  /// (``stateJSONText(at:)``'s), until it returns `false`: a walk that rebuilds each state
  /// from the one before where the timeline can.
  /// - Throws: What rebuilding a state throws.
  func forEachStateText(
    from first: Int, through last: Int, _ body: (Int, [UInt8]) throws(ReplayError) -> Bool
  ) throws(ReplayError)
  /// Where having a match for `query` changes, going `direction` from `position`
  /// (``presenceChangeInProcess(of:from:direction:isPresent:)``), done whole where the reducer
  /// runs: a timeline in a worker process sends one request and gets one position back.
  /// - Throws: What rebuilding a state throws.
  func presenceChange(
    of query: StateQuery, from position: Int, direction: TimelineSearch.Direction,
    isPresent: Bool
  ) throws(ReplayError) -> Int?
  /// The compact JSON text of the value at `path` in the state at `position`, or `nil` where the
  /// path leads nowhere: as ``JSONPath/text(inText:)`` finds it in ``stateJSONText(at:)``, but
  /// where the timeline can, found by encoding only what lies on the path.
  /// - Throws: What rebuilding the state throws.
  func valueText(at position: Int, path: JSONPath) throws(ReplayError) -> [UInt8]?
  /// Every change of the value at `path` from position `first` through `last`, in one pass,
  /// done whole where the reducer runs (``ValueHistory/walk(_:of:from:through:limit:)``): a
  /// timeline in a worker process sends one request.
  /// - Throws: What rebuilding a state throws.
  func valueHistory(of path: JSONPath, from first: Int, through last: Int, limit: Int?)
    throws(ReplayError) -> ValueHistory
  /// The states at `first`, `first + 1`, … up to `last` as compact JSON text
  /// (``stateJSONText(at:)``'s), each checked to be one JSON value, in one piece of work: at
  /// least the first, and no more once their texts reach `maxBytes` together. A timeline in a worker process sends them in one
  /// reply: a walk over every state (the exports) costs one round trip per batch, not per state.
  /// - Throws: See ``stateJSONText(at:)``: the first state that cannot be rebuilt ends the
  ///   batch with its error, the states before it lost (ask again one at a time to keep them);
  ///   `.encodingFailed` for a text that is not one JSON value (a hand-built `JSONValue` in the
  ///   state holding a number that is no JSON literal).
  func stateJSONTexts(from first: Int, through last: Int, maxBytes: Int) throws(ReplayError)
    -> [[UInt8]]
  /// What each action from the first through `last` cost the reducer, replayed `passes` times
  /// from the initial state (``Timeline/reductionTimes(through:passes:)``), with the `top`
  /// slowest actions, of `type` alone when given: timed where the reducer runs, so a timeline
  /// in a worker process sends one request and gets the profile back.
  /// - Throws: What rebuilding the states throws; `.reducerCrashed` from a worker whose reducer
  ///   trapped.
  func actionProfile(through last: Int, passes: Int, top: Int, type: String?)
    throws(ReplayError) -> ActionProfile
}

extension ReplayTimeline {
  /// ``Verifier/walk(_:)`` in this process.
  public func verifyWalk() throws(ReplayError) -> VerifyWalk { try Verifier.walk(self) }

  /// ``presenceChangeInProcess(of:from:direction:isPresent:)``.
  public func presenceChange(
    of query: StateQuery, from position: Int, direction: TimelineSearch.Direction,
    isPresent: Bool
  ) throws(ReplayError) -> Int? {
    try presenceChangeInProcess(
      of: query, from: position, direction: direction, isPresent: isPresent)
  }

  /// Each state's text in turn, by ``stateJSONText(at:)``.
  public func forEachStateText(
    from first: Int, through last: Int, _ body: (Int, [UInt8]) throws(ReplayError) -> Bool
  ) throws(ReplayError) {
    guard first <= last else { return }
    for position in first...last {
      guard try body(position, try stateJSONText(at: position)) else { return }
    }
  }

  /// The value's text cut out of the whole state's.
  public func valueText(at position: Int, path: JSONPath) throws(ReplayError) -> [UInt8]? {
    let text = try stateJSONText(at: position)
    return try? Array(path.text(inText: text))
  }

  /// ``ValueHistory/walk(_:of:from:through:limit:)`` in this process.
  public func valueHistory(
    of path: JSONPath, from first: Int, through last: Int, limit: Int?
  ) throws(ReplayError) -> ValueHistory {
    try ValueHistory.walk(self, of: path, from: first, through: last, limit: limit)
  }

  /// The states at `first` … `last` rebuilt in this process in turn, as many as fit in
  /// `maxBytes` (at least one), each checked to be one JSON value (in a replay worker too, which
  /// sends them to `replay` in one reply).
  public func stateJSONTexts(
    from first: Int, through last: Int, maxBytes: Int
  ) throws(ReplayError) -> [[UInt8]] {
    var texts: [[UInt8]] = []
    var size = 0
    var validator = JSONValidator(limits: .unlimited)
    try forEachStateText(from: first, through: last) { (position, text) throws(ReplayError) in
      if text.withUnsafeBytes({ validator.firstDefect(in: $0) }) != nil {
        throw .encodingFailed(
          what: "state at position \(position)",
          reason: text.withUnsafeBytes {
            JSONParser.firstError(in: $0, limits: .unlimited)?.description ?? "it is not JSON"
          })
      }
      size += text.count
      texts.append(text)
      return size < maxBytes
    }
    return texts
  }
}

extension Timeline: ReplayTimeline {
  /// The state at `position`, encoded with Rewind's JSON encoder.
  public func stateJSON(at position: Int) throws(ReplayError) -> JSONValue {
    // Its text, sized up front (``stateJSONText(at:)``), parsed: the text of a large state never
    // grows by doubling beside the tree being built.
    let text = try stateJSONText(at: position)
    do {
      return try JSONParser.parse(text, limits: .unlimited)
    } catch {
      throw .encodingFailed(
        what: "state at position \(position)",
        reason: "its JSON does not read back (\(error)): a hand-built JSONValue inside it may "
          + "hold a number that is not a JSON literal")
    }
  }

  /// The state at `position` as compact JSON text, encoded straight to bytes with Rewind's JSON
  /// encoder (the same bytes as ``stateJSON(at:)``'s value written out).
  public func stateJSONText(at position: Int) throws(ReplayError) -> [UInt8] {
    try encodedText(try self.state(at: position), what: "state at position \(position)")
  }

  /// `state` encoded straight to bytes: with its own direct encoding when it has one (the same
  /// bytes, several times faster), else with Rewind's JSON encoder.
  private func encodedText(_ state: State, what: String) throws(ReplayError) -> [UInt8] {
    let headerSize = log.header.withStateText { $0.count } ?? 0
    // A large state goes the encoder's way, into an array sized up front: the direct writer's
    // buffer is copied into an array at the end, which would hold the text twice.
    if let directStateEncoder, headerSize < 1 << 20 {
      var writer = JSONDirectWriter()
      if (try? directStateEncoder.encode(state, to: &writer)) != nil, writer.isComplete {
        return writer.bytes
      }
    }
    // Room for a state about the size of a large header's up front: its text then does not grow
    // by doubling, which holds the old and the new buffer at once. (A small reservation would
    // only shift the doublings: left to the array.)
    var text: [UInt8] = []
    if headerSize >= 1 << 20 { text.reserveCapacity(headerSize + headerSize / 8) }
    do {
      try JSONStreamEncoder().encode(state, into: &text)
      return text
    } catch {
      throw .encodingFailed(what: what, reason: "\(error)")
    }
  }

  /// The value at `path` in the state at `position`, encoding only what lies on the path
  /// (``JSONProjection``); the whole state, and the value cut out of it, where the projection
  /// cannot be sure of the full encoding's text.
  public func valueText(at position: Int, path: JSONPath) throws(ReplayError) -> [UInt8]? {
    try valueText(
      in: try self.state(at: position), at: position, path: path, steps: path.projectionSteps)
  }

  /// The value at `path` (whose ``JSONPath/projectionSteps`` are `steps`) in `state`, the
  /// state at `position`: projected, or cut out of the whole encoding where the projection
  /// cannot be sure of its text.
  private func valueText(
    in state: State, at position: Int, path: JSONPath, steps: [JSONProjection.Step]
  ) throws(ReplayError) -> [UInt8]? {
    switch JSONProjection.text(of: state, at: steps) {
    case .found(let text): return text
    case .nowhere: return nil
    case .unsupported:
      let text = try encodedText(state, what: "state at position \(position)")
      return try? Array(path.text(inText: text))
    }
  }

  /// Each state rebuilt from the one before (``forEachState``) and encoded.
  public func forEachStateText(
    from first: Int, through last: Int, _ body: (Int, [UInt8]) throws(ReplayError) -> Bool
  ) throws(ReplayError) {
    guard first <= last else { return }
    try forEachState(from: first, through: last) { (position, state) throws(ReplayError) in
      try body(position, try encodedText(state, what: "state at position \(position)"))
    }
  }

  /// ``ValueHistory``'s walk over states rebuilt one after the other (``forEachState``), each
  /// value found by ``JSONProjection``.
  public func valueHistory(
    of path: JSONPath, from first: Int, through last: Int, limit: Int?
  ) throws(ReplayError) -> ValueHistory {
    let steps = path.projectionSteps
    return try ValueHistory.collect(path, from: first, limit: limit) {
      (take) throws(ReplayError) in
      try forEachState(from: first, through: last) { (position, state) throws(ReplayError) in
        take(position, try valueText(in: state, at: position, path: path, steps: steps))
      }
    }
  }

  /// Rebuilds the state at `position` (cached as any other), without encoding it.
  public func reach(_ position: Int) throws(ReplayError) {
    _ = try state(at: position)
  }

  /// The state after only the actions `seqs`, encoded straight to bytes with Rewind's JSON
  /// encoder.
  public func stateJSONText(runningOnly seqs: [Int]) throws(ReplayError) -> [UInt8] {
    try encodedText(try self.state(applying: seqs), what: "state")
  }

  /// Compares with `==` when `State` is `Equatable`, else the encodings.
  public func statesEqual(_ a: Int, _ b: Int) throws(ReplayError) -> Bool {
    let first = try state(at: a)
    let second = try state(at: b)
    if let first = first as? any Equatable {
      return first.isEqual(to: second)
    }
    return try stateJSON(at: a) == stateJSON(at: b)
  }

  /// Decodes every action of `seqs`, throwing for the first that no longer decodes.
  public func checkActions(_ seqs: ClosedRange<Int>) throws(ReplayError) {
    for seq in seqs { _ = try action(at: seq) }
  }
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

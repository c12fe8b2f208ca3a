import RewindJSON

// The two stages of a checkpoint handed to the background (``CheckpointWriter``): encoding
// the state, then writing its lines.
extension Recorder {
  /// Sanitizes and encodes `state`, taking no lock: the first stage of a checkpoint handed to
  /// the background (``CheckpointWriter``), which gives its core back now and then (`pacer`).
  static func encodeState(
    _ handed: HandedState<State>, sanitizer: (@Sendable (State) -> State)?, coder: LogCoder,
    pacer: EncodingPacer?
  ) -> Result<[UInt8], any Error> {
    guard let state = handed.value else { return .success([]) }
    let sanitized = sanitizer?(state) ?? state
    guard let pacer else { return Result { try coder.encode(sanitized) } }
    return Result {
      try coder.encode(sanitized, pausingEvery: EncodingPacer.checkEvery) { pacer.pausePoint() }
    }
  }

  /// Writes the encoded state as the `state` record of `seq`, one part per lock: the second stage
  /// of ``didReduce(_:)``'s hand-over. For a rotation
  /// (``RecorderCore/StatePlan/rotateLater(seq:)``), the record goes to the new file (its
  /// header's state) and to the retiring one (its final state), which then ends. Returns an error
  /// to report.
  static func writeState(
    _ encoded: Result<[UInt8], any Error>, seq: Int, core: Locked<RecorderCore>,
    releasing handed: HandedState<State>, rotating: Bool = false
  ) -> RecorderError? {
    // The state is freed here, at this queue's priority, not on the encoding thread: freeing
    // takes the allocator's locks, which the app's thread takes too.
    defer { handed.value = nil }
    let json: [UInt8]
    switch encoded {
    case .success(let bytes): json = bytes
    case .failure(let error):
      return core.withLock { core in
        // A retiring file still ends as rotated files do; the new file's state never comes.
        if rotating { _ = core.finishRotation() }
        return core.fail(.stateEncodingFailed(description: "\(error)"))
      }
    }
    core.withLock { $0.noteStateBytes(json.count) }
    // One line per lock: an action waits for one part's `write(2)` at most (the live viewer
    // takes the part by reference). Woken when the lock is let go, the app's thread cannot take
    // the core from this one (the scheduler lets a running thread finish its slice): so it
    // gives the core back every 200 µs, between parts, as the encoder does.
    let pacer = EncodingPacer(hurried: AtomicWord(0))
    pacer.resume()
    let report = StateRecord.forEachLine(seq: seq, json: json) { line in
      defer { pacer.pausePoint() }
      return core.withLock { $0.appendStatePart(line) }
    }
    guard rotating else { return report }
    if let report { return report }
    return StateRecord.forEachLine(seq: seq, json: json) { line in
      defer { pacer.pausePoint() }
      return core.withLock { $0.appendRetiringLine(line) }
    } ?? core.withLock { $0.finishRotation() }
  }
}

/// A state handed to the background for a checkpoint: encoded by the first stage, released by
/// the second (``CheckpointWriter``). Each stage runs after the other (the first hands the second
/// to a queue), never at once.
final class HandedState<State>: @unchecked Sendable {
  /// The state, until the second stage is done with it.
  var value: State?

  init(_ value: State) { self.value = value }
}

import RewindJSON

/// The states of consecutive positions, read in order a batch at a time: what a front end that
/// walks every state (the HTML export, the Redux DevTools export) asks the debugger's core for.
///
/// Each batch is one ``ReplayTimeline/stateJSONTexts(from:through:maxBytes:)`` (one round trip to a
/// replay worker process); when a batch fails — the reducer crashed on the way, an action does
/// not decode — the walk goes on one state at a time through ``Debugger/stateText(of:timeline:at:)``,
/// so that every state before the failure is still given and the failure is thrown at its own
/// position, as a walk of single requests would.
public struct StateTextWalk {
  /// The log.
  public let log: ReplayLog
  /// The timeline, or `nil` (only the recorded states: the header's and the checkpoints').
  public let timeline: (any ReplayTimeline)?
  /// The last position the walk will ask for.
  public let last: Int
  /// The states asked for together: no more once their texts reach this many bytes.
  public static let batchBytes = 4 << 20
  private var batch: [[UInt8]] = []
  private var batchStart = 0
  private var isBatching: Bool

  /// A walk over `log`'s states up to `last`, rebuilt by `timeline`.
  public init(log: ReplayLog, timeline: (any ReplayTimeline)?, through last: Int) {
    self.log = log
    self.timeline = timeline
    self.last = last
    isBatching = timeline != nil
  }

  /// The state at `position` as compact JSON text (``Debugger/stateText(of:timeline:at:)``'s).
  /// - Throws: See ``Debugger/stateText(of:timeline:at:)``.
  public mutating func text(at position: Int) throws(DebuggerError) -> [UInt8] {
    if let text = batched(position) { return text }
    if isBatching, let timeline, log.positions.contains(position), position <= last {
      do {
        // Up to the walk's end, as many as fit in the bytes: a timeline in a worker asks for the
        // next batch ahead with the same end, and hands it over when it is asked for here.
        batch = try timeline.stateJSONTexts(
          from: position, through: last, maxBytes: Self.batchBytes)
        batchStart = position
      } catch {
        // One at a time from here: the states before the failure, then the failure itself.
        isBatching = false
        batch = []
      }
      if let text = batched(position) { return text }
    }
    return try Debugger.stateText(of: log, timeline: timeline, at: position)
  }

  /// The text at `position` from the batch, when it holds it (checked as JSON by
  /// ``ReplayTimeline/stateJSONTexts(from:through:maxBytes:)``).
  private func batched(_ position: Int) -> [UInt8]? {
    let index = position - batchStart
    guard batch.indices.contains(index) else { return nil }
    return batch[index]
  }
}

import Rewind
import RewindReplay

/// A session's worker rebuilds states ahead of the last position asked for while the user looks
/// at it, and says how far it got in memory it shares with the parent (``WorkerSharedMemory``): a
/// step forward into that stretch is known not to trap (reducers are deterministic:
/// docs/determinism.md), so the parent moves its cursor there without a round trip.
///
/// Word ``WorkerSharedMemory/frontier`` holds the last position rebuilt for the last request
/// (stored before the answer, then raised one action at a time); word
/// ``WorkerSharedMemory/phase`` is `runningAhead` while this worker reduces ahead and `answering`
/// once it reads a request, so that when the worker dies the parent knows whether the request it
/// sent was the cause or a step ahead was.
///
/// The first state ahead is also written out as JSON text (``preparedText(at:)``): a step
/// forward with the state shown is then answered without rebuilding or encoding anything. It is
/// written only once no request has come for ``textDelayNanoseconds`` (a user looking at the
/// state): requests that follow each other closely — a script's gotos — would otherwise wait
/// for a text they do not need.
package final class WorkerRunAhead {
  /// The most actions rebuilt ahead of one request.
  package static let window = 4_096
  /// The most time spent rebuilding ahead of one request (a large state takes about a
  /// millisecond an action).
  package static let budgetNanoseconds: UInt64 = 100_000_000
  /// How long after an answer the next state's text is written, if no request came meanwhile.
  package static let textDelayNanoseconds: UInt64 = 100_000

  private let shared: SharedMemory
  private let timeline: any ReplayTimeline
  private var position = 0
  private var limit = 0
  private var deadline: UInt64 = 0
  /// The position asked for, and when its answer was ready.
  private var start = 0
  private var answered: UInt64 = 0
  /// Whether there is work left for the last request (until a request comes, the end, or a
  /// failure).
  private var isActive = false
  /// The text of the state just after the last position asked for, with the skipped actions it
  /// was rebuilt with.
  private var prepared: (position: Int, skips: Set<Int>, text: [UInt8])?

  package init(shared: SharedMemory, timeline: any ReplayTimeline) {
    self.shared = shared
    self.timeline = timeline
  }

  /// A request is being answered: nothing is rebuilt ahead until ``begin(at:)``.
  package func stop() {
    shared.store(WorkerSharedMemory.answering, at: WorkerSharedMemory.phase)
    isActive = false
  }

  /// The state at `position` was rebuilt for a request: say so before the answer is written,
  /// then rebuild ahead of it once the answer is out — up to `last` at most, when the parent
  /// knows that rebuilding further traps or hangs.
  package func begin(at position: Int, upTo last: Int?) {
    shared.store(position, at: WorkerSharedMemory.frontier)
    self.position = position
    start = position
    prepared = nil
    limit = min(
      timeline.log.positions.upperBound, position + Self.window, last ?? Int.max)
    answered = Platform.monotonicNanoseconds()
    deadline = answered + Self.budgetNanoseconds
    isActive = true
  }

  /// Rebuilds the next state ahead, if any is left to rebuild (or waits to write the first
  /// one's text); returns whether there is more to do.
  package func step() -> Bool {
    let now = Platform.monotonicNanoseconds()
    guard isActive, now < deadline else { return false }
    shared.store(WorkerSharedMemory.runningAhead, at: WorkerSharedMemory.phase)
    if position == start + 1, prepared == nil, position <= limit {
      // The timeline's cursor is still on the first state ahead: its text costs the encoding.
      guard now - answered >= Self.textDelayNanoseconds else { return true }
      do {
        prepared = (position, timeline.skippedSeqs, try timeline.stateJSONText(at: position))
      } catch {
        isActive = false
      }
    } else if position < limit {
      do {
        try timeline.reach(position + 1)
        position += 1
        shared.store(position, at: WorkerSharedMemory.frontier)
      } catch {
        isActive = false
      }
    } else {
      isActive = false
    }
    if !isActive { shared.store(WorkerSharedMemory.answering, at: WorkerSharedMemory.phase) }
    return isActive
  }

  /// The state at `position` as JSON text, when it was written out ahead with the skipped
  /// actions the timeline has now.
  package func preparedText(at position: Int) -> [UInt8]? {
    guard let prepared, prepared.position == position, prepared.skips == timeline.skippedSeqs
    else { return nil }
    return prepared.text
  }
}

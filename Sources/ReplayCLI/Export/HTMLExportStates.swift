import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService

/// The states of a log as the exported page embeds them: a full state every `interval`
/// positions and, between them, one RFC 6902 patch per action.
///
/// The page rebuilds the state at position *p* from the nearest full state at or before it by
/// applying the patches in between, so any position costs at most `interval - 1` patches while
/// the file holds only the changes. Without the app's reducer the page has only the states the
/// log recorded: the header's and the checkpoints'.
struct HTMLExportStates {
  /// Whether every state up to ``last`` was rebuilt with the app's reducer (`false`: only the
  /// recorded states are known).
  var isRebuilt: Bool
  /// A full state is embedded every `interval` positions from ``first`` (when rebuilt).
  var interval: Int
  /// The first position: the header's state (`firstSeq - 1`).
  var first: Int
  /// The last position whose state is embedded or can be rebuilt from the patches, or `nil`
  /// when there is none.
  var last: Int?
  /// Full states by position, ascending, each as its compact JSON text.
  var full: [(position: Int, state: [UInt8])] = []
  /// `patches[i]` turns the state at `first + i` into the state at `first + i + 1`: the JSON
  /// Patch's compact text (``JSONPatch/jsonValue``), written where its diff is made.
  var patches: [[UInt8]] = []
  /// For patches whose operations are not in the order ``JSONDiff/diff(_:_:)`` lists its
  /// changes (removals before additions in an array, say): the patch's index and, for each
  /// change in diff order, the index of its operation. The page shows the diff in that order.
  var orders: [(patch: Int, order: [Int])] = []
  /// The action the app stopped in, for a cut-off log, or the action that crashed the app's
  /// reducer: its state is not shown.
  var stoppedSeq: Int?
  /// The crash of the app's reducer at ``stoppedSeq``, when rebuilding met one.
  var crash: CrashReport?
  /// Where rebuilding failed, and why, when it did.
  var failure: (position: Int, message: String)?

  /// Rebuilds every state with `timeline` and keeps full states and patches.
  ///
  /// A reducer that crashes (in a worker process: `timeline` is crash-isolated) ends the states
  /// before the crashing action, which becomes ``stoppedSeq`` with its ``crash`` report. Without
  /// isolation, a cut-off log's last action is not run: the app stopped while running it, and
  /// its reducer may trap on it again, which nothing in this process could catch. A state that
  /// cannot be rebuilt (an action that no longer decodes, say) ends the states there, with
  /// ``failure`` saying why; the actions are exported all the same.
  /// - Parameters:
  ///   - interval: Embed a full state every this many positions; at least 1.
  ///   - progress: Called with the positions done and to do, every 1,024 positions.
  /// - Complexity: One reduction, one state encoding and one
  ///   ``JSONDiff/diff(oldText:newText:limits:)`` per position. The states are kept as their
  ///   texts, and compared from them: none is built as a tree.
  static func rebuilt(
    log: ReplayLog, timeline: any ReplayTimeline, interval: Int,
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil
  ) -> HTMLExportStates {
    let first = log.positions.lowerBound
    let isIsolated = timeline is IsolatedTimeline
    let stoppedSeq = log.isCutOff && log.actionCount > 0 && !isIsolated ? log.lastSeq : nil
    let end = stoppedSeq.map { $0 - 1 } ?? log.lastSeq
    var states = HTMLExportStates(
      isRebuilt: true, interval: max(1, interval), first: first, last: nil,
      stoppedSeq: stoppedSeq)
    // Each state comes from the debugger's core, as every front end's does: a batch at a time
    // (one round trip to the worker each).
    var walk = StateTextWalk(log: log, timeline: timeline, through: end)
    func stateAt(_ position: Int) throws(DebuggerError) -> [UInt8] {
      try walk.text(at: position)
    }
    var previous: [UInt8]
    do {
      previous = try stateAt(first)
    } catch {
      var recorded = Self.recorded(log: log)
      recorded.failure = (first, error.message)
      return recorded
    }
    states.full.append((first, previous))
    states.last = first
    guard end > first else { return states }
    // The states are read a window at a time, and each window's diffs made on two threads in the
    // background (each diff needs only its two texts) while this thread reads the next window —
    // from a replay worker, which rebuilds it meanwhile, or rebuilt here.
    var position = first
    var stopped = false
    var pending: WindowDiffs?
    /// The diffs of `window` put in the page, in order.
    func add(_ window: WindowDiffs) {
      for (offset, (patch, order)) in window.wait().enumerated() {
        let at = window.start + 1 + offset
        if let order { states.orders.append((states.patches.count, order)) }
        states.patches.append(patch)
        if (at - first) % states.interval == 0 {
          states.full.append((at, window.texts[offset + 1]))
        }
        states.last = at
      }
    }
    while position < end && !stopped {
      var window: [[UInt8]] = [previous]
      var bytes = 0
      while position < end && bytes < windowBytes && window.count <= windowStates {
        do {
          let state = try stateAt(position + 1)
          bytes += state.count
          window.append(state)
          position += 1
        } catch {
          if case .replay(.reducerCrashed(let report)) = error, report.seq == position + 1 {
            states.stoppedSeq = position + 1
            states.crash = report
          } else {
            states.failure = (position + 1, error.message)
          }
          stopped = true
          break
        }
      }
      if let pending { add(pending) }
      // Both checked by `stateText`: diffed as they are.
      pending = WindowDiffs(start: position - (window.count - 1), texts: window)
      if let last = window.last { previous = last }
      progress?(position - first, end - first)
    }
    if let pending { add(pending) }
    progress?(end - first, end - first)
    return states
  }

  /// How many bytes of states a window of the walk holds (``rebuilt(log:timeline:interval:progress:)``).
  static let windowBytes = 8 << 20
  /// How many states a window holds at most.
  static let windowStates = 8_192

  /// `transform` of 0 ..< `count`, in order, the first half and the second computed on two
  /// threads.
  static func inParallel<Result: Sendable>(
    _ count: Int, _ transform: @Sendable (Int) -> Result
  ) -> [Result] {
    guard count > 1 else { return (0..<count).map(transform) }
    let halves = HalfResults<Result>()
    let middle = count / 2
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      let range = half == 0 ? 0..<middle : middle..<count
      halves.store(range.map(transform), half: half)
    }
    return halves.joined
  }
}

/// The diffs of one window of states, made in the background: each state's patch against the
/// one before it and, for a patch of several changes, their order
/// (``HTMLExportStates/changeOrder(_:_:)``).
private final class WindowDiffs: @unchecked Sendable {
  // @unchecked: `results` is written once by the background work before it leaves `group`, and
  // read only after `wait()` has waited for the group.
  /// The position of the first state of ``texts``.
  let start: Int
  /// The window's states: the last state of the window before it, then the new ones.
  let texts: [[UInt8]]
  /// The background work.
  private let group = DispatchGroup()
  /// The patches' texts and orders, once the work is done.
  private var results: [([UInt8], [Int]?)] = []

  /// Starts diffing `texts`, each against the one before it, on two threads.
  init(start: Int, texts: [[UInt8]]) {
    self.start = start
    self.texts = texts
    DispatchQueue.global().async(group: group) {
      self.results = HTMLExportStates.inParallel(texts.count - 1) { index in
        let changes = JSONDiff.diff(checkedOldText: texts[index], checkedNewText: texts[index + 1])
        let patch = JSONPatch(changes: changes)
        return (patch.jsonValue.serializedBytes, HTMLExportStates.changeOrder(changes, patch))
      }
    }
  }

  /// The patches' texts and orders, in position order, once they are made.
  func wait() -> [([UInt8], [Int]?)] {
    group.wait()
    return results
  }
}

/// The two halves of ``HTMLExportStates/inParallel(_:_:)``'s results, each stored once by its
/// thread under the lock.
private final class HalfResults<Result: Sendable>: @unchecked Sendable {
  // @unchecked: `halves` is only read and written with `lock` held.
  private let lock = NSLock()
  private var halves: [[Result]] = [[], []]

  func store(_ results: [Result], half: Int) {
    lock.lock()
    defer { lock.unlock() }
    halves[half] = results
  }

  var joined: [Result] {
    lock.lock()
    defer { lock.unlock() }
    return halves[0] + halves[1]
  }
}

extension HTMLExportStates {

  /// The states the log itself records, for an app whose reducer is not known: the header's
  /// and every checkpoint's. A checkpoint that cannot be read is left out.
  static func recorded(log: ReplayLog) -> HTMLExportStates {
    let first = log.positions.lowerBound
    var states = HTMLExportStates(isRebuilt: false, interval: 0, first: first, last: nil)
    states.full.append(
      (first, log.header.withStateText { Array($0) } ?? log.header.state.serializedBytes))
    for seq in log.checkpointSeqs where log.positions.contains(seq) && seq > first {
      if let state = try? Debugger.stateText(of: log, timeline: nil, at: seq) {
        states.full.append((seq, state))
      }
    }
    states.last = states.full.last?.position
    return states
  }

  /// Writes the states as the page's data: `rebuilt`, `interval`, `first`, `last`, `full`
  /// (pairs of position and state, each state's text as it is), `patches`, `orders`,
  /// `stoppedSeq` and `failure`.
  func write(into json: inout ScriptJSONWriter) {
    func number(_ value: Int) -> JSONValue { .number(String(value)) }
    var isFirst = true
    func key(_ key: String) {
      json.append(isFirst ? "{" : ",")
      isFirst = false
      json.append(JSONValue.string(key))
      json.append(":")
    }
    func member(_ name: String, _ value: JSONValue) {
      key(name)
      json.append(value)
    }
    member("rebuilt", .bool(isRebuilt))
    member("interval", number(interval))
    member("first", number(first))
    member("last", last.map(number) ?? .null)
    key("full")
    json.append("[")
    for (index, entry) in full.enumerated() {
      json.append(index > 0 ? ",[\(entry.position)," : "[\(entry.position),")
      json.append(entry.state)
      json.append("]")
    }
    json.append("]")
    key("patches")
    json.append("[")
    for (index, patch) in patches.enumerated() {
      if index > 0 { json.append(",") }
      json.append(patch)
    }
    json.append("]")
    member(
      "orders", .array(orders.map { .array([number($0.patch), .array($0.order.map(number))]) }))
    member("stoppedSeq", stoppedSeq.map(number) ?? .null)
    member("crash", crash?.json ?? .null)
    member(
      "failure",
      failure.map { failure in
        .object([
          JSONMember("position", number(failure.position)),
          JSONMember("message", .string(failure.message)),
        ])
      } ?? .null)
    json.append("}")
  }

  /// The size of the full states' texts together.
  var fullStatesSize: Int { full.reduce(0) { $0 + $1.state.count } }

  /// For each change in `changes`, the index of the operation of `patch` that makes it; `nil`
  /// when that is simply 0, 1, 2, … (the usual case), or when a change has no operation.
  static func changeOrder(_ changes: [JSONChange]?, _ patch: JSONPatch) -> [Int]? {
    guard let changes, changes.count > 1, changes.count == patch.operations.count else {
      return nil
    }
    var operationIndex: [String: Int] = [:]
    for (index, operation) in patch.operations.enumerated() {
      operationIndex["\(operation.name) \(operation.path)"] = index
    }
    var order: [Int] = []
    order.reserveCapacity(changes.count)
    for change in changes {
      let name: String
      switch change {
      case .added: name = "add"
      case .removed: name = "remove"
      case .changed: name = "replace"
      }
      guard let index = operationIndex["\(name) \(change.path.pointer)"] else { return nil }
      order.append(index)
    }
    return order.elementsEqual(order.indices) ? nil : order
  }

}

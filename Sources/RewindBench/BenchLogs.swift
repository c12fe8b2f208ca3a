import Foundation
import Rewind
import RewindExamples

/// How big the todo state of a generated log is.
enum StateSize: String, Sendable {
  /// From an empty list; the workload keeps it to a few dozen todos.
  case small
  /// From 1,000 todos; removals that would take it below 1,000 are redrawn.
  case large

  static let largeTodoCount = 1_000
}

/// A log the harness generated, and what is in it.
struct BenchLog: Sendable {
  var path: String
  var actionCount: Int
  var stateSize: StateSize
  var fileBytes: Int
}

/// Generates the todo logs the benchmarks read. Generation is never part of a measured figure.
enum BenchLogs {
  /// The actions `TodoWorkload(seed:)` gives for `count` steps, and the state before them.
  static func actions(count: Int, stateSize: StateSize, seed: UInt64) -> (TodoState, [TodoAction]) {
    var workload = TodoWorkload(seed: seed)
    var state = TodoState()
    if stateSize == .large {
      var filler = TodoWorkload(seed: seed &+ 1)
      while state.todos.count < StateSize.largeTodoCount {
        if case .add(let title) = filler.next(for: TodoState()) {
          todoReducer.reduce(&state, .add(title: title))
        }
      }
    }
    let initial = state
    var actions: [TodoAction] = []
    actions.reserveCapacity(count)
    while actions.count < count {
      let action = workload.next(for: state)
      if stateSize == .large, state.todos.count <= StateSize.largeTodoCount {
        switch action {
        case .remove, .clearCompleted: continue
        default: break
        }
      }
      todoReducer.reduce(&state, action)
      actions.append(action)
    }
    return (initial, actions)
  }

  /// Records `actions` from `initial` into `path` the way an app would (buffered, a checkpoint
  /// every 1,000 actions), optionally replacing some of them.
  static func record(
    _ actions: [TodoAction], from initial: TodoState, to path: String,
    checkpointInterval: Int = 1_000
  ) throws -> Int {
    let store = Store(initialState: initial, reducer: todoReducer)
    var options = RecordingOptions(
      durability: .buffered(capacity: 1 << 20), checkpointInterval: checkpointInterval,
      ifExists: .replace)
    // The same bytes from every run and every build: a fixed session, date and clock.
    options.reproducible = .init(
      session: "rewind-bench", recordedAt: "2026-01-01T00:00:00Z", secondsPerAction: 0.000_5)
    let recorder = try store.startRecording(to: path, app: "todo", options: options)
    for action in actions { store.dispatch(action) }
    recorder.close()
    if case .stopped(let error) = recorder.status { throw error }
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.size] as? Int) ?? 0
  }

  /// Generates a log of `count` actions unless an identical one is already there.
  static func log(
    in directory: String, count: Int, stateSize: StateSize, seed: UInt64 = 7, reuses: Bool = false
  ) throws -> BenchLog {
    let path = "\(directory)/todo-\(stateSize.rawValue)-\(count)-\(seed).jsonl"
    if reuses, let bytes = completeSize(path) {
      return BenchLog(path: path, actionCount: count, stateSize: stateSize, fileBytes: bytes)
    }
    let (initial, actions) = Self.actions(count: count, stateSize: stateSize, seed: seed)
    let bytes = try record(actions, from: initial, to: path)
    markComplete(path)
    return BenchLog(path: path, actionCount: count, stateSize: stateSize, fileBytes: bytes)
  }

  /// Two logs of `count` actions that differ in `differences` places: B replaces that many of
  /// A's actions, spread evenly, with a rename that A did not do (a `toggle`, `rename` or
  /// `setFilter` is replaced, so that the number of todos, and every later `move`, stays valid).
  static func diffPair(
    in directory: String, count: Int, differences: Int, seed: UInt64 = 11
  ) throws -> (BenchLog, BenchLog) {
    let (initial, actions) = Self.actions(count: count, stateSize: .small, seed: seed)
    var targets: [Int: Int] = [:]
    for k in 0..<differences {
      var index = (k * 2 + 1) * count / (differences * 2)
      // A replaced action equal to a neighbour could align either way and split into two
      // stretches; skip those.
      while !keepsTodoCount(actions[index]) || actions[index] == actions[index - 1]
        || actions[index] == actions[index + 1]
      {
        index += 1
      }
      targets[index] = k
    }
    var changed = actions
    var state = initial
    for (index, action) in actions.enumerated() {
      if let k = targets[index] {
        changed[index] = .rename(id: state.todos.first?.id ?? 0, title: "renamed in B (\(k + 1))")
      }
      todoReducer.reduce(&state, action)
    }
    let pathA = "\(directory)/diff-a-\(count).jsonl"
    let pathB = "\(directory)/diff-b-\(count).jsonl"
    let bytesA = try record(actions, from: initial, to: pathA)
    let bytesB = try record(changed, from: initial, to: pathB)
    return (
      BenchLog(path: pathA, actionCount: count, stateSize: .small, fileBytes: bytesA),
      BenchLog(path: pathB, actionCount: count, stateSize: .small, fileBytes: bytesB)
    )
  }

  /// The size of a log generated by an earlier run (`--logs DIR`), when it was completed.
  private static func completeSize(_ path: String) -> Int? {
    guard FileManager.default.fileExists(atPath: path + ".complete") else { return nil }
    return (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
  }

  private static func markComplete(_ path: String) {
    _ = FileManager.default.createFile(atPath: path + ".complete", contents: Data())
  }

  /// Whether replacing `action` with a `setFilter` leaves the number of todos, and so the
  /// validity of every later `move`, unchanged.
  private static func keepsTodoCount(_ action: TodoAction) -> Bool {
    switch action {
    case .toggle, .rename, .setFilter: return true
    default: return false
    }
  }
}

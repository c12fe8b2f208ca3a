import Foundation
import Rewind
import RewindExamples

/// Child processes for the recorder's crash and kill tests.
enum ChildModes {
  /// Records `count` counter actions under `policy`, writing `N\n` to stdout after the dispatch
  /// of action N returned (the parent kills this process at a random moment and checks that every
  /// acknowledged action is in the log).
  static func record(to path: String, policy: String, count: Int) throws {
    let durability: Durability
    var rotation: Rotation?
    switch policy {
    case "process": durability = .processCrash
    case "rotating":
      // Every 1 KiB: a follower (`tail -f`) sees many rotations.
      durability = .processCrash
      rotation = Rotation(maxBytes: 1024, keepFiles: 100_000)
    case "interval": durability = .interval(.milliseconds(5))
    case "every": durability = .everyAction
    case "buffered": durability = .buffered(capacity: 4096)
    case "rotating-large": return try recordLargeRotating(to: path, count: count)
    default:
      throw FixtureError(
        "unknown policy \(policy): process, rotating, rotating-large, interval, every or buffered")
    }
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter",
      options: RecordingOptions(
        durability: durability, checkpointInterval: 25, rotation: rotation, ifExists: .replace))
    for n in 1...max(1, count) {
      store.dispatch(n % 7 == 0 ? .add(n) : .increment)
      var ack = Array("\(n)\n".utf8)
      ack.withUnsafeMutableBytes { _ = write(1, $0.baseAddress, $0.count) }
    }
    recorder.close()
  }

  /// Records `count` counter actions to `path` and to the live viewer the environment names
  /// (`REWIND_LIVE`, `REWIND_LIVE_TOKEN`), `pause` milliseconds apart, acknowledging each as
  /// ``record(to:policy:count:)`` does; then closes, gives the live connection a second to send
  /// what is left, and prints the connection's status as one line of JSON on standard error.
  static func recordLive(to path: String, count: Int, pause: Int, queueCapacity: Int?) throws {
    guard var viewer = LiveViewer.fromEnvironment() else {
      throw FixtureError("set REWIND_LIVE=unix:PATH or tcp:HOST:PORT (and REWIND_LIVE_TOKEN)")
    }
    if let queueCapacity { viewer.queueCapacity = queueCapacity }
    // REWIND_LIVE_ACCEPTS_ACTIONS=1: the viewer may dispatch actions (docs/live.md, Sending
    // actions); they arrive on the main queue, which the pauses below run.
    let accepts = ProcessInfo.processInfo.environment["REWIND_LIVE_ACCEPTS_ACTIONS"] == "1"
    viewer.acceptsActions = accepts
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter",
      options: RecordingOptions(checkpointInterval: 25, ifExists: .replace, liveViewer: viewer))
    for n in 1...max(1, count) {
      store.dispatch(n % 7 == 0 ? .add(n) : .increment)
      var ack = Array("\(n)\n".utf8)
      ack.withUnsafeMutableBytes { _ = write(1, $0.baseAddress, $0.count) }
      if pause > 0 {
        let end = Date(timeIntervalSinceNow: Double(pause) / 1_000)
        while accepts, Date() < end {
          _ = RunLoop.main.run(mode: .default, before: end)
          if Date() < end { usleep(1_000) }
        }
        if Date() < end { usleep(UInt32(end.timeIntervalSinceNow * 1_000_000)) }
      }
    }
    recorder.close()
    Thread.sleep(forTimeInterval: 1.2)
    let status = recorder.liveStatus
    FileHandle.standardError.write(
      Data(
        "{\"connections\":\(status?.connections ?? -1),\"droppedActions\":\(status?.droppedActions ?? -1),\"lastProblem\":\"\(status?.lastProblem ?? "")\"}\n"
          .utf8))
  }

  /// Records `count` todo actions on a list of 1,000 todos (about 60 KiB of JSON, a state the
  /// recorder encodes in the background), rotating every 128 KiB: each rotation starts its new
  /// file with a header whose state follows. Acknowledges each action as ``record(to:policy:count:)``
  /// does.
  static func recordLargeRotating(to path: String, count: Int) throws {
    let todos = (1...1_000).map {
      Todo(id: $0, title: "todo number \($0) of a long list", done: false)
    }
    let store = Store(
      initialState: TodoState(todos: todos, nextID: 1_001), reducer: todoReducer)
    let recorder = try store.startRecording(
      to: path, app: "todo",
      options: RecordingOptions(
        checkpointInterval: 100, rotation: Rotation(maxBytes: 128 << 10, keepFiles: 100_000),
        ifExists: .replace))
    for n in 1...max(1, count) {
      store.dispatch(.toggle(id: n % 1_000 + 1))
      var ack = Array("\(n)\n".utf8)
      ack.withUnsafeMutableBytes { _ = write(1, $0.baseAddress, $0.count) }
    }
    recorder.close()
  }

  /// Records `count` todo actions into a new session of the recordings folder `folder`
  /// (rotating every 2 KiB, with the fatal-signal record), then ends `how`: `close`, `kill`
  /// (SIGKILL: cut off) or `trap` (the todo app's move bug: crashed, with a signal record).
  static func recordInFolder(_ folder: String, count: Int, how: String) throws {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(
      in: RecordingsFolder(path: folder), app: "todo",
      options: RecordingOptions(
        checkpointInterval: 10, rotation: Rotation(maxBytes: 2048, keepFiles: 20),
        recordsFatalSignals: true))
    for n in 1...max(1, count) {
      store.dispatch(n % 3 == 0 ? .toggle(id: n / 3) : .add(title: "item \(n)"))
    }
    var line = Array("\(recorder.path)\n".utf8)
    line.withUnsafeMutableBytes { _ = write(1, $0.baseAddress, $0.count) }
    switch how {
    case "close": recorder.close()
    case "kill": kill(getpid(), SIGKILL)
    case "trap": store.dispatch(.move(from: 999, to: 0))
    default: throw FixtureError("unknown ending \(how): close, kill or trap")
    }
  }

  /// Records a short journal session with the clock-reading reducer (the determinism
  /// counter-example): replaying it with `journalReducer` diverges at the first checkpoint.
  static func clockReadingJournal(to path: String) throws {
    let store = Store(initialState: JournalState(), reducer: clockReadingJournalReducer)
    let recorder = try store.startRecording(
      to: path, app: "journal",
      options: RecordingOptions(checkpointInterval: 2, ifExists: .replace))
    let start = Date(timeIntervalSince1970: 1_795_255_200)
    for (n, text) in ["Ran 5 km", "Read two chapters", "Fixed the bike"].enumerated() {
      store.dispatch(.write(text, now: start.addingTimeInterval(Double(n) * 3600)))
    }
    recorder.close()
  }

  /// Dispatches from inside a reducer: the store must stop the process with a message saying so.
  static func dispatchFromReducer() {
    let box = StoreBox()
    let store = Store(
      initialState: CounterState(),
      reducer: Reducer<CounterState, CounterAction> { state, action in
        state.count += 1
        if case .increment = action { box.store?.dispatch(.decrement) }
      })
    box.store = store
    store.dispatch(.increment)
  }
}

/// Lets the test reducer reach its store (a reducer never should; that is what is tested).
private final class StoreBox: @unchecked Sendable {
  // Written once before the dispatch and read on the same thread: no concurrent access.
  var store: Store<CounterState, CounterAction>?
}

extension ChildModes {
  /// Records `count` counter actions on a state carrying about 400 KiB of text, with a
  /// checkpoint every 10 actions, so that its checkpoints are written in parts off the
  /// dispatching thread; writes `N\n` to stdout after dispatch N returned, then waits a
  /// millisecond (the parent kills this process while a checkpoint is being written).
  static func recordBig(to path: String, count: Int) throws {
    struct BigCounter: Codable, Sendable {
      var count = 0
      var notes = (0..<8_000).map { "note \($0): water the plants, buy milk, renew ✓" }
    }
    let reducer = Reducer<BigCounter, CounterAction> { state, action in
      var counter = CounterState(count: state.count)
      counterReducer.reduce(&counter, action)
      state.count = counter.count
    }
    let store = Store(initialState: BigCounter(), reducer: reducer)
    let recorder = try store.startRecording(
      to: path, app: "big-counter",
      options: RecordingOptions(checkpointInterval: 10, ifExists: .replace))
    for n in 1...max(1, count) {
      store.dispatch(n % 7 == 0 ? .add(n) : .increment)
      var ack = Array("\(n)\n".utf8)
      ack.withUnsafeMutableBytes { _ = write(1, $0.baseAddress, $0.count) }
      // An app dispatches at human or network pace, not in a tight loop: a checkpoint has time
      // to be written before the next falls due.
      usleep(1_000)
    }
    recorder.close()
  }
}

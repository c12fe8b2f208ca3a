import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import RewindReplayService

/// `rewind-bench __profile WORKLOAD [LOG]`: runs one workload in a loop for a profiler
/// (`perf record -g`, or `valgrind --tool=callgrind` on a build made with `-Xcc -gdwarf-4`, whose
/// debug information valgrind 3.19 can read; docs/performance.md) and prints how long it took.
///
/// Workloads: `dispatch` (store alone), `record` (default durability), `buffered`,
/// `recorder-codable` (the recorder through `encode(to:)`, buffered), `encode-codable` and
/// `decode-codable` (an action through `encode(to:)` or `init(from:)` alone), `rebuild LOG`
/// (load and rebuild every state), `foundation LOG` (the same with Foundation's `JSONDecoder`),
/// `open LOG` (open and index only), `isolated-goto LOG` (8e's goto, alone),
/// `isolated-roundtrip LOG` (a request answered at once), `isolated-roundtrip-paused LOG` (the
/// same, each after a 2 ms pause), `worker-protocol` (a session request and its reply written
/// and read 100,000 times), `diff LOG LOG`, `stepback LOG` (300 steps back across a
/// checkpoint).
enum ProfileMode {
  static func run(_ arguments: [String]) throws {
    let workload = arguments.first ?? ""
    let directory = NSTemporaryDirectory()
    let needsActions = [
      "dispatch", "record", "buffered", "recorder", "recorder-buffered", "recorder-codable",
      "encode-codable", "decode-codable",
    ]
    let (initial, actions) = BenchLogs.actions(
      count: needsActions.contains(workload) ? 200_000 : 0, stateSize: .small, seed: 3)
    let seconds: Double
    switch workload {
    case "dispatch":
      let store = Store(initialState: initial, reducer: todoReducer)
      seconds = Stopwatch.seconds { for action in actions { store.dispatch(action) } }
    case "record", "buffered":
      let store = Store(initialState: initial, reducer: todoReducer)
      let durability: Durability =
        workload == "record" ? .processCrash : .buffered(capacity: 1 << 20)
      let recorder = try store.startRecording(
        to: directory + "rewind-bench-profile.jsonl", app: "todo",
        options: RecordingOptions(durability: durability, ifExists: .replace))
      seconds = Stopwatch.seconds { for action in actions { store.dispatch(action) } }
      recorder.close()
    case "recorder", "recorder-buffered":
      seconds = try recordLoop(
        actions, reducer: todoReducer, initial: initial, rounds: 1,
        durability: workload == "recorder" ? .processCrash : .buffered(capacity: 1 << 20),
        in: directory)
    case "recorder-codable":
      // Row 1f's subject: the same actions through `encode(to:)` only, buffered so that the
      // profile shows encoding rather than write(2).
      seconds = try recordLoop(
        actions.map(CodableOnly.init), reducer: codableOnlyTodoReducer, initial: initial,
        rounds: 5, durability: .buffered(capacity: 1 << 20), in: directory)
    case "encode-codable":
      // Encoding alone, through `encode(to:)`: what row 1f's gap is made of.
      let encoder = JSONStreamEncoder()
      var bytes: [UInt8] = []
      var total = 0
      seconds = Stopwatch.seconds {
        for _ in 0..<10 {
          for action in actions {
            bytes.removeAll(keepingCapacity: true)
            _ = try? encoder.encode(action, into: &bytes)
            total &+= bytes.count
          }
        }
      }
      print("encoded \(total) bytes")
    case "decode-codable":
      // Decoding alone, through `init(from:)`: what row 2e's gap is made of.
      let encoder = JSONStreamEncoder()
      let texts = actions.map { action in
        var bytes: [UInt8] = []
        _ = try? encoder.encode(action, into: &bytes)
        return bytes
      }
      let document = JSONTapeDocument()
      var decoded = 0
      seconds = Stopwatch.seconds {
        for _ in 0..<10 {
          for text in texts {
            text.withUnsafeBytes { bytes in
              if document.load(bytes),
                (try? document.decode(CodableOnly<TodoAction>.self, at: document.root)) != nil
              {
                decoded += 1
              }
            }
          }
        }
      }
      print("decoded \(decoded) actions")
    case "rebuild":
      seconds = try Stopwatch.seconds { _ = try LoadBench.loadAndRebuild(arguments[1]) }
    case "stepback":
      // A backward walk across a checkpoint: the worst single step back.
      let log = try ReplayLog(path: arguments[1])
      let position = (log.lastSeq / 2 / 1_000) * 1_000 + 100
      let timeline = Timeline(log: log, reducer: todoReducer)
      _ = try timeline.state(at: position)
      var worst = (step: 0, seconds: 0.0)
      seconds = try Stopwatch.seconds {
        for step in 1...300 {
          let one = try Stopwatch.seconds { _ = try timeline.state(at: position - step) }
          if one > worst.seconds { worst = (step, one) }
        }
      }
      print("worst step back: \(worst.step) steps from \(position), \(worst.seconds) s")
    case "checkpoint":
      // Decoding one checkpoint's state, 20 times.
      let log = try ReplayLog(path: arguments[1])
      let seq = log.checkpointSeqs[log.checkpointSeqs.count / 2]
      seconds =
        try Stopwatch.seconds {
          for _ in 0..<20 {
            let timeline = Timeline(log: log, reducer: todoReducer)
            _ = try timeline.state(at: seq)
          }
        } / 20
    case "foundation":
      seconds = try Stopwatch.seconds { _ = try FoundationBaseline.loadAndRebuild(arguments[1]) }
    case "open":
      seconds = try Stopwatch.seconds { _ = try ReplayLog(path: arguments[1]) }
    case "isolated-goto":
      // 8e's goto, 50 times: a state shown, a pause, a goto across half the log in a worker.
      WorkerProcess.executableOverride.withLock { $0 = ReplayCommand.workerExecutable }
      let log = try ReplayLog(path: arguments[1])
      let app = ReplayCommand.apps[1]
      let half = log.positions.count / 2
      var total = 0.0
      for _ in 0..<50 {
        let timeline = IsolatedTimeline(
          local: try app.timeline(for: log), recovery: log.recovery, runsAhead: true)
        _ = try timeline.stateJSON(at: log.positions.lowerBound + 1 + min(1_500, half / 2))
        Platform.sleep(milliseconds: 2)
        total += try Stopwatch.seconds { try timeline.reach(log.positions.lowerBound + 1 + half) }
      }
      seconds = total / 50
    case "isolated-roundtrip":
      // One request and its reply, 2,000 times, to a worker that answers at once (the state is
      // cached): the round trip alone.
      WorkerProcess.executableOverride.withLock { $0 = ReplayCommand.workerExecutable }
      let log = try ReplayLog(path: arguments[1])
      let app = ReplayCommand.apps[1]
      let timeline = IsolatedTimeline(
        local: try app.timeline(for: log), recovery: log.recovery, runsAhead: false)
      let a = log.positions.lowerBound + 1 + log.positions.count / 2
      _ = try timeline.stateJSON(at: a)
      _ = try timeline.statesEqual(a, a)
      seconds =
        try Stopwatch.seconds {
          for _ in 0..<2_000 { _ = try timeline.statesEqual(a, a) }
        } / 2_000
    case "isolated-roundtrip-paused":
      // Two states the worker has rebuilt already (multiples of its cache's stride, farther apart
      // than it rebuilds ahead), reached in turn, each after a 2 ms pause as 8a and 8e take their
      // gotos: a session's round trip to a worker that rebuilds ahead, then sleeps, with almost
      // no reducing — the floor of a goto after a pause.
      WorkerProcess.executableOverride.withLock { $0 = ReplayCommand.workerExecutable }
      let log = try ReplayLog(path: arguments[1])
      let app = ReplayCommand.apps[1]
      let timeline = IsolatedTimeline(
        local: try app.timeline(for: log), recovery: log.recovery, runsAhead: true)
      let a = (log.positions.count / 2) / 4096 * 4096
      let b = a + 200 * 64
      try timeline.reach(a)
      try timeline.reach(b)
      var total = 0.0
      for n in 0..<500 {
        Platform.sleep(milliseconds: 2)
        total += try Stopwatch.seconds { try timeline.reach(n % 2 == 0 ? a : b) }
      }
      seconds = total / 500
    case "worker-protocol":
      // 100,000 round trips' worth of a session's `reach`: the request written and read, the
      // reply written and read (no process, no pipe).
      let request = WorkerRequest(.reach(at: 500_001, aheadLimit: 999_999), skips: [3])
      seconds = try Stopwatch.seconds {
        for _ in 0..<100_000 {
          let read = try WorkerRequest(line: request.line)
          guard read == request else { throw BenchError("the request did not read back") }
          let reply = WorkerReply.done.line
          guard case .done = try WorkerReply(line: reply.dropLast()) else {
            throw BenchError("the reply did not read back")
          }
        }
      }
    case "diffparts":
      // Where `replay diff` spends its time (its logs opened as it opens them: with each
      // action's identity hashed in the open's pass).
      for _ in 0..<3 {
        let (open, logs) = try Stopwatch.timed {
          (
            try ReplayLog(path: arguments[1], identifiesActions: true),
            try ReplayLog(path: arguments[2], identifiesActions: true)
          )
        }
        let keys = try Stopwatch.seconds { _ = try LogDiff(logs.0, logs.1, timelines: nil) }
        let app = ReplayCommand.apps[1]
        let states = try Stopwatch.seconds {
          _ = try LogDiff(
            logs.0, logs.1, timelines: (app.timeline(for: logs.0), app.timeline(for: logs.1)))
        }
        let cli = Stopwatch.seconds {
          _ = ReplayCommand.runDiscarding(["diff", arguments[1], arguments[2]])
        }
        print("open both", open, "actions only", keys, "with states", states, "whole command", cli)
      }
      seconds = 0
    case "diff":
      seconds = Stopwatch.seconds {
        _ = ReplayCommand.runDiscarding(["diff", arguments[1], arguments[2]])
      }
    default:
      throw BenchError("unknown profile workload '\(workload)'")
    }
    print(workload, seconds)
  }

  /// Runs `actions` `rounds` times through a recorder's hooks around `reducer`, as a store
  /// would; returns the seconds taken.
  private static func recordLoop<Action: Codable & Sendable>(
    _ actions: [Action], reducer: Reducer<TodoState, Action>, initial: TodoState, rounds: Int,
    durability: Durability, in directory: String
  ) throws -> Double {
    let recorder = try Recorder<TodoState, Action>(
      path: directory + "rewind-bench-profile.jsonl", app: "todo", initialState: initial,
      options: RecordingOptions(durability: durability, ifExists: .replace))
    defer { recorder.close() }
    var state = initial
    return Stopwatch.seconds {
      for _ in 0..<rounds {
        for action in actions {
          recorder.willReduce(action)
          reducer.reduce(&state, action)
          recorder.didReduce(state)
        }
      }
    }
  }
}

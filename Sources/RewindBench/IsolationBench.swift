import Foundation
import ReplayCLI
import Rewind
import RewindExamples
import RewindReplay
import RewindReplayService

/// (8) What running the app's reducer in a worker process (the default of `replay`) costs
/// against running it in process (`--no-isolate`), on the same log in the same run: a goto
/// across half the log and a single step, through the timeline a session uses, and
/// `replay state --at last` (and at a position between checkpoints) as whole processes.
struct IsolationBench {
  let log: BenchLog
  let repetitions: Int
  /// Random positions for the steps, per repetition.
  let positions: Int
  /// A shorter log (100,000 actions) for the exports, which walk every state; `nil`: no export
  /// rows.
  var exportLog: BenchLog? = nil
  /// Where the exports are written.
  var directory: String = NSTemporaryDirectory()

  func run() throws -> [Row] {
    WorkerProcess.executableOverride.withLock { $0 = ReplayCommand.workerExecutable }
    let replayLog = try ReplayLog(path: log.path)
    let app = ReplayCommand.apps[1]
    let range = replayLog.positions
    let half = (range.upperBound - range.lowerBound) / 2
    let warmUp = min(1_500, half / 2)
    let suffix = log.stateSize == .small ? "" : "-large"
    var generator = SplitMix(seed: 8)

    // A fresh timeline of each kind, warmed at position 1 (the worker started and the log opened
    // in it), then a goto from there across half the log; states come from the checkpoints, as in
    // a session.
    // `showing`: the state comes back as JSON (the TUI, `print`); otherwise the cursor only
    // moves there (`reach`), as the session's goto and next do.
    func goto(isolated: Bool, showing: Bool) throws -> Double {
      let local = try app.timeline(for: replayLog)
      let timeline: any ReplayTimeline =
        isolated
        ? IsolatedTimeline(local: local, recovery: replayLog.recovery, runsAhead: true) : local
      // Warmed the way a session is before its first goto: a state rebuilt from a checkpoint
      // and shown, so that one-time costs of a new process (the runtime's type lookups on the
      // first decode and encode) are paid before the clock starts; then the user looks at it
      // before typing the goto (the same pause as before a step).
      _ = try timeline.stateJSON(at: range.lowerBound + 1 + warmUp)
      Platform.sleep(milliseconds: Self.pauseMilliseconds)
      let target = range.lowerBound + 1 + half
      return try Stopwatch.seconds {
        if showing { _ = try timeline.stateJSON(at: target) } else { try timeline.reach(target) }
      }
    }
    // One step forward from a random position, as a session takes it: the state there is shown
    // first and the user looks at it (a pause of `pause`, shorter than any keypress; the
    // worker of a session rebuilds states ahead meanwhile), then the step is timed. Each sample
    // is the median over the positions (a preemption costs as much as the step), with a fresh
    // timeline of each kind, so that no worker of an earlier sample still runs.
    var stepPositions: [Int] = []
    for _ in 0..<positions {
      stepPositions.append(range.lowerBound + 1 + generator.next(range.count - 3))
    }
    func steps(isolated: Bool, showing: Bool) throws -> Double {
      let local = try app.timeline(for: replayLog)
      let timeline: any ReplayTimeline =
        isolated
        ? IsolatedTimeline(local: local, recovery: replayLog.recovery, runsAhead: true) : local
      var times: [Double] = []
      for position in stepPositions {
        _ = try timeline.stateJSON(at: position)
        Platform.sleep(milliseconds: Self.pauseMilliseconds)
        times.append(
          try Stopwatch.seconds {
            if showing {
              _ = try timeline.stateJSON(at: position + 1)
            } else {
              try timeline.reach(position + 1)
            }
          })
      }
      return times.sorted()[times.count / 2]
    }
    let samples = try interleaved(
      repetitions,
      [
        { try goto(isolated: false, showing: true) }, { try goto(isolated: true, showing: true) },
        { try steps(isolated: false, showing: true) },
        { try steps(isolated: true, showing: true) },
        { try goto(isolated: false, showing: false) }, { try goto(isolated: true, showing: false) },
        { try steps(isolated: false, showing: false) },
        { try steps(isolated: true, showing: false) },
      ])

    let replay = ReplayCommand.prefix
    let between = try Self.positionBetweenCheckpoints(replayLog)
    let stateLast = replay + ["state", log.path, "--at", "last"]
    let stateBetween = replay + ["state", log.path, "--at", String(between)]
    let verify = replay + ["verify", log.path]
    var commands: [() throws -> Double] = [
      { try OpenBench.seconds(stateLast + ["--no-isolate"]) },
      { try OpenBench.seconds(stateLast) },
      { try OpenBench.seconds(stateBetween + ["--no-isolate"]) },
      { try OpenBench.seconds(stateBetween) },
      { try OpenBench.seconds(verify + ["--no-isolate"]) },
      { try OpenBench.seconds(verify) },
    ]
    if let exportLog {
      let page = "\(directory)/bench-export.html"
      let devTools = "\(directory)/bench-export.json"
      let html = replay + ["export", exportLog.path, "--html", page, "--overwrite"]
      let redux = replay + ["export", exportLog.path, "--redux-devtools", devTools, "--overwrite"]
      commands += [
        { try OpenBench.seconds(html + ["--no-isolate"]) }, { try OpenBench.seconds(html) },
        { try OpenBench.seconds(redux + ["--no-isolate"]) }, { try OpenBench.seconds(redux) },
      ]
    }
    let processes = try interleaved(repetitions, commands)
    let size = log.stateSize.rawValue
    let actions = grouped(log.actionCount)
    /// A row of `pair`: the worker's figure `subject` against the same work in process.
    func row(
      _ id: String, _ title: String, _ pair: (inProcess: Figure, worker: Figure),
      target: Double?, note: String
    ) -> Row {
      Row(
        id: id + suffix, title: "\(title) (\(size) state)", subject: pair.worker,
        baseline: pair.inProcess,
        target: log.stateSize == .small ? target.map { .ratioAtMost($0) } : nil, note: note)
    }
    func session(_ what: String, _ at: Int) -> (inProcess: Figure, worker: Figure) {
      (
        Figure(label: "in-process \(what)", unit: .seconds, sample: samples[at]),
        Figure(label: "isolated \(what)", unit: .seconds, sample: samples[at + 1])
      )
    }
    func process(_ label: String, _ at: Int) -> (inProcess: Figure, worker: Figure) {
      (
        Figure(label: "--no-isolate", unit: .seconds, sample: processes[at]),
        Figure(label: label, unit: .seconds, sample: processes[at + 1])
      )
    }
    return [
      row(
        "8a", "goto across half the log: worker process vs in process", session("goto", 0),
        target: 1.5,
        note: "\(actions) actions; goto to \(range.lowerBound + 1 + half), from the nearest "
          + "checkpoint as a session does; the worker started and warmed by a first state, "
          + "shown \(Self.pauseMilliseconds) ms before the goto"),
      row(
        "8b", "one step forward, state shown: worker process vs in process", session("step", 2),
        target: 1.5,
        note:
          "median over \(positions) random positions, each step taken \(Self.pauseMilliseconds) ms "
          + "after the state before it was shown; the state crosses the pipe as JSON text"),
      row(
        "8e", "session goto across half the log (cursor only): worker vs in process",
        session("goto", 4), target: 1.5,
        note: "the state is rebuilt but not sent (`reach`): what `goto` costs before `print`"),
      row(
        "8f", "session step (cursor only): worker process vs in process", session("step", 6),
        target: 1.5,
        note: "the state is rebuilt but not sent (`reach`): what `next` costs before `print`; "
          + "within the stretch the worker rebuilt ahead, no round trip"),
      row(
        "8c", "`replay state --at last`: default vs --no-isolate",
        process("state --at last", 0), target: 1.2,
        note: "the last position has a checkpoint: no worker is started"),
      row(
        "8d", "`replay state --at N` between checkpoints: default vs --no-isolate",
        process("state --at \(between)", 2), target: nil,
        note: "the worker opens the log a second time before it reduces"),
      row(
        "8g", "`replay verify` (walks the whole log): default vs --no-isolate",
        process("verify", 4), target: 1.2,
        note: "every action decoded and every checkpoint rebuilt and compared, in one request to "
          + "the worker (a walk of the log runs whole there)"),
    ]
      + (exportLog.map { exportLog in
        let exported = grouped(exportLog.actionCount)
        return [
          row(
            "8h", "`replay export --html` of a \(exported)-action log: default vs --no-isolate",
            process("export --html", 6), target: 1.2,
            note: "every state rebuilt and diffed with the one before; the states come from the "
              + "worker a batch at a time (StateTextWalk: 4 MiB a reply, the next asked for ahead)"),
          row(
            "8i",
            "`replay export --redux-devtools` of a \(exported)-action log: default vs --no-isolate",
            process("export --redux-devtools", 8), target: 1.2,
            note:
              "every state written out; the states come from the worker a batch at a time, the next "
              + "asked for ahead"),
        ]
      } ?? [])
  }

  /// How long a user looks at a state before the next step, in this bench: far less than a
  /// keypress takes.
  static let pauseMilliseconds = 2

  /// The position just before the last checkpoint: rebuilding it reduces from the checkpoint
  /// before that one.
  static func positionBetweenCheckpoints(_ log: ReplayLog) throws -> Int {
    guard let last = log.checkpointSeqs.last, last - 1 > log.positions.lowerBound else {
      throw BenchError("the log has no checkpoint to measure between")
    }
    return last - 1
  }
}

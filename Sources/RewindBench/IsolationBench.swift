import ReplayCLI
import RewindExamples
import RewindReplay

/// (8) What running the app's reducer in a worker process (the default of `replay`) costs
/// against running it in process (`--no-isolate`), on the same log in the same run: a goto
/// across half the log and a single step, through the timeline a session uses, and
/// `replay state --at last` (and at a position between checkpoints) as whole processes.
struct IsolationBench {
  let log: BenchLog
  let repetitions: Int
  /// Random positions for the steps, per repetition.
  let positions: Int

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
      let timeline: any AnyTimeline =
        isolated ? IsolatedTimeline(local: local, recovery: replayLog.recovery) : local
      // Warmed the way a session is before its first goto: a state rebuilt from a checkpoint
      // and shown, so that one-time costs of a new process (the runtime's type lookups on the
      // first decode and encode) are paid before the clock starts.
      _ = try timeline.stateJSON(at: range.lowerBound + 1 + warmUp)
      let target = range.lowerBound + 1 + half
      return try Stopwatch.seconds {
        if showing { _ = try timeline.stateJSON(at: target) } else { try timeline.reach(target) }
      }
    }
    // One step forward from a random position, each kind warmed there first; the least of three
    // tries counts (a preemption costs as much as the step).
    let here = try app.timeline(for: replayLog)
    let isolated = IsolatedTimeline(
      local: try app.timeline(for: replayLog), recovery: replayLog.recovery)
    var stepPositions: [Int] = []
    for _ in 0..<positions {
      stepPositions.append(range.lowerBound + 1 + generator.next(range.count - 3))
    }
    func steps(_ timeline: any AnyTimeline, showing: Bool) throws -> Double {
      var total = 0.0
      for position in stepPositions {
        var best = Double.infinity
        for _ in 0..<3 {
          _ = try timeline.stateJSON(at: position)
          best = min(
            best,
            try Stopwatch.seconds {
              if showing {
                _ = try timeline.stateJSON(at: position + 1)
              } else {
                try timeline.reach(position + 1)
              }
            })
        }
        total += best
      }
      return total / Double(stepPositions.count)
    }
    let samples = try interleaved(
      repetitions,
      [
        { try goto(isolated: false, showing: true) }, { try goto(isolated: true, showing: true) },
        { try steps(here, showing: true) }, { try steps(isolated, showing: true) },
        { try goto(isolated: false, showing: false) }, { try goto(isolated: true, showing: false) },
        { try steps(here, showing: false) }, { try steps(isolated, showing: false) },
      ])

    let replay = ReplayCommand.prefix
    let between = try Self.positionBetweenCheckpoints(replayLog)
    let stateLast = replay + ["state", log.path, "--at", "last"]
    let stateBetween = replay + ["state", log.path, "--at", String(between)]
    let processes = try interleaved(
      repetitions,
      [
        { try OpenBench.seconds(stateLast + ["--no-isolate"]) },
        { try OpenBench.seconds(stateLast) },
        { try OpenBench.seconds(stateBetween + ["--no-isolate"]) },
        { try OpenBench.seconds(stateBetween) },
      ])
    let size = log.stateSize.rawValue
    let actions = grouped(log.actionCount)
    return [
      Row(
        id: "8a\(suffix)",
        title: "goto across half the log: worker process vs in process (\(size) state)",
        subject: Figure(label: "isolated goto", unit: .seconds, sample: samples[1]),
        baseline: Figure(label: "in-process goto", unit: .seconds, sample: samples[0]),
        target: log.stateSize == .small ? .ratioAtMost(1.5) : nil,
        note: "\(actions) actions; goto to \(range.lowerBound + 1 + half), from the nearest "
          + "checkpoint as a session does; the worker started and warmed by a first state"),
      Row(
        id: "8b\(suffix)",
        title: "one step forward, state shown: worker process vs in process (\(size) state)",
        subject: Figure(label: "isolated step", unit: .seconds, sample: samples[3]),
        baseline: Figure(label: "in-process step", unit: .seconds, sample: samples[2]),
        target: log.stateSize == .small ? .ratioAtMost(1.5) : nil,
        note: "mean over \(positions) random positions of the least of 3 tries; the state "
          + "crosses the pipe as JSON text"),
      Row(
        id: "8e\(suffix)",
        title:
          "session goto across half the log (cursor only): worker vs in process (\(size) state)",
        subject: Figure(label: "isolated goto", unit: .seconds, sample: samples[5]),
        baseline: Figure(label: "in-process goto", unit: .seconds, sample: samples[4]),
        target: log.stateSize == .small ? .ratioAtMost(1.5) : nil,
        note: "the state is rebuilt but not sent (`reach`): what `goto` costs before `print`"),
      Row(
        id: "8f\(suffix)",
        title: "session step (cursor only): worker process vs in process (\(size) state)",
        subject: Figure(label: "isolated step", unit: .seconds, sample: samples[7]),
        baseline: Figure(label: "in-process step", unit: .seconds, sample: samples[6]),
        target: log.stateSize == .small ? .ratioAtMost(1.5) : nil,
        note: "the state is rebuilt but not sent (`reach`): what `next` costs before `print`"),
      Row(
        id: "8c\(suffix)",
        title: "`replay state --at last`: default vs --no-isolate (\(size) state)",
        subject: Figure(label: "state --at last", unit: .seconds, sample: processes[1]),
        baseline: Figure(label: "--no-isolate", unit: .seconds, sample: processes[0]),
        target: log.stateSize == .small ? .ratioAtMost(1.2) : nil,
        note: "the last position has a checkpoint: no worker is started"),
      Row(
        id: "8d\(suffix)",
        title: "`replay state --at N` between checkpoints: default vs --no-isolate (\(size) state)",
        subject: Figure(label: "state --at \(between)", unit: .seconds, sample: processes[3]),
        baseline: Figure(label: "--no-isolate", unit: .seconds, sample: processes[2]),
        note: "the worker opens the log a second time before it reduces"),
    ]
  }

  /// The position just before the last checkpoint: rebuilding it reduces from the checkpoint
  /// before that one.
  static func positionBetweenCheckpoints(_ log: ReplayLog) throws -> Int {
    guard let last = log.checkpointSeqs.last, last - 1 > log.positions.lowerBound else {
      throw BenchError("the log has no checkpoint to measure between")
    }
    return last - 1
  }
}

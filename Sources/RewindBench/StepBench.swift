import RewindExamples
import RewindReplay

/// (4) One step back at random positions against a full rebuild, and (7) against a tool that
/// re-reduces from the start on every step back.
struct StepBench {
  let log: BenchLog
  let repetitions: Int
  /// Random positions per repetition.
  let positions: Int
  /// Steps back taken from each position (the worst one counts).
  let walk: Int
  /// How many times each walk runs (a step's cost is the least it took).
  var trials = 3

  func run() throws -> [Row] {
    let replayLog = try ReplayLog(path: log.path)
    let range = (replayLog.firstSeq + 1)...replayLog.lastSeq
    let initial = try Timeline(log: replayLog, reducer: todoReducer).state(at: range.lowerBound - 1)
    let timeline = Timeline(log: replayLog, reducer: todoReducer)
    var actions: [TodoAction] = []
    actions.reserveCapacity(replayLog.actionCount)
    for seq in range.lowerBound...range.upperBound {
      if let action = try timeline.action(at: seq) { actions.append(action) }
    }
    var generator = SplitMix(seed: 42)
    var firstSteps: [Double] = []
    var naiveSteps: [Double] = []

    let fullRebuild = { () throws -> Double in
      let fresh = Timeline(log: replayLog, reducer: todoReducer, usesCheckpoints: false)
      return try Stopwatch.seconds { _ = try fresh.state(at: range.upperBound) }
    }
    let worstStepBack = { () throws -> Double in
      var worst = 0.0
      for _ in 0..<positions {
        let position = range.lowerBound + walk + generator.next(range.count - walk)
        // The walk runs `trials` times, each on a fresh timeline; a step costs the least it took.
        // On a shared machine one preemption costs milliseconds, as much as the steps measured.
        var steps = [Double](repeating: .infinity, count: walk + 1)
        for _ in 0..<trials {
          let fresh = Timeline(log: replayLog, reducer: todoReducer)
          _ = try fresh.state(at: position)
          for step in 1...walk {
            let seconds = try Stopwatch.seconds { _ = try fresh.state(at: position - step) }
            steps[step] = min(steps[step], seconds)
          }
        }
        firstSteps.append(steps[1])
        worst = max(worst, steps[1...].max() ?? 0)
        // What a tool that keeps only the actions does for the same step back.
        naiveSteps.append(
          Stopwatch.seconds {
            var state = initial
            for action in actions[..<(position - 1 - replayLog.firstSeq + 1)] {
              todoReducer.reduce(&state, action)
            }
            precondition(state.nextID > 0)
          })
      }
      return worst
    }
    let samples = try interleaved(repetitions, [fullRebuild, worstStepBack])
    let note =
      "\(grouped(log.actionCount)) actions, \(log.stateSize.rawValue) state; \(positions) random positions × \(walk) steps back per repetition, each walk run \(trials) times (a step costs the least of its \(trials) times)"
    let suffix = log.stateSize == .small ? "a" : "b"
    return [
      Row(
        id: "4\(suffix)",
        title:
          "worst single step back at random positions vs a full rebuild (\(log.stateSize.rawValue) state)",
        subject: Figure(label: "worst step back", unit: .seconds, sample: samples[1]),
        baseline: Figure(label: "full rebuild", unit: .seconds, sample: samples[0]),
        target: .ratioAtMost(1.0 / 1_000), note: note),
      Row(
        id: "7a\(suffix)",
        title:
          "step back vs re-reducing from the start on every step back (\(log.stateSize.rawValue) state)",
        subject: Figure(label: "Rewind step back", unit: .seconds, sample: Sample(firstSteps)),
        baseline: Figure(label: "re-reduce from start", unit: .seconds, sample: Sample(naiveSteps)),
        note:
          "same positions; the naive tool holds every decoded action in memory and reduces from the initial state"
      ),
    ]
  }
}

/// A small deterministic generator for positions (SplitMix64).
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(max(1, bound)))
  }
}

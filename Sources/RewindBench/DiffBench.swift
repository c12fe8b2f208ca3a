import RewindExamples
import RewindReplay

/// (6) `replay diff` of two logs that differ in a few places, against loading both.
struct DiffBench {
  let pair: (BenchLog, BenchLog)
  let differences: Int
  let repetitions: Int

  func run() throws -> [Row] {
    let (a, b) = pair
    let found = try LogDiff(
      ReplayLog(path: a.path, identifiesActions: true),
      ReplayLog(path: b.path, identifiesActions: true),
      timelines: nil)
    guard found.hunks.count == differences else {
      throw BenchError("the diff pair differs in \(found.hunks.count) places, not \(differences)")
    }
    let samples = try interleaved(
      repetitions,
      [
        {
          try Stopwatch.seconds {
            let status = ReplayCommand.runDiscarding(["diff", a.path, b.path])
            guard status == 1 else { throw BenchError("replay diff exited \(status), expected 1") }
          }
        },
        {
          try Stopwatch.seconds {
            _ = try ReplayLog(path: a.path)
            _ = try ReplayLog(path: b.path)
          }
        },
      ])
    return [
      Row(
        id: "6",
        title: "`replay diff` of two logs differing in \(differences) places vs loading both",
        subject: Figure(label: "replay diff (in process)", unit: .seconds, sample: samples[0]),
        baseline: Figure(label: "open both logs", unit: .seconds, sample: samples[1]),
        target: .ratioAtMost(1.2),
        note: "2 × \(grouped(a.actionCount)) actions, small state, states compared")
    ]
  }
}

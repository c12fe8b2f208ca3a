/// (10) `replay compat LOG` — every action and state decoded with the app's types, no reducer —
/// against opening the same log (`replay info LOG`); both whole processes started the same way.
struct CompatBench {
  let log: BenchLog
  let repetitions: Int

  func run() throws -> [Row] {
    let replay = ReplayCommand.prefix
    let compat = replay + ["compat", log.path]
    let info = replay + ["info", log.path]
    for command in [compat, info] {
      let check = BenchPlatform.run(command)
      guard check.status == 0 else {
        throw BenchError("\(command.joined(separator: " ")) failed: \(check.status)")
      }
    }
    let samples = try interleaved(
      repetitions, [{ try OpenBench.seconds(compat) }, { try OpenBench.seconds(info) }])
    return [
      Row(
        id: "10",
        title: "check that every action and state decodes (`replay compat LOG`) vs opening the "
          + "log (`replay info LOG`)",
        subject: Figure(label: "replay compat", unit: .seconds, sample: samples[0]),
        baseline: Figure(label: "replay info", unit: .seconds, sample: samples[1]),
        target: .ratioAtMost(2),
        note: "\(grouped(log.actionCount)) actions, \(log.stateSize.rawValue) state, "
          + "\(FigureUnit.bytes.format(Double(log.fileBytes))); \(ReplayCommand.description)")
    ]
  }
}

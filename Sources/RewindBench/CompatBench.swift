/// (10) `replay compat LOG` — every action and state decoded with the app's types, no reducer —
/// against opening the same log (`replay state LOG --at last`: the log indexed, its last
/// checkpoint read); both whole processes started the same way. (`replay info` also checks every
/// line's JSON as it opens the log, so it is no longer the cost of opening alone.)
struct CompatBench {
  let log: BenchLog
  let repetitions: Int

  func run() throws -> [Row] {
    let replay = ReplayCommand.prefix
    let compat = replay + ["compat", log.path]
    let open = replay + ["state", log.path, "--at", "last"]
    for command in [compat, open] {
      let check = BenchPlatform.run(command)
      guard check.status == 0 else {
        throw BenchError("\(command.joined(separator: " ")) failed: \(check.status)")
      }
    }
    let samples = try interleaved(
      repetitions, [{ try OpenBench.seconds(compat) }, { try OpenBench.seconds(open) }])
    return [
      Row(
        id: "10",
        title: "check that every action and state decodes (`replay compat LOG`) vs opening the "
          + "log (`replay state LOG --at last`)",
        subject: Figure(label: "replay compat", unit: .seconds, sample: samples[0]),
        baseline: Figure(label: "replay state --at last", unit: .seconds, sample: samples[1]),
        target: .ratioAtMost(2),
        note: "\(grouped(log.actionCount)) actions, \(log.stateSize.rawValue) state, "
          + "\(FigureUnit.bytes.format(Double(log.fileBytes))); \(ReplayCommand.description)")
    ]
  }
}

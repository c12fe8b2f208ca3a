/// (3) `replay state LOG --at last` on a log with checkpoints, against `wc -l` on the same file;
/// both are whole processes started the same way.
struct OpenBench {
  let logs: [BenchLog]
  let repetitions: Int

  func run() throws -> [Row] {
    guard let wc = ["/usr/bin/wc", "/bin/wc"].first(where: BenchPlatform.isExecutable) else {
      return logs.map { log in
        Row(
          id: "3", title: "replay state --at last vs wc -l",
          subject: Figure(label: "replay state", unit: .seconds, sample: Sample([0])),
          baseline: nil, note: "skipped: no wc")
      }
    }
    let replay = ReplayCommand.prefix
    return try logs.enumerated().map { index, log in
      let state = replay + ["state", log.path, "--at", "last"]
      let check = BenchPlatform.run(state)
      guard check.status == 0 else {
        throw BenchError("\(state.joined(separator: " ")) failed: \(check.status)")
      }
      let samples = try interleaved(
        repetitions,
        [
          { try Self.seconds(state) },
          { try Self.seconds([wc, "-l", log.path]) },
        ])
      return Row(
        id: index == 0 ? "3" : "3\(Character(UnicodeScalar(UInt8(97 + index))))",
        title:
          "open a log with checkpoints and print its last state (`replay state LOG --at last`) vs `wc -l`",
        subject: Figure(label: "replay state --at last", unit: .seconds, sample: samples[0]),
        baseline: Figure(label: "wc -l", unit: .seconds, sample: samples[1]),
        target: log.stateSize == .small ? .ratioAtMost(10) : nil,
        note: "\(grouped(log.actionCount)) actions, \(log.stateSize.rawValue) state, "
          + "\(FigureUnit.bytes.format(Double(log.fileBytes))); \(ReplayCommand.description)")
    }
  }

  static func seconds(_ command: [String], expecting expected: Int32 = 0) throws -> Double {
    let (status, seconds) = BenchPlatform.run(command)
    guard status == expected else {
      throw BenchError("\(command.joined(separator: " ")) exited \(status)")
    }
    return seconds
  }
}

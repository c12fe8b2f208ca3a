import Foundation
import RewindExamples
import RewindReplay

/// (5) Peak memory stepping through a whole log, against the log's size, and (7) against keeping
/// every state. Each figure comes from a fresh child process (this binary in its `__memory`
/// mode), which reports its own peak resident set size.
struct MemoryBench {
  let logs: [BenchLog]
  let repetitions: Int
  let directory: String
  /// The most states the every-state child keeps; beyond it, the figure is extrapolated.
  let everyStateLimit: [StateSize: Int]

  func run() throws -> [Row] {
    var rows: [Row] = []
    for log in logs {
      let suffix = log.stateSize == .small ? "a" : "b"
      var peaks: [Double] = []
      for _ in 0..<repetitions {
        peaks.append(try Self.child(["step", log.path], directory: directory).peak)
      }
      let stepping = Figure(label: "peak RSS stepping through", unit: .bytes, sample: Sample(peaks))
      rows.append(
        Row(
          id: "5\(suffix)",
          title:
            "peak memory stepping through the whole log vs the log's size (\(log.stateSize.rawValue) state)",
          subject: stepping,
          baseline: Figure(
            label: "log file", unit: .bytes,
            sample: Sample(peaks.map { _ in Double(log.fileBytes) })),
          target: .ratioAtMost(1.2),
          note:
            "\(grouped(log.actionCount)) actions; every position in order, default Timeline (stride 64)"
        ))
      let limit = min(log.actionCount, everyStateLimit[log.stateSize] ?? log.actionCount)
      var every = try Self.child(["every-state", log.path, String(limit)], directory: directory)
        .peak
      var note = "ReSwift-Recorder / Redux DevTools computedStates: one state per action in memory"
      if limit < log.actionCount {
        let half = try Self.child(
          ["every-state", log.path, String(limit / 2)], directory: directory
        ).peak
        let perState = (every - half) / Double(limit - limit / 2)
        every += perState * Double(log.actionCount - limit)
        note +=
          "; extrapolated from \(grouped(limit)) states (\(grouped(Int(perState))) bytes per state)"
      }
      rows.append(
        Row(
          id: "7b\(suffix)",
          title:
            "peak memory stepping through vs keeping every state (\(log.stateSize.rawValue) state)",
          subject: Figure(label: "Rewind", unit: .bytes, sample: Sample([stepping.sample.median])),
          baseline: Figure(label: "every state kept", unit: .bytes, sample: Sample([every])),
          note: note))
    }
    return rows
  }

  /// Runs `rewind-bench __memory ARGS` and reads its report.
  static func child(_ arguments: [String], directory: String) throws -> (
    peak: Double, seconds: Double
  ) {
    let output = "\(directory)/memory-child.out"
    let command = [BenchPlatform.executablePath, "__memory"] + arguments
    let (status, _) = BenchPlatform.run(command, outputPath: output)
    guard status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else {
      throw BenchError("\(command.joined(separator: " ")) failed with status \(status)")
    }
    let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard fields.count == 2 else { throw BenchError("unexpected memory report: \(text)") }
    return (fields[0], fields[1])
  }

  /// The child side: `step LOG` or `every-state LOG LIMIT`; prints `peakBytes seconds`.
  static func childMain(_ arguments: [String]) throws {
    guard arguments.count >= 2 else {
      throw BenchError("usage: __memory step LOG | every-state LOG LIMIT")
    }
    let log = try ReplayLog(path: arguments[1])
    let seconds: Double
    switch arguments[0] {
    case "step":
      let timeline = Timeline(log: log, reducer: todoReducer)
      seconds = try Stopwatch.seconds {
        var checksum = 0
        for position in log.positions { checksum &+= try timeline.state(at: position).nextID }
        precondition(checksum != 0)
      }
    case "every-state":
      let limit = arguments.count > 2 ? Int(arguments[2]) ?? log.actionCount : log.actionCount
      let timeline = Timeline(log: log, reducer: todoReducer, usesCheckpoints: false)
      var states: [TodoState] = []
      seconds = try Stopwatch.seconds {
        var state = try timeline.state(at: log.positions.lowerBound)
        states.append(state)
        for seq in log.firstSeq..<(log.firstSeq + limit) {
          if let action = try timeline.action(at: seq) { todoReducer.reduce(&state, action) }
          states.append(state)
        }
      }
      precondition(states.count == limit + 1)
    default:
      throw BenchError("unknown memory mode \(arguments[0])")
    }
    print(BenchPlatform.peakResidentBytes(), seconds)
  }
}

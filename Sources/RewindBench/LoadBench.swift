import CodegenSamples
import Foundation
import Rewind
import RewindExamples
import RewindReplay

/// (2) Loading a log and rebuilding every state, against parsing the same file with
/// `JSONSerialization`, orjson, and Foundation's `JSONDecoder` path — the harness's own, and the
/// engine's (`LogCoder.foundation`).
struct LoadBench {
  let log: BenchLog
  let repetitions: Int

  /// Opens the log and rebuilds every state through the reducer, from the header (no
  /// checkpoints), decoding with `coder`; returns the last state.
  static func loadAndRebuild(_ path: String, coder: LogCoder = .rewind) throws -> TodoState {
    let replayLog = try ReplayLog(path: path)
    let timeline = Timeline(
      log: replayLog, reducer: todoReducer, usesCheckpoints: false, coder: coder)
    return try timeline.state(at: replayLog.lastSeq)
  }

  /// ``loadAndRebuild(_:coder:)`` with every action decoded through `init(from:)`, not the
  /// action's direct path.
  static func loadAndRebuildThroughCodable(_ path: String) throws -> TodoState {
    let replayLog = try ReplayLog(path: path)
    let timeline = Timeline(log: replayLog, reducer: codableOnlyTodoReducer, usesCheckpoints: false)
    return try timeline.state(at: replayLog.lastSeq)
  }

  /// ``loadAndRebuild(_:coder:)`` with every action decoded as a `SampleTodoAction`, through
  /// the direct path rewind-codegen generated from its `Codable`.
  static func loadAndRebuildGenerated(_ path: String) throws -> TodoState {
    let replayLog = try ReplayLog(path: path)
    let timeline = Timeline(log: replayLog, reducer: generatedTodoReducer, usesCheckpoints: false)
    return try timeline.state(at: replayLog.lastSeq)
  }

  func run() throws -> [Row] {
    let path = log.path
    let rewindState = try Self.loadAndRebuild(path)
    guard try FoundationBaseline.loadAndRebuild(path) == rewindState,
      try Self.loadAndRebuild(path, coder: .foundation) == rewindState,
      try Self.loadAndRebuildThroughCodable(path) == rewindState,
      try Self.loadAndRebuildGenerated(path) == rewindState
    else {
      throw BenchError("Rewind and Foundation rebuild different final states of \(path)")
    }
    let orjson = OrjsonBaseline.isAvailable
    var measurements: [() throws -> Double] = [
      { try Stopwatch.seconds { _ = try Self.loadAndRebuild(path) } },
      { try Stopwatch.seconds { _ = try FoundationBaseline.loadAndRebuild(path) } },
      { try Stopwatch.seconds { _ = try FoundationBaseline.parseWithJSONSerialization(path) } },
      { try Stopwatch.seconds { _ = try Self.loadAndRebuild(path, coder: .foundation) } },
      { try Stopwatch.seconds { _ = try Self.loadAndRebuildThroughCodable(path) } },
      { try Stopwatch.seconds { _ = try Self.loadAndRebuildGenerated(path) } },
    ]
    if orjson { measurements.append({ try OrjsonBaseline.parseSeconds(path) }) }
    let orjsonIndex = 6
    let samples = try interleaved(repetitions, measurements)
    let subject = Figure(label: "Rewind load + rebuild", unit: .seconds, sample: samples[0])
    let note =
      "\(grouped(log.actionCount)) actions, small state, \(FigureUnit.bytes.format(Double(log.fileBytes)))"
    var rows = [
      Row(
        id: "2a", title: "full load and rebuild of every state vs Foundation's JSONDecoder path",
        subject: subject,
        baseline: Figure(label: "JSONDecoder + reduce", unit: .seconds, sample: samples[1]),
        target: .fasterBy(8), note: note),
      Row(
        id: "2b", title: "full load and rebuild vs JSONSerialization parsing each line",
        subject: subject,
        baseline: Figure(label: "JSONSerialization parse", unit: .seconds, sample: samples[2]),
        note: note),
    ]
    if orjson {
      rows.append(
        Row(
          id: "2c", title: "full load and rebuild vs orjson parsing each line (parse only)",
          subject: subject,
          baseline: Figure(
            label: "orjson.loads per line", unit: .seconds, sample: samples[orjsonIndex]),
          target: .ratioAtMost(1.5), note: note))
    } else {
      rows.append(
        Row(
          id: "2c", title: "full load and rebuild vs orjson parsing each line (parse only)",
          subject: subject, baseline: nil, target: .ratioAtMost(1.5),
          note: "skipped: `python3 -c 'import orjson'` failed on this machine"))
    }
    rows.append(
      Row(
        id: "2d",
        title:
          "full load and rebuild: Rewind's coder vs Foundation's JSONDecoder in the same engine",
        subject: subject,
        baseline: Figure(
          label: "the timeline with LogCoder.foundation", unit: .seconds, sample: samples[3]),
        note: note + "; both on two cores"))
    rows.append(
      Row(
        id: "2e",
        title: "full load and rebuild: the action's direct path vs the same action through Codable",
        subject: subject,
        baseline: Figure(label: "actions through init(from:)", unit: .seconds, sample: samples[4]),
        note: note + "; both on two cores"))
    rows.append(
      Row(
        id: "2f",
        title:
          "full load and rebuild: a direct path generated from Codable (rewind-codegen) vs the hand-written one",
        subject: Figure(label: "actions, generated path", unit: .seconds, sample: samples[5]),
        baseline: Figure(label: "actions, hand-written path", unit: .seconds, sample: samples[0]),
        target: .ratioAtMost(1.5),
        note: note + "; the generated side maps each action to a TodoAction"))
    return rows
  }
}

/// Python's orjson parsing every line of a file, timed inside Python (interpreter start-up and
/// reading the file are not counted).
enum OrjsonBaseline {
  static let script = """
    import sys, time, orjson
    data = open(sys.argv[1], 'rb').read()
    start = time.perf_counter()
    for line in data.split(b'\\n'):
        if line:
            orjson.loads(line)
    print(time.perf_counter() - start)
    """

  static var isAvailable: Bool {
    guard let python = BenchPlatform.which("python3") else { return false }
    return BenchPlatform.run([python, "-c", "import orjson"]).status == 0
  }

  static func parseSeconds(_ path: String) throws -> Double {
    guard let python = BenchPlatform.which("python3"),
      let text = BenchPlatform.output(of: [python, "-c", script, path]),
      let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchError("python3 with orjson failed on \(path)") }
    return seconds
  }
}

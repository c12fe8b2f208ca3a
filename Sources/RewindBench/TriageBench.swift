import Foundation
import ReplayCLI
import Rewind
import RewindExamples
import RewindReplay

/// (16) `replay triage` over many logs — each replayed whole, crash-safe, by one worker process
/// per core that serves log after log — against `replay verify` of the same logs one after the
/// other in one process (`--no-isolate`), divided by the cores: what crash isolation and the
/// grouping cost on top of the replay itself. The logs are todo sessions of 1,000 actions each
/// (in a folder per build): 80 % closed, 10 % cut off where the reducer does not crash, 5 % that
/// crash on a `move` from a position out of range and 5 % on a `move` to one. A crash cannot be
/// verified in one process (it would end it), so verify replays those logs without their crashing
/// actions: the same replay, less one or two actions of a thousand.
///
/// `REWIND_BENCH_KEEP_LOGS=DIR` writes the logs into `DIR/logs` (and the crash logs without their
/// crash into `DIR/verify`) and keeps them, reused by later runs: a folder for other engines
/// (docs/analysis.md) to time their queries over.
struct TriageBench {
  /// Where the logs go (removed after the run unless kept).
  let directory: String
  /// How many logs.
  let logCount: Int
  /// Actions per log.
  let actionsPerLog = 1_000

  /// The builds the logs are spread over, with the folder of each.
  static let builds = [
    ("1.4.2", "87"), ("1.5.0", "90"), ("1.5.1", "93"),
  ]

  func run() throws -> [Row] {
    let kept = ProcessInfo.processInfo.environment["REWIND_BENCH_KEEP_LOGS"].flatMap {
      $0.isEmpty ? nil : $0
    }
    let root = kept ?? "\(directory)/triage"
    defer { if kept == nil { try? FileManager.default.removeItem(atPath: root) } }
    let logs = try generate(in: root)
    let cores = ProcessInfo.processInfo.activeProcessorCount

    // verify, one log after the other, in this process.
    var verifyFailures = 0
    let verifySeconds = Stopwatch.seconds {
      for path in logs.verified
      where ReplayCommand.runDiscarding(["verify", path, "--no-isolate"]) != 0 {
        verifyFailures += 1
      }
    }
    guard verifyFailures == 0 else {
      throw BenchError("replay verify failed on \(verifyFailures) of the logs")
    }
    // triage, a whole process with its workers.
    let records = "\(root)/records.jsonl"
    let command = ReplayCommand.prefix + ["triage", "\(root)/logs", "--records", records]
    let (status, triageSeconds) = BenchPlatform.run(command)
    guard status == 1 else {
      throw BenchError("\(command.joined(separator: " ")) exited \(status), not 1 (crashes found)")
    }
    let endings = try Self.endings(inRecords: records)
    let expected = [
      "clean": logs.clean, "stopped-elsewhere": logs.stopped, "crashed": logs.crashed,
    ]
    guard endings == expected else {
      throw BenchError("triage found \(endings), expected \(expected)")
    }
    let perCore = verifySeconds / Double(cores)
    return [
      Row(
        id: "16",
        title: "triage \(grouped(logCount)) logs of \(grouped(actionsPerLog)) actions "
          + "(`replay triage DIR`) vs `replay verify` of each in one process ÷ \(cores) cores",
        subject: Figure(label: "replay triage", unit: .seconds, sample: Sample([triageSeconds])),
        baseline: Figure(
          label: "replay verify ÷ \(cores)", unit: .seconds, sample: Sample([perCore])),
        target: .ratioAtMost(2),
        note: "\(logs.crashed) crash (2 kinds), \(logs.stopped) cut off, \(logs.clean) clean; "
          + "verify in one process: \(fixed(verifySeconds, 1)) s; "
          + "\(fixed(Double(logCount) / triageSeconds, 0)) logs/s; \(ReplayCommand.description)")
    ]
  }

  /// The logs: the folder triage reads, and the files verify reads (a crash log without its
  /// crash), with how many end each way.
  struct Logs {
    var verified: [String] = []
    var clean = 0
    var stopped = 0
    var crashed = 0
  }

  /// Writes the logs under `root` (`logs/build-VERSION/NNNNN.jsonl`, `verify/NNNNN.jsonl`), or
  /// finds them there from an earlier run.
  func generate(in root: String) throws -> Logs {
    let fileManager = FileManager.default
    let marker = "\(root)/.complete-\(logCount)-\(actionsPerLog)"
    let reuses = fileManager.fileExists(atPath: marker)
    if !reuses {
      try? fileManager.removeItem(atPath: "\(root)/logs")
      try? fileManager.removeItem(atPath: "\(root)/verify")
      for (version, _) in Self.builds {
        try fileManager.createDirectory(
          atPath: "\(root)/logs/build-\(version)", withIntermediateDirectories: true)
      }
      try fileManager.createDirectory(atPath: "\(root)/verify", withIntermediateDirectories: true)
    }
    var logs = Logs()
    let start = Date(timeIntervalSince1970: 1_793_577_600)  // 2026-11-01
    for index in 0..<logCount {
      let (version, build) = Self.builds[index % Self.builds.count]
      let name = String(format: "%05d.jsonl", index)
      let path = "\(root)/logs/build-\(version)/\(name)"
      let kind = index % 20
      // Crashes: a `move` from a position out of range; an `add`, then a `move` to one.
      let crash: [TodoAction]
      switch kind {
      case 0: crash = [.move(from: 100_000, to: 0)]
      case 1: crash = [.add(title: "last"), .move(from: 0, to: 100_000)]
      default: crash = []
      }
      if !crash.isEmpty {
        logs.crashed += 1
        logs.verified.append("\(root)/verify/\(name)")
      } else if kind == 2 || kind == 3 {
        logs.stopped += 1
        logs.verified.append(path)
      } else {
        logs.clean += 1
        logs.verified.append(path)
      }
      guard !reuses else { continue }
      let (initial, actions) = BenchLogs.actions(
        count: actionsPerLog, stateSize: .small, seed: UInt64(index) &+ 1_000)
      var options = RecordingOptions(
        durability: .buffered(capacity: 1 << 20), checkpointInterval: 250, ifExists: .replace,
        build: BuildStamp(version: version, build: build, schema: todoSchema))
      options.reproducible = .init(
        session: "bench-\(name.dropLast(6))",
        recordedAt: LogComposer.timestamp(start.addingTimeInterval(Double(index) * 397)),
        secondsPerAction: 0.25)
      // Recorded by a reducer that survives the crashing actions, as the app's recorder writes an
      // action before the reducer gets it; replay runs the todo app's own reducer.
      let store = Store(initialState: initial, reducer: Self.survivingReducer)
      let recorder = try store.startRecording(to: path, app: "todo", options: options)
      for action in actions + crash { store.dispatch(action) }
      recorder.close()
      if case .stopped(let error) = recorder.status { throw error }
      guard kind <= 3 else { continue }
      // Cut off: the end record and the final checkpoint go.
      var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      while let last = lines.last, !last.contains(#""kind":"action""#) { lines.removeLast() }
      try (lines.joined(separator: "\n") + "\n").write(
        toFile: path, atomically: false, encoding: .utf8)
      if !crash.isEmpty {
        // What verify reads: the log up to its crash.
        let first =
          lines.firstIndex { $0.contains(#""seq":\#(actionsPerLog + 1),"#) } ?? lines.count
        try (lines[..<first].joined(separator: "\n") + "\n").write(
          toFile: "\(root)/verify/\(name)", atomically: false, encoding: .utf8)
      }
    }
    if !reuses { _ = fileManager.createFile(atPath: marker, contents: Data()) }
    return logs
  }

  /// The todo app's reducer, except that a `move` from or to a position out of range does
  /// nothing (where the app's reducer traps).
  static let survivingReducer = Reducer<TodoState, TodoAction> { state, action in
    if case .move(let from, let to) = action,
      !state.todos.indices.contains(from) || to < 0 || to >= state.todos.count
    {
      return
    }
    todoReducer.reduce(&state, action)
  }

  /// How many records end each way.
  static func endings(inRecords path: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\n") {
      guard let start = line.range(of: #""ending":""#)?.upperBound,
        let end = line[start...].firstIndex(of: "\"")
      else { continue }
      counts[String(line[start..<end]), default: 0] += 1
    }
    return counts
  }
}

import Foundation

/// The command line of the harness.
struct BenchOptions {
  var isQuick = false
  var wantsJSON = false
  var sections: Set<Int> = Set(1...16)
  var logDirectory: String?
  var jsonPath: String?

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--quick": isQuick = true
      case "--json": wantsJSON = true
      case "--only":
        guard let list = rest.popFirst() else { throw BenchError("--only needs a list like 1,2,5") }
        sections = Set(list.split(separator: ",").compactMap { Int($0) })
      case "--logs":
        guard let directory = rest.popFirst() else { throw BenchError("--logs needs a directory") }
        logDirectory = directory
      case "--json-out":
        guard let path = rest.popFirst() else { throw BenchError("--json-out needs a file") }
        jsonPath = path
      case "-h", "--help":
        print(
          "usage: rewind-bench [--quick] [--json] [--json-out FILE] [--only 1,2,...,16] [--logs DIR]"
        )
        exit(0)
      default:
        throw BenchError("unknown argument '\(argument)'; see rewind-bench --help")
      }
    }
  }
}

/// How big each workload is.
struct BenchScale {
  var logActions: Int
  var recordingActions: Int
  var bufferedActions: Int
  var diffActions: Int
  var repetitions: Int
  var slowRepetitions: Int
  var stepPositions: Int
  var everyStateLimit: [StateSize: Int]
  /// Items of the big states of section 9 (about 100 bytes of JSON each).
  var latencyItems: [Int]
  /// Dispatches timed per repetition in section 9.
  var latencyDispatches: Int

  static let full = BenchScale(
    logActions: 1_000_000, recordingActions: 200_000, bufferedActions: 1_000_000,
    diffActions: 100_000, repetitions: 5, slowRepetitions: 3, stepPositions: 20,
    everyStateLimit: [.small: 1_000_000, .large: 20_000],
    latencyItems: [10_000, 50_000, 200_000], latencyDispatches: 10_000)
  static let quick = BenchScale(
    logActions: 100_000, recordingActions: 50_000, bufferedActions: 200_000,
    diffActions: 20_000, repetitions: 3, slowRepetitions: 3, stepPositions: 5,
    everyStateLimit: [.small: 100_000, .large: 4_000],
    latencyItems: [10_000, 50_000], latencyDispatches: 3_000)
}

/// One run of the harness: generate the logs, run the sections, print the report.
struct BenchRun {
  let options: BenchOptions

  func run() throws {
    let scale = options.isQuick ? BenchScale.quick : .full
    let directory: String
    if let given = options.logDirectory {
      directory = given
      try FileManager.default.createDirectory(atPath: given, withIntermediateDirectories: true)
    } else {
      directory =
        NSTemporaryDirectory() + "rewind-bench-\(ProcessInfo.processInfo.processIdentifier)"
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    defer {
      if options.logDirectory == nil { try? FileManager.default.removeItem(atPath: directory) }
    }
    var report = Report(
      machine: BenchMachine.describe(), mode: options.isQuick ? "quick" : "full")
    let sections = options.sections
    func progress(_ text: String) {
      FileHandle.standardError.write(Data("rewind-bench: \(text)\n".utf8))
    }
    var small: BenchLog?
    var large: BenchLog?
    if !sections.isDisjoint(with: [2, 3, 4, 5, 7, 8, 10, 11]) {
      progress("generating a \(grouped(scale.logActions))-action log (small state)")
      small = try BenchLogs.log(
        in: directory, count: scale.logActions, stateSize: .small,
        reuses: options.logDirectory != nil)
    }
    if !sections.isDisjoint(with: [3, 4, 5, 7, 8]) {
      progress("generating a \(grouped(scale.logActions))-action log (large state)")
      large = try BenchLogs.log(
        in: directory, count: scale.logActions, stateSize: .large,
        reuses: options.logDirectory != nil)
    }
    /// Runs a section; a section that fails leaves an ERROR row and the others still run.
    func section(_ id: String, _ title: String, _ body: () throws -> [Row]) {
      progress("(\(id)) \(title)")
      do {
        report.rows += try body()
      } catch {
        progress("(\(id)) failed: \(error)")
        report.rows.append(
          Row(
            id: id, title: title,
            subject: Figure(label: "error", unit: .seconds, sample: Sample([0])), baseline: nil,
            note: "ERROR: \(error)"))
      }
    }
    if sections.contains(1) {
      section("1", "recording") {
        try RecordingBench(
          directory: directory, actionCount: scale.recordingActions,
          bufferedActionCount: scale.bufferedActions, repetitions: scale.repetitions
        ).run()
      }
    }
    if sections.contains(2), let small {
      section("2", "load and rebuild") {
        try LoadBench(log: small, repetitions: scale.slowRepetitions).run()
      }
    }
    if sections.contains(3), let small, let large {
      section("3", "replay state --at last") {
        try OpenBench(logs: [small, large], repetitions: scale.repetitions).run()
      }
    }
    if !sections.isDisjoint(with: [4, 7]), let small, let large {
      section("4", "step back") {
        try [small, large].flatMap { log in
          try StepBench(
            log: log, repetitions: scale.slowRepetitions, positions: scale.stepPositions,
            walk: 300
          ).run()
        }
      }
    }
    if !sections.isDisjoint(with: [5, 7]), let small, let large {
      section("5", "peak memory") {
        try MemoryBench(
          logs: [small, large], repetitions: scale.slowRepetitions, directory: directory,
          everyStateLimit: scale.everyStateLimit
        ).run()
      }
    }
    if sections.contains(8), let small, let large {
      let exportActions = min(100_000, scale.logActions)
      progress("generating a \(grouped(exportActions))-action log (small state) for the exports")
      let exportLog = try BenchLogs.log(
        in: directory, count: exportActions, stateSize: .small,
        reuses: options.logDirectory != nil)
      section("8", "crash isolation") {
        try [small, large].flatMap { log in
          try IsolationBench(
            log: log, repetitions: scale.slowRepetitions, positions: scale.stepPositions,
            exportLog: log.stateSize == .small ? exportLog : nil, directory: directory
          ).run()
        }
      }
    }
    if sections.contains(10), let small {
      section("10", "replay compat") {
        try CompatBench(log: small, repetitions: scale.repetitions).run()
      }
    }
    if sections.contains(11), let small {
      section("11", "replay history") {
        try HistoryBench(log: small, repetitions: scale.slowRepetitions).run()
      }
    }
    if sections.contains(12) {
      let exportActions = min(100_000, scale.logActions)
      let exportLog = try BenchLogs.log(
        in: directory, count: exportActions, stateSize: .small,
        reuses: options.logDirectory != nil)
      section("12", "where from, reducer times, the page") {
        try OriginsBench(
          directory: directory, dispatches: scale.recordingActions / 2, exportLog: exportLog,
          repetitions: scale.slowRepetitions
        ).run()
      }
    }
    if sections.contains(13) {
      section("13", "replay dap") {
        try DAPBench(repetitions: scale.slowRepetitions).run()
      }
    }
    if sections.contains(14) {
      section("14", "protocol-typed actions") {
        try CatalogBench(
          directory: directory, actionCount: scale.recordingActions,
          repetitions: scale.repetitions
        ).run()
      }
    }
    if sections.contains(15) {
      section("15", "live viewer") {
        try LiveBench(
          directory: directory, items: scale.latencyItems[0],
          dispatches: scale.latencyDispatches, throughputActions: scale.recordingActions,
          repetitions: scale.slowRepetitions
        ).run()
      }
    }
    if sections.contains(16) {
      section("16", "replay triage") {
        try TriageBench(directory: directory, logCount: options.isQuick ? 1_000 : 10_000).run()
      }
    }
    if sections.contains(9) {
      section("9", "worst dispatch") {
        try DispatchLatencyBench(
          directory: directory, sizes: scale.latencyItems, dispatches: scale.latencyDispatches,
          repetitions: scale.slowRepetitions
        ).run()
      }
    }
    if sections.contains(6) {
      section("6", "replay diff") {
        let pair = try BenchLogs.diffPair(in: directory, count: scale.diffActions, differences: 10)
        return try DiffBench(pair: pair, differences: 10, repetitions: scale.repetitions).run()
      }
    }
    report.rows.sort { $0.id.localizedStandardCompare($1.id) == .orderedAscending }
    report.notes.append("replay commands ran as \(ReplayCommand.description)")
    if let path = options.jsonPath {
      try Data(report.json.jsonText.utf8).write(to: URL(fileURLWithPath: path))
    }
    if options.wantsJSON {
      print(report.json.jsonText)
    } else {
      print(
        "rewind-bench (\(report.mode)) on "
          + report.machine.map { "\($0.0): \($0.1)" }.joined(separator: "; "))
      print()
      print(report.markdown)
      print()
      for row in report.rows where row.baseline != nil {
        if let note = row.note { print("\(row.id): \(note)") }
      }
      for note in report.notes { print("note: \(note)") }
    }
  }
}

import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

@Suite struct IsolationTests {
  @Test func aCrashMetByAJSONCommandIsInItsResultAndCountsForTheExitStatus() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let result = PowerTools.run([
      PowerTools.fixture("todo-crash.jsonl"), "--isolate", "-c", "goto last --json",
    ])
    #expect(result.status == 3, "\(result.err)")
    let lines = result.out.split(separator: "\n")
    #expect(lines.first == "(replay) goto last --json")
    let landing = try JSONParser.parse(String(lines.dropFirst().first ?? ""))
    #expect(landing["position"]?.intValue == 37)
    #expect(landing["action"]?["seq"]?.intValue == 37)
    #expect(landing["crash"]?["seq"]?.intValue == 38)
    #expect(landing["crash"]?["signal"]?.stringValue == "SIGILL")
  }

  @Test func aTrappingReducerIsReportedAndTheSessionLandsBeforeIt() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let result = PowerTools.run([
      PowerTools.fixture("todo-crash.jsonl"), "--isolate",
      "-c", "goto 36", "-c", "next 2", "-c", "print todos.count", "-c", "next", "-c", "back",
      "-c", "diff",
    ])
    #expect(result.status == 3, "\(result.err)")
    let crashes = result.out.split(separator: "\n").filter { $0.contains("crashed on action") }
    #expect(crashes.count == 2, "stepping onto the fatal action again reports it again")
    #expect(
      crashes.first == #"the app's reducer crashed on action 38 (type "move", log line 42): SIGILL"#
        || crashes.first
          == #"the app's reducer crashed on action 38 (type "move", log line 42): SIGTRAP"#
    )
    #expect(result.out.contains("  Index out of range  (Swift/"))
    #expect(result.out.contains("stopped at position 37, the last state before the crash"))
    #expect(result.out.contains("(replay) print todos.count\n6\n"))
    #expect(result.out.contains("(replay) back\n>   36"))
    #expect(result.out.contains(#"+ todos[5]: {"id":12,"title":"Pay rent 💸","done":false}"#))
  }

  /// A log replaced after replay opened it is refused by the worker, not replayed wrongly.
  @Test func aWorkerRefusesALogThatChangedSinceItWasOpened() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("changing.jsonl").path
    try FileManager.default.copyItem(atPath: PowerTools.fixture("todo-crash.jsonl"), toPath: path)
    let opened = try OpenedLog(
      path: path, recovery: .tail, apps: ReplayRun.apps, isolation: .worker(interactive: false))
    try Data(contentsOf: URL(fileURLWithPath: PowerTools.fixture("todo-session.jsonl")))
      .write(to: URL(fileURLWithPath: path))
    do {
      _ = try opened.timeline?.stateJSON(at: 36)
      Issue.record("a replaced log was replayed")
    } catch {
      #expect("\(error)".contains("the log changed since replay opened it"), "\(error)")
    }
  }

  /// The first batch of a walk asked for ahead (an export, while it reads the actions) is the
  /// one the walk then gets, without asking again; the states are the ones rebuilt here.
  @Test func aWalksFirstBatchAskedForAheadIsTheOneItGets() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let log = try ReplayLog(path: PowerTools.fixture("todo-session.jsonl"))
    let app = try #require(ReplayApp.recording(log.header, among: ReplayRun.apps))
    let isolated = IsolatedTimeline(local: try app.timeline(for: log), recovery: .tail)
    let last = log.positions.upperBound
    isolated.askAhead(
      statesFrom: log.positions.lowerBound, through: last, maxBytes: StateTextWalk.batchBytes)
    #expect(isolated.workersStarted == 1)
    #expect(isolated.requestsSent == 1)
    var walk = StateTextWalk(log: log, timeline: isolated, through: last)
    let local = try app.timeline(for: log)
    for position in log.positions {
      let text = try walk.text(at: position)
      #expect(text == (try local.stateJSONText(at: position)), "position \(position)")
    }
    // The fixture's states fit in one batch: the walk asked for nothing more.
    #expect(isolated.requestsSent == 1)
    #expect(isolated.workersStarted == 1)
  }

  /// What a worker killed by `Array`'s bounds check leaves on stderr, as the report reads it.
  @Test func aWorkersStandardErrorBecomesACrashReport() {
    let stderr = """
      Swift/Array.swift:1350: Fatal error: Index out of range
      replay: x.jsonl: the app's reducer stopped the process while applying action 38 (type "move") from line 42

      *** Signal 4: Backtracing from 0x7f00... done ***

      { "timestamp": "2026-11-25T02:03:11Z", "kind": "crashReport", "description": "Illegal instruction", "threads": [ { "name": "replay", "crashed": true, "frames": [ { "kind": "programCounter", "symbol": "$ss17_assertionFailure__4file4line5flagss5NeverOs12StaticStringV_A2HSus6UInt32VtF", "description": "_assertionFailure(_:_:file:line:flags:) + 302", "image": "libswiftCore.so" }, { "kind": "returnAddress", "symbol": "$s14RewindExamples11todoReducer_WZ", "description": "closure #1 in variable initialization expression of todoReducer + 1590", "image": "replay", "sourceLocation": { "file": "/src/app/Sources/RewindExamples/Todo.swift", "line": 90, "column": 28 } }, { "kind": "returnAddress", "symbol": "$s6Rewind7ReducerV3runyyxz_q_tF", "description": "Reducer.run(_:_:) + 97", "image": "replay", "sourceLocation": { "file": "/src/app/Sources/Rewind/Store/Reducer.swift", "line": 39, "column": 5 } }, { "kind": "returnAddress", "symbol": "replay_main", "description": "replay_main + 728", "image": "replay" }, { "kind": "truncated" } ] } ] }
      """
    let report = CrashReport(workerStandardError: stderr, signal: "SIGILL", relativeTo: "/src/app")
    #expect(report.seq == 38)
    #expect(report.type == "move")
    #expect(report.line == 42)
    #expect(report.lastGood == 37)
    #expect(report.message == "Index out of range")
    #expect(report.messageLocation == "Swift/Array.swift:1350")
    #expect(
      report.frames == [
        CrashReport.Frame(
          function: "closure #1 in variable initialization expression of todoReducer",
          file: "Sources/RewindExamples/Todo.swift", line: 90)
      ])
    #expect(report.foldedFrames == 3)
    #expect(
      report.lines() == [
        #"the app's reducer crashed on action 38 (type "move", log line 42): SIGILL"#,
        "  Index out of range  (Swift/Array.swift:1350)",
        "  #0 closure #1 in variable initialization expression of todoReducer at "
          + "Sources/RewindExamples/Todo.swift:90",
        "  (3 frames of Swift's runtime and of Rewind's replay folded)",
      ])
  }

  @Test(
    arguments: [
      ("t.swift:3: Fatal error: boom", "t.swift:3", "boom"),
      (
        "Fatal error: Unexpectedly found nil while unwrapping an Optional value", nil,
        "Unexpectedly found nil while unwrapping an Optional value"
      ),
      (
        "t.swift:9: Precondition failed: count must be positive", "t.swift:9",
        "Precondition failed: count must be positive"
      ),
      ("t.swift:9: Fatal error", "t.swift:9", "fatal error"),
    ] as [(String, String?, String)])
  func runtimeMessagesAreRead(line: String, location: String?, message: String) {
    let read = CrashReport.runtimeMessage(in: Substring(line))
    #expect(read?.0 == location)
    #expect(read?.1 == message)
  }

  @Test func aWorkerThatLeftNothingStillGivesASignal() {
    let report = CrashReport(workerStandardError: "", signal: "SIGKILL")
    #expect(report.seq == nil)
    #expect(report.message == nil)
    #expect(report.frames.isEmpty)
    #expect(report.headline == "the app's reducer crashed: SIGKILL")
  }

  @Test func mangledNamesGiveTheirModule() {
    #expect(CrashReport.module(ofMangled: "$s14RewindExamples11todoReducer_WZ") == "RewindExamples")
    #expect(CrashReport.module(ofMangled: "$ss17_assertionFailure") == "Swift")
    #expect(CrashReport.module(ofMangled: "replay_main") == nil)
    #expect(CrashReport.functionName("reduce(_:_:) + 49") == "reduce(_:_:)")
    #expect(CrashReport.functionName("a + b") == "a + b")
  }
}

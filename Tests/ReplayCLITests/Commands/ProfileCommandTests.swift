import Foundation
import Rewind
import RewindJSON
import RewindReplay
import Testing

/// `replay profile`: the table, its JSON form, `--compare` against a saved report and its exit
/// status, bad baselines, and crash logs in a worker and in process.
@Suite struct ProfileCommandTests {
  private let session = CLIFixture.path("todo-session.jsonl")
  private let crashLog = CLIFixture.path("todo-crash.jsonl")

  /// An app whose `slow` action spins for 200 µs; `quick` appends a number.
  enum SlowAction: Codable, Sendable {
    case quick(Int)
    case slow
  }

  struct SlowState: Codable, Sendable {
    var numbers: [Int] = []
  }

  static let slowReducer = Reducer<SlowState, SlowAction> { state, action in
    switch action {
    case .quick(let n): state.numbers.append(n)
    case .slow:
      let start = Platform.monotonicNanoseconds()
      while Platform.monotonicNanoseconds() - start < 200_000 {}
    }
  }

  static let apps = ReplayRun.apps + [ReplayApp(name: "slow", reducer: slowReducer)]

  /// Records 40 quick actions with a slow one at every 8th seq, then runs `body` with its path
  /// and the directory.
  private func withSlowLog(
    recordingTimes: Bool = false, _ body: (String, URL) throws -> Void
  ) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("slow.jsonl").path
      let store = Store(initialState: SlowState(), reducer: Self.slowReducer)
      var options = RecordingOptions(ifExists: .replace)
      options.recordsReducerTimes = recordingTimes
      let recorder = try store.startRecording(to: path, app: "slow", options: options)
      for seq in 1...40 { store.dispatch(seq % 8 == 0 ? .slow : .quick(seq)) }
      recorder.close()
      try body(path, directory)
    }
  }

  @Test func timesTheRecorderMeasuredSitBesideTheReplayedOnes() throws {
    try withSlowLog(recordingTimes: true) { log, _ in
      let run = ReplayRun(["profile", log], apps: Self.apps)
      #expect(run.status == 0)
      let header = try #require(run.outputLines.first { $0.hasPrefix("type ") })
      #expect(header.contains("recorded p50") && header.contains("recorded max"))
      let json = try JSONParser.parse(
        ReplayRun(["profile", log, "--json"], apps: Self.apps).standardOutput)
      guard case .array(let types)? = json["types"] else {
        Issue.record("no types")
        return
      }
      let slow = try #require(types.first { $0["type"] == .string("slow") })
      #expect(slow["recorded"]?["count"] == .number("5"))
      // The recorder saw the 200 µs spin too.
      #expect((slow["recorded"]?["p50"]?.intValue ?? 0) >= 200_000)
      let quick = try #require(types.first { $0["type"] == .string("quick") })
      #expect(quick["recorded"]?["count"] == .number("35"))
    }
    // Without recorded times, no such column or member.
    try withSlowLog { log, _ in
      let run = ReplayRun(["profile", log, "--json"], apps: Self.apps)
      #expect(!run.standardOutput.contains("\"recorded\""))
    }
  }

  @Test func theTableListsTheSlowTypeFirst() throws {
    try withSlowLog { log, _ in
      let run = ReplayRun(["profile", log, "--top", "3"], apps: Self.apps)
      #expect(run.status == 0)
      #expect(run.standardError == "")
      let lines = run.outputLines
      #expect(
        lines.first
          == "\(log): 40 actions timed, each the least of 3 passes from the initial state "
          + "(the reducer's call only)")
      let header = try #require(lines.firstIndex { $0.hasPrefix("type ") })
      #expect(
        lines[header].split(separator: " ") == ["type", "count", "total", "p50", "p99", "max"])
      #expect(lines[header + 1].hasPrefix("slow "))
      #expect(lines[header + 1].split(separator: " ")[1] == "5")
      #expect(lines[header + 2].hasPrefix("quick "))
      #expect(lines[header + 2].split(separator: " ")[1] == "35")
      let slowest = try #require(lines.firstIndex(of: "slowest actions:"))
      #expect(lines[slowest + 1].split(separator: " ") == ["seq", "type", "time"])
      let rows = lines[(slowest + 2)...].prefix { !$0.isEmpty }
      #expect(rows.count == 3)
      #expect(rows.allSatisfy { $0.split(separator: " ")[1] == "slow" })
      #expect(rows.allSatisfy { $0.hasSuffix(" µs") })
    }
  }

  @Test func theJSONFormHasEveryField() throws {
    try withSlowLog { log, _ in
      let run = ReplayRun(["profile", log, "--json", "--repeat", "2"], apps: Self.apps)
      #expect(run.status == 0)
      let json = try JSONParser.parse(run.standardOutput)
      #expect(json["path"] == .string(log))
      #expect(json["app"] == .string("slow"))
      #expect(json["unit"] == .string("ns"))
      #expect(json["passes"] == .number("2"))
      #expect(json["from"] == .number("1"))
      #expect(json["through"] == .number("40"))
      #expect(json["lastSeq"] == .number("40"))
      #expect(json["timed"] == .number("40"))
      #expect(json["notReduced"] == .number("0"))
      #expect(json["type"] == .null)
      #expect(json["notTimed"] == .null)
      #expect(json["comparison"] == nil)
      guard case .array(let types)? = json["types"], case .array(let slowest)? = json["slowest"]
      else {
        Issue.record("no types or slowest: \(run.standardOutput)")
        return
      }
      #expect(types.map { $0["type"] } == [.string("slow"), .string("quick")])
      #expect(types.map { $0["replayed"]?["count"] } == [.number("5"), .number("35")])
      for key in ["total", "p50", "p99", "max"] {
        #expect(types[0]["replayed"]?[key]?.intValue.map { $0 >= 200_000 } == true, "\(key)")
      }
      #expect(slowest.count == 10)
      #expect(slowest.prefix(5).allSatisfy { $0["type"] == .string("slow") })
      #expect(
        slowest.prefix(5).compactMap { $0["seq"]?.intValue }.sorted() == [8, 16, 24, 32, 40])
      #expect(slowest.allSatisfy { $0["nanoseconds"]?.intValue != nil })
    }
  }

  @Test func aTypeMuchFasterInTheBaselineIsARegression() throws {
    try withSlowLog { log, directory in
      let saved = ReplayRun(["profile", log, "--json"], apps: Self.apps)
      // The same report, with `slow` at 2 µs an action.
      var baseline = try JSONParser.parse(saved.standardOutput)
      guard case .object(var members) = baseline,
        let index = members.firstIndex(where: { $0.key == "types" }),
        case .array(var types) = members[index].value
      else {
        Issue.record("no types: \(saved.standardOutput)")
        return
      }
      types[0] = .object([
        JSONMember("type", .string("slow")),
        JSONMember(
          "replayed",
          .object([
            JSONMember("count", .number("5")), JSONMember("total", .number("10000")),
            JSONMember("p50", .number("2000")), JSONMember("p99", .number("2000")),
            JSONMember("max", .number("2000")),
          ])),
      ])
      members[index].value = .array(types)
      baseline = .object(members)
      let file = try CLIFixture.write([baseline.jsonText], named: "base.json", in: directory)

      let run = ReplayRun(["profile", log, "--compare", file], apps: Self.apps)
      #expect(run.status == 1)
      #expect(run.outputLines.last == "1 type slower than the baseline: slow")
      let row = try #require(run.outputLines.first { $0.hasPrefix("  slower  slow ") })
      #expect(row.contains("2.00 µs"))
      let json = try JSONParser.parse(
        ReplayRun(["profile", log, "--compare", file, "--json"], apps: Self.apps).standardOutput)
      #expect(json["comparison"]?["baseline"] == .string(file))
      #expect(json["comparison"]?["regression"] == .bool(true))
      #expect(json["comparison"]?["threshold"] == .number("1.25"))
      #expect(json["comparison"]?["floor"] == .number("1000"))
      guard case .array(let rows)? = json["comparison"]?["types"], let first = rows.first else {
        Issue.record("no comparison rows")
        return
      }
      #expect(first["type"] == .string("slow"))
      #expect(first["verdict"] == .string("slower"))
      #expect(first["baseline"]?["p50"] == .number("2000"))
      #expect((first["p50Ratio"]?.doubleValue ?? 0) >= 100)
      #expect(rows.dropFirst().map { $0["verdict"] } == [.string("same")])
    }
  }

  @Test func theSameReportAsBaselineFlagsNothing() throws {
    try withSlowLog { log, directory in
      let saved = ReplayRun(["profile", log, "--json"], apps: Self.apps)
      let file = try CLIFixture.write([saved.standardOutput], named: "base.json", in: directory)
      let run = ReplayRun(["profile", log, "--compare", file], apps: Self.apps)
      #expect(run.status == 0)
      #expect(run.outputLines.last == "no type slower than the baseline")
      #expect(!run.standardOutput.contains("  slower "))
      #expect(run.standardOutput.contains("the same (within the threshold): 2 types: quick, slow"))
    }
  }

  @Test(arguments: [
    (
      #"{"types":[{"type":"add","replayed":{"count":5,"total":"fast"}}]}"#,
      "error: $FILE: the baseline is not a profile report: types[0].replayed.total: expected "
        + "UInt64, found string"
    ),
    (
      #"{"types": [{"type": "add",, }"#,
      "error: $FILE:1 (byte 26): the baseline is not JSON: invalid JSON at byte 26: expected a "
        + "string key after ',', found ','"
    ),
    (
      "[1]",
      "error: $FILE: the baseline is not a profile report: expected an object, found an array"
    ),
    (#"{"passes": 3}"#, "error: $FILE: the baseline is not a profile report: types: key not found"),
  ])
  func aBadBaselineSaysWhereAndHowToMakeOne(text: String, message: String) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let file = try CLIFixture.write([text], named: "base.json", in: directory)
      let run = ReplayRun(["profile", session, "--compare", file])
      #expect(run.status == 2)
      #expect(run.standardOutput == "")
      #expect(
        run.standardError.replacingOccurrences(of: file, with: "$FILE")
          == message + "\n" + "note: a baseline is what 'replay profile LOG --json' printed\n"
          + "hint: replay profile LOG --json > $FILE   # save a baseline with the build to "
          + "compare against\n")
    }
  }

  @Test func aMissingBaselineIsNamed() throws {
    let run = ReplayRun(["profile", session, "--compare", "/nonexistent/base.json"])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasPrefix("error: /nonexistent/base.json: cannot read the baseline: "))
  }

  @Test func theTodoFixtureCountsEveryActionByType() throws {
    let run = ReplayRun(["profile", session, "--json", "--repeat", "1"])
    #expect(run.status == 0)
    let json = try JSONParser.parse(run.standardOutput)
    #expect(json["timed"] == .number("340"))
    guard case .array(let types)? = json["types"] else {
      Issue.record("no types: \(run.standardOutput)")
      return
    }
    var counts: [String: Int] = [:]
    for type in types {
      if let name = type["type"]?.stringValue {
        counts[name] = type["replayed"]?["count"]?.intValue
      }
    }
    #expect(
      counts == [
        "add": 105, "toggle": 86, "remove": 27, "clearCompleted": 14, "rename": 36, "move": 36,
        "setFilter": 36,
      ])
  }

  @Test func anUnknownTypeSuggestsTheClosest() {
    let run = ReplayRun(["profile", session, "--type", "remve"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("no action of type 'remve' in"))
    #expect(run.standardError.contains("Did you mean 'remove'?"))
  }

  /// In process, a cut-off log's last action is never run: it may be the crash.
  @Test func inProcessTheLastActionOfACutOffLogIsLeftOut() throws {
    let run = ReplayRun(["profile", crashLog, "--json"])
    #expect(run.status == 0)
    let json = try JSONParser.parse(run.standardOutput)
    #expect(json["through"] == .number("37"))
    #expect(json["timed"] == .number("37"))
    #expect(json["notTimed"]?["seq"] == .number("38"))
    #expect(json["notTimed"]?["type"] == .string("move"))
    #expect(json["notTimed"]?["reason"] == .string("cut off"))
    #expect(json["notTimed"]?["crash"] == .null)
  }

  @Test func inAWorkerTheCrashingActionIsNamedAndTheRestTimed() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let run = ReplayRun(["profile", crashLog, "--isolate"])
    #expect(run.status == 3)
    #expect(
      run.outputLines.last
        == "not timed: action 38 (move) crashes the app's reducer (SIGILL: Index out of range); "
        + "the profile covers actions 1…37")
    let json = try JSONParser.parse(
      ReplayRun(["profile", crashLog, "--isolate", "--json"]).standardOutput)
    #expect(json["timed"] == .number("37"))
    #expect(json["notTimed"]?["reason"] == .string("crash"))
    #expect(json["notTimed"]?["crash"]?["seq"] == .number("38"))
    guard case .array(let types)? = json["types"] else {
      Issue.record("no types")
      return
    }
    #expect(types.compactMap { $0["replayed"]?["count"]?.intValue }.reduce(0, +) == 37)
  }
}

import Foundation
import RewindJSON
import Testing

/// `replay triage` over a folder of real logs, as a fleet's logs arrive: crashes of two kinds
/// recorded by child processes that died of them (`rewind-testbed crash`, `signal`, `folder …
/// trap`, the last a rotated session), clean logs, one torn mid-line, one killed, a file that is
/// not a Rewind log, an empty file, and a log of an app the binary does not know. Checked as the
/// table, as `--json` and as `--records`.
@Suite struct TriageEndToEndTests {
  static let moveBucketPrefix = "crash move: Index out of range @ "
  static let trapsBucketPrefix = "crash indexOutOfRange: Index out of range @ "

  /// Builds the folder; returns the rotated session's newest file.
  static func makeFolder(_ folder: URL) throws -> String {
    let testbed = try TrapKindsTests.testbed()
    func run(_ arguments: [String]) throws -> ChildProcess {
      try ChildProcess.run(testbed, arguments, in: folder)
    }
    let fileManager = FileManager.default
    for sub in ["crashes", "crashes/nested", "rotated", "killed", "other"] {
      try fileManager.createDirectory(
        at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
    }
    // Two logs of the todo app's move bug (the same 38 actions), and a rotated session of it.
    for path in ["crashes/move-1.jsonl", "crashes/nested/move-2.jsonl"] {
      let child = try run(["crash", path])
      #expect(child.reason == .uncaughtSignal, "\(child.standardError)")
    }
    let rotated = try run(["folder", "rotated", "60", "trap"])
    #expect(rotated.reason == .uncaughtSignal, "\(rotated.standardError)")
    // The traps app's index out of range: another crash.
    let traps = try run(["signal", "crashes/traps.jsonl", "trap"])
    #expect(traps.reason == .uncaughtSignal, "\(traps.standardError)")
    // Clean: a counter session closed.
    let clean = try run(["record", "clean.jsonl", "process", "20"])
    #expect(clean.status == 0, "\(clean.standardError)")
    // Killed: cut off where the reducer does not crash.
    let killed = try run(["folder", "killed", "10", "kill"])
    #expect(killed.reason == .uncaughtSignal, "\(killed.standardError)")
    // Torn: the clean log cut in the middle of its last action line, as a kill leaves it.
    let cleanText = try String(
      contentsOf: folder.appendingPathComponent("clean.jsonl"), encoding: .utf8)
    var lines = cleanText.split(separator: "\n").map(String.init)
    // The end record and the final checkpoint go; the last action is cut in half.
    while lines.last?.contains(#""kind":"action""#) == false { lines.removeLast() }
    let last = lines.removeLast()
    try (lines.joined(separator: "\n") + "\n" + last.prefix(last.count / 2))
      .write(to: folder.appendingPathComponent("torn.jsonl"), atomically: true, encoding: .utf8)
    try #"{"hello":"world"}"#.appending("\n")
      .write(
        to: folder.appendingPathComponent("other/notes.jsonl"), atomically: true, encoding: .utf8)
    try Data().write(to: folder.appendingPathComponent("other/empty.jsonl"))
    try "not a log at all\n"
      .write(
        to: folder.appendingPathComponent("other/README.txt"), atomically: true, encoding: .utf8)
    try
      ([
        #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"nosuch","#
          + #""actionType":"A","stateType":"S","recordedAt":"2026-12-01T08:00:00Z","firstSeq":1,"#
          + #""state":{}}"#,
        #"{"kind":"action","seq":1,"type":"go","action":"go"}"#, "",
      ]).joined(separator: "\n")
      .write(
        to: folder.appendingPathComponent("other/nosuch.jsonl"), atomically: true, encoding: .utf8)
    let newest = rotated.standardOutput.trimmingCharacters(in: .newlines)
    #expect(newest.hasPrefix("rotated/"), "\(newest)")
    return newest
  }

  @Test func aFolderOfRealLogsFallsIntoBucketsAsTextJSONAndRecords() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      let rotated = try Self.makeFolder(folder)
      let limits = ["--time-limit", "120", "--jobs", "2"]

      // Records: one line per log, every key in order.
      let recordsRun = try TrapKindsTests.replay(
        ["triage", ".", "--records", "-"] + limits, in: folder)
      #expect(recordsRun.status == 1, "\(recordsRun.standardError)")
      let records = try recordsRun.standardOutput.split(separator: "\n").map {
        try JSONParser.parse(Array($0.utf8))
      }
      #expect(records.count == 10, "\(recordsRun.standardOutput)")
      for record in records {
        guard case .object(let members) = record else {
          Issue.record("not an object: \(record)")
          continue
        }
        #expect(
          members.map(\.key) == [
            "path", "app", "build", "session", "ending", "bucket", "crashActionType",
            "crashMessage", "crashFrame", "actions", "firstRecorded", "lastRecorded", "reason",
            "segments",
          ])
      }
      func record(_ path: String) -> JSONValue? {
        records.first { $0["path"]?.stringValue == "./" + path }
      }
      let move = try #require(record("crashes/move-1.jsonl"))
      #expect(move["ending"]?.stringValue == "crashed")
      #expect(move["crashActionType"]?.stringValue == "move")
      #expect(move["crashMessage"]?.stringValue == "Index out of range")
      #expect(move["crashFrame"]?.stringValue?.hasSuffix("todoReducer (Todo.swift:90)") == true)
      #expect(move["bucket"]?.stringValue?.hasPrefix(Self.moveBucketPrefix) == true)
      #expect(move["actions"]?.intValue == 38)
      #expect(move["segments"]?.intValue == 1)
      #expect(move["app"]?.stringValue == "todo")
      #expect(move["reason"] == .null)
      let session = try #require(record(rotated), "\(records)")
      #expect(session["bucket"] == move["bucket"])
      #expect((session["segments"]?.intValue ?? 0) >= 3, "\(session)")
      #expect(session["actions"]?.intValue == 61)
      let traps = try #require(record("crashes/traps.jsonl"))
      #expect(traps["bucket"]?.stringValue?.hasPrefix(Self.trapsBucketPrefix) == true, "\(traps)")
      #expect(traps["crashFrame"]?.stringValue?.contains("Traps.swift:") == true)
      #expect(record("clean.jsonl")?["ending"]?.stringValue == "clean")
      #expect(record("clean.jsonl")?["actions"]?.intValue == 20)
      #expect(record("torn.jsonl")?["ending"]?.stringValue == "stopped-elsewhere")
      #expect(record("torn.jsonl")?["actions"]?.intValue == 19)
      let killed = try #require(
        records.first { $0["path"]?.stringValue?.hasPrefix("./killed/") == true })
      #expect(killed["ending"]?.stringValue == "stopped-elsewhere")
      #expect(killed["crashActionType"] == .null)
      let notes = try #require(record("other/notes.jsonl"))
      #expect(notes["bucket"]?.stringValue == "unreadable: not a Rewind log")
      #expect(
        notes["reason"]?.stringValue?.hasPrefix("./other/notes.jsonl:1: not a Rewind log") == true)
      #expect(notes["app"] == .null)
      #expect(record("other/empty.jsonl")?["bucket"]?.stringValue == "unreadable: empty file")
      let unknown = try #require(record("other/nosuch.jsonl"))
      #expect(unknown["bucket"]?.stringValue == "unknown-app: nosuch")
      #expect(unknown["reason"]?.stringValue?.contains(#"does not know the app "nosuch""#) == true)
      #expect(unknown["firstRecorded"]?.stringValue == "2026-12-01T08:00:00Z")
      #expect(records.allSatisfy { $0["path"]?.stringValue?.hasSuffix("README.txt") != true })

      // JSON: the buckets, largest crash first, with counts and representatives.
      let jsonRun = try TrapKindsTests.replay(["triage", ".", "--json"] + limits, in: folder)
      #expect(jsonRun.status == 1, "\(jsonRun.standardError)")
      let json = try JSONParser.parse(Array(jsonRun.standardOutput.utf8))
      #expect(json["logs"]?.intValue == 10)
      #expect(json["endings"]?["crashed"]?.intValue == 4)
      #expect(json["endings"]?["stopped-elsewhere"]?.intValue == 2)
      #expect(json["endings"]?["clean"]?.intValue == 1)
      #expect(json["endings"]?["unreadable"]?.intValue == 2)
      #expect(json["endings"]?["unknown-app"]?.intValue == 1)
      guard case .array(let buckets)? = json["buckets"] else {
        Issue.record("no buckets: \(jsonRun.standardOutput)")
        return
      }
      let summary = buckets.map { bucket -> String in
        let key = bucket["key"]?.stringValue ?? "?"
        let short =
          key.hasPrefix(Self.moveBucketPrefix)
          ? "move" : key.hasPrefix(Self.trapsBucketPrefix) ? "traps" : key
        return
          "\(bucket["count"]?.intValue ?? 0) \(short) \(bucket["representative"]?.stringValue ?? "?")"
      }
      #expect(
        summary == [
          "3 move ./crashes/move-1.jsonl",
          "1 traps ./crashes/traps.jsonl",
          "2 stopped-elsewhere \(killed["path"]?.stringValue ?? "?")",
          "1 unreadable: empty file ./other/empty.jsonl",
          "1 unreadable: not a Rewind log ./other/notes.jsonl",
          "1 unknown-app: nosuch ./other/nosuch.jsonl",
          "1 clean ./clean.jsonl",
        ])
      #expect(buckets.first?["firstRecorded"] != .null)
      #expect(buckets.first?["crashMessage"]?.stringValue == "Index out of range")

      // The table, with a shrunk reproduction beside each crash's representative.
      let table = try TrapKindsTests.replay(["triage", ".", "--shrink"] + limits, in: folder)
      #expect(table.status == 1, "\(table.standardError)")
      let text = table.standardOutput
      #expect(
        text.hasPrefix(
          "triaged 10 logs with 2 workers (1 rotated session joined: "
            + "\(session["segments"]?.intValue ?? 0) files): 4 crashed, 2 stopped-elsewhere, "
            + "1 clean, 2 unreadable, 1 unknown-app\n"), "\(text)")
      #expect(text.contains("\n    3  \(Self.moveBucketPrefix)"), "\(text)")
      #expect(text.contains("       e.g. ./crashes/move-1.jsonl, 38 actions\n"), "\(text)")
      #expect(text.contains("       shrunk: ./crashes/move-1.shrunk.jsonl, 1 action\n"), "\(text)")
      #expect(text.contains("       shrunk: ./crashes/traps.shrunk.jsonl, 1 action\n"), "\(text)")
      #expect(text.contains("    1  unreadable: empty file\n       e.g. ./other/empty.jsonl\n"))
      // The reproduction: one action, the move, on which the reducer still crashes.
      let shrunk = try String(
        contentsOf: folder.appendingPathComponent("crashes/move-1.shrunk.jsonl"), encoding: .utf8)
      let actions = shrunk.split(separator: "\n").filter { $0.contains(#""kind":"action""#) }
      #expect(actions.count == 1 && actions.first?.contains(#""type":"move""#) == true, "\(shrunk)")
      let state = try TrapKindsTests.replay(["state", "crashes/move-1.shrunk.jsonl"], in: folder)
      #expect(state.status == 3, "\(state.standardError)")

    }
  }

  @Test func anyFolderOfLogsOpensInInfoAndTheOtherCommands() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      _ = try Self.makeFolder(folder)
      let info = try TrapKindsTests.replay(["info", "crashes"], in: folder)
      #expect(info.status == 0, "\(info.standardError)")
      #expect(info.standardOutput.hasPrefix("folder crashes: 3 logs, "), "\(info.standardOutput)")
      #expect(
        info.standardOutput.contains("crashes/nested/move-2.jsonl  todo   38 actions  1 file"))
      let json = try TrapKindsTests.replay(["info", "crashes", "--json"], in: folder)
      let value = try JSONParser.parse(Array(json.standardOutput.utf8))
      guard case .array(let logs)? = value["logs"] else {
        Issue.record("no logs: \(json.standardOutput)")
        return
      }
      #expect(
        logs.compactMap { $0["path"]?.stringValue } == [
          "crashes/move-1.jsonl", "crashes/nested/move-2.jsonl", "crashes/traps.jsonl",
        ])
      // Another command opens the newest log, saying which.
      let touched = folder.appendingPathComponent("other/nosuch.jsonl").path
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: touched)
      let actions = try TrapKindsTests.replay(["actions", "other"], in: folder)
      #expect(actions.status == 0, "\(actions.standardError)")
      #expect(
        actions.standardError.contains(
          "note: other is a folder of logs: opened the newest of its 3 logs, other/nosuch.jsonl"),
        "\(actions.standardError)")
    }
  }

  /// Crashes of one action type at two places of the reducer, without a message (the traps app's
  /// two overflow checks) — as a release build's checks all trap: they are two buckets, each with
  /// its own frame, although the first and the last log of the type crash at the same place
  /// (whose frame stood for every log between them before triage told trap sites apart).
  @Test func crashesOfOneTypeAtTwoPlacesWithoutAMessageAreTwoBuckets() throws {
    try CLIFixture.withTemporaryDirectory { folder in
      for (name, by) in [("a-max", 1), ("b-min", -1), ("c-max", 2)] {
        let lines = [
          TrapKindsTests.header,
          #"{"kind":"action","seq":1,"type":"add","action":{"add":{}}}"#,
          #"{"kind":"action","seq":2,"type":"overflow","action":{"overflow":{"_0":\#(by)}}}"#,
        ]
        _ = try CLIFixture.write(lines, named: "\(name).jsonl", in: folder)
      }
      let run = try TrapKindsTests.replay(
        ["triage", ".", "--records", "-", "--jobs", "2", "--time-limit", "120"], in: folder)
      #expect(run.status == 1, "\(run.standardError)")
      let records = try run.standardOutput.split(separator: "\n").map {
        try JSONParser.parse(Array($0.utf8))
      }
      func record(_ name: String) -> JSONValue? {
        records.first { $0["path"]?.stringValue == "./\(name).jsonl" }
      }
      let max = try #require(record("a-max"), "\(run.standardOutput)")
      let min = try #require(record("b-min"), "\(run.standardOutput)")
      let again = try #require(record("c-max"), "\(run.standardOutput)")
      for crash in [max, min, again] {
        #expect(crash["ending"]?.stringValue == "crashed", "\(crash)")
        #expect(crash["crashActionType"]?.stringValue == "overflow", "\(crash)")
        #expect(crash["crashMessage"] == .null, "\(crash)")
        #expect(crash["crashFrame"]?.stringValue?.contains("Traps.swift:") == true, "\(crash)")
      }
      #expect(max["bucket"] == again["bucket"])
      #expect(min["bucket"] != max["bucket"], "\(min) \(max)")
      #expect(min["crashFrame"] != max["crashFrame"], "\(min) \(max)")
    }
  }
}

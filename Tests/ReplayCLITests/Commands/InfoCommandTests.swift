import Foundation
import Testing

/// `replay info`: what a log holds and how it ended, as text and as JSON.
@Suite struct InfoCommandTests {
  @Test func describesACleanSession() {
    let log = CLIFixture.path("todo-session.jsonl")
    let run = ReplayRun(["info", log])
    #expect(run.status == 0)
    #expect(run.standardError == "")
    #expect(
      run.standardOutput.replacingLog(log) == """
        log:          $LOG
        app:          todo (TodoState, TodoAction)
        session:      00000000-0000-4000-8000-000000000001
        recorded at:  2026-11-21T10:00:00Z
        actions:      340 (seq 1…340)
        checkpoints:  7 (seq 50, 100, 150, 200, 250, 300, …)
        ended:        cleanly (end record)
        bad lines:    none

        """)
  }

  @Test func describesACrashLogAsCutOffWhileRunningItsLastAction() {
    let log = CLIFixture.path("todo-crash.jsonl")
    let run = ReplayRun(["info", log])
    #expect(run.status == 0)
    #expect(
      run.outputLines.contains(
        "ended:        cut off — no end record: the app crashed or was killed while running "
          + "action 38 (move)"))
    #expect(run.outputLines.contains("actions:      38 (seq 1…38)"))
  }

  /// A line whose checksum holds but whose JSON does not: every line's JSON is checked as the
  /// log opens, so `info` names the line and every command reports it up front.
  @Test func namesALineChecksummedButNotJSON() throws {
    var lines = try String(contentsOfFile: CLIFixture.path("todo-session.jsonl"), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[11] = String(
      decoding: HostileLog.checksummed(
        Array(
          #"{"kind":"action","seq":11,"time":2.75,"type":"add","action":{"add":{"title":"x"]}}"#
            .utf8)),
      as: UTF8.self)
    try CLIFixture.withTemporaryDirectory { directory in
      let path = try HostileLog.write(
        Array(lines.joined(separator: "\n").utf8), named: "bad.jsonl", in: directory)
      let info = ReplayRun(["info", path])
      #expect(info.status == 2)
      #expect(
        info.standardError.contains(
          "bad.jsonl:12 (byte 1391): invalid JSON at byte 1485: expected ',' or '}' after object "
            + "member, found ']'"), "\(info.standardError)")
      let salvaged = ReplayRun(["info", path, "--recovery", "salvage"])
      #expect(salvaged.status == 0)
      #expect(salvaged.outputLines.contains("bad lines:    1 (salvage recovery)"))
      // Other commands check it as they open the log too, before any state is shown.
      let state = ReplayRun(["state", path, "--at", "5"])
      #expect(state.status == 2)
      #expect(state.standardError.contains("bad.jsonl:12 (byte 1391): invalid JSON at byte 1485"))
    }
  }

  @Test func listsTheTornLineOfATornLog() {
    let log = CLIFixture.path("todo-torn.jsonl")
    let run = ReplayRun(["info", log])
    #expect(run.status == 0)
    #expect(run.outputLines.contains("bad lines:    1 (tail recovery)"))
    #expect(
      run.outputLines.last?.replacingLog(log)
        == "  $LOG:131 (byte 15932): line cut off mid-write (67 bytes, no newline at the end of "
        + "the file)")
  }

  struct JSONCase: Sendable, CustomTestStringConvertible {
    var fixture: String
    var actions: Int
    var lastSeq: Int
    var checkpoints: [Int]
    var cleanEnd: Bool
    var badLines: [Int]
    var testDescription: String { fixture }
  }

  @Test(
    arguments: [
      JSONCase(
        fixture: "todo-session.jsonl", actions: 340, lastSeq: 340,
        checkpoints: [50, 100, 150, 200, 250, 300, 340], cleanEnd: true, badLines: []),
      JSONCase(
        fixture: "todo-crash.jsonl", actions: 38, lastSeq: 38, checkpoints: [10, 20, 30],
        cleanEnd: false, badLines: []),
      JSONCase(
        fixture: "todo-torn.jsonl", actions: 127, lastSeq: 127, checkpoints: [50, 100],
        cleanEnd: false, badLines: [131]),
      JSONCase(
        fixture: "counter.jsonl", actions: 12, lastSeq: 12, checkpoints: [5, 10, 12],
        cleanEnd: true,
        badLines: []),
    ])
  func jsonSummaryHoldsTheLogsFacts(expected: JSONCase) throws {
    let log = CLIFixture.path(expected.fixture)
    let run = ReplayRun(["info", log, "--json"])
    #expect(run.status == 0)
    #expect(run.outputLines.count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    #expect(object["path"] as? String == log)
    #expect(object["app"] as? String == (expected.fixture == "counter.jsonl" ? "counter" : "todo"))
    #expect(object["appKnown"] as? Bool == true)
    #expect(object["actions"] as? Int == expected.actions)
    #expect(object["firstSeq"] as? Int == 1)
    #expect(object["lastSeq"] as? Int == expected.lastSeq)
    #expect(object["checkpoints"] as? [Int] == expected.checkpoints)
    #expect(object["cleanEnd"] as? Bool == expected.cleanEnd)
    let badLines = try #require(object["badLines"] as? [[String: Any]])
    #expect(badLines.compactMap { $0["line"] as? Int } == expected.badLines)
  }

  @Test func jsonSummaryOfATornLogLocatesItsBadLine() throws {
    let run = ReplayRun(["info", CLIFixture.path("todo-torn.jsonl"), "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let badLines = try #require(object["badLines"] as? [[String: Any]])
    #expect(badLines.count == 1)
    #expect(badLines.first?["byteOffset"] as? Int == 15932)
    #expect(
      badLines.first?["reason"] as? String
        == "line cut off mid-write (67 bytes, no newline at the end of the file)")
    #expect(object["endReason"] is NSNull)
    #expect(object["recovery"] as? String == "tail")
  }
}

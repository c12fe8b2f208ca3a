import Foundation
import Testing

@testable import RewindJSON

/// Session commands with `--json`: each prints its result as one line of JSON (the debugger's
/// encoding of it), which a script can parse, and a command without a JSON form says so.
@Suite struct SessionJSONTests {
  private let log = CLIFixture.path("todo-session.jsonl")
  private let crashLog = CLIFixture.path("todo-crash.jsonl")

  /// What the commands given `--json` printed, parsed (each must be one line of JSON).
  private func results(_ log: String, _ commands: String...) throws -> (ReplayRun, [JSONValue]) {
    let run = ReplayRun([log] + commands.flatMap { ["-c", $0] })
    var values: [JSONValue] = []
    var isJSON = false
    for line in run.standardOutput.split(separator: "\n") {
      if line.hasPrefix("(replay) ") {
        isJSON = line.hasSuffix(" --json")
      } else if isJSON {
        values.append(try JSONParser.parse(String(line)))
      }
    }
    return (run, values)
  }

  private func array(_ value: JSONValue?) -> [JSONValue]? {
    guard case .array(let elements) = value else { return nil }
    return elements
  }

  @Test func movesActionsAndListsAreObjects() throws {
    let (run, values) = try results(
      log, "goto 12 --json", "next --json", "action --json", "list 3 --json", "goto 0 --json",
      "find type=move --json")
    #expect(run.status == 0)
    #expect(run.standardError == "")
    try #require(values.count == 6)
    #expect(
      values[0].jsonText
        == #"{"position":12,"action":{"seq":12,"time":3.000000,"type":"setFilter","action":{"setFilter":{"_0":"active"}},"line":13}}"#
    )
    #expect(values[1]["position"]?.intValue == 13)
    #expect(values[1]["action"]?["type"]?.stringValue == "move")
    #expect(values[2]["seq"]?.intValue == 13)
    #expect(values[2]["action"]?.jsonText == #"{"move":{"from":2,"to":1}}"#)
    #expect(values[3]["position"]?.intValue == 13)
    #expect(array(values[3]["actions"])?.map { $0["seq"]?.intValue ?? 0 } == [12, 13, 14])
    // The initial state: a position, no action.
    #expect(values[4].jsonText == #"{"position":0}"#)
    #expect(values[5]["action"]?["type"]?.stringValue == "move")
  }

  @Test func printInfoAndDiffUseTheOneJSONFormOfTheirResult() throws {
    let (run, values) = try results(
      log, "goto 3", "print todos.count --json", "print todos[0] --json", "info --json",
      "diff --json")
    #expect(run.status == 0)
    try #require(values.count == 4)
    #expect(values[0].intValue == 2)
    #expect(values[1]["title"]?.stringValue != nil)
    #expect(values[2]["app"]?.stringValue == "todo")
    #expect(values[2]["position"]?.intValue == 3)
    #expect(array(values[2]["skips"]) == [])
    #expect(array(values[3])?.isEmpty == false)
    #expect(array(values[3])?.first?["op"] != nil)
  }

  @Test func aContinueStopNamesTheWatchpointAndTheChange() throws {
    let (run, values) = try results(
      log, "watch todos.count", "continue --json", "goto last", "continue --json")
    #expect(run.status == 0)
    try #require(values.count == 2)
    let stop = values[0]
    let reasons = try #require(array(stop["stoppedBy"]))
    #expect(reasons.count == 1)
    #expect(reasons.first?["id"]?.intValue == 1)
    #expect(reasons.first?["reason"]?.stringValue?.hasPrefix("todos.count: ") == true)
    #expect(stop["position"]?.intValue == stop["action"]?["seq"]?.intValue)
    #expect(values[1]["reached"]?.stringValue == "end")
  }

  @Test func anErrorOfAJSONCommandIsOneLineOfJSON() throws {
    let (run, values) = try results(log, "goto 999 --json", "print filtr --json")
    #expect(run.status == 2)
    #expect(run.standardError == "")
    try #require(values.count == 2)
    #expect(
      values[0]["error"]?.stringValue
        == "position 999 is out of range: valid positions are 0…340")
    #expect(values[1]["error"]?.stringValue?.hasSuffix("did you mean 'filter'?") == true)
    #expect(values.allSatisfy { $0["error"]?.stringValue != nil })
  }

  /// `replay LOG --json`: one line of JSON per command and nothing else on standard output —
  /// results, watchpoints and breakpoints, skips, errors, even `help` — so that it pipes to `jq`.
  @Test func aJSONSessionPrintsOneLinePerCommand() throws {
    let run = ReplayRun([
      log, "--json", "-c", "watch todos.count", "-c", "break type=clearCompleted", "-c", "watches",
      "-c", "continue", "-c", "print todos.count", "-c", "delete 1", "-c", "skip 3", "-c", "nxt",
      "-c", "help goto",
    ])
    #expect(run.status == 2)
    #expect(run.standardError == "")
    let values = try run.standardOutput.split(separator: "\n").map {
      try JSONParser.parse(String($0))
    }
    try #require(values.count == 9)
    #expect(values[0].jsonText == #"{"id":1,"watch":"todos.count","value":0}"#)
    #expect(values[1].jsonText == #"{"id":2,"break":"type=clearCompleted"}"#)
    #expect(
      values[2].jsonText
        == #"{"breakpoints":[{"id":1,"watch":"todos.count"},{"id":2,"break":"type=clearCompleted"}]}"#
    )
    #expect(values[3]["position"]?.intValue == 1)
    #expect(array(values[3]["stoppedBy"])?.first?["id"]?.intValue == 1)
    #expect(values[4].intValue == 1)
    #expect(values[5].jsonText == #"{"deleted":[1]}"#)
    #expect(values[6].jsonText == #"{"skips":[3]}"#)
    #expect(values[7]["error"]?.stringValue?.hasPrefix("unknown command 'nxt'") == true)
    #expect(values[8]["usage"]?.stringValue == "goto N|first|last")
  }

  /// With `--json` and no `-c`, the commands come from standard input, with no banner or echo.
  @Test func aJSONSessionReadsItsCommandsFromStandardInput() throws {
    let run = ReplayRun([log, "--json"], input: ["goto 2", "", "next", "  ", "quit", "goto 3"])
    #expect(run.status == 0)
    // An empty line is no command: no answer, no repeat.
    #expect(
      run.standardOutput.split(separator: "\n").map {
        try? JSONParser.parse(String($0))["position"]
      }
        == [.number("2"), .number("3")])
  }

  @Test func skippedActionsAreMarkedOnTheActionEverywhere() throws {
    let (run, values) = try results(
      log, "skip 3", "goto 3 --json", "action --json", "list 3 --json", "info --json")
    #expect(run.status == 0)
    try #require(values.count == 4)
    #expect(values[0]["action"]?["replaySkips"] == .bool(true))
    #expect(values[1]["replaySkips"] == .bool(true))
    let listed = try #require(array(values[2]["actions"]))
    #expect(listed.map { $0["replaySkips"] != nil } == [false, true, false])
    #expect(values[2]["position"]?.intValue == 3)
    #expect(array(values[3]["skips"]) == [.number("3")])
  }

  @Test func jsonIsTheFlagOnlyAsTheLastWord() {
    let run = ReplayRun([log, "-c", "find Buy --json milk"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("matches 'Buy --json milk'"), "\(run.standardError)")
  }

  /// Times no recorder writes (a hand-made or damaged log) are shown as numbers, never a trap.
  @Test func outlandishTimesStayNumbers() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let url = directory.appendingPathComponent("times.jsonl")
      let lines = [
        #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"counter","#
          + #""actionType":"CounterAction","stateType":"CounterState","#
          + #""recordedAt":"2026-11-21T10:00:00Z","firstSeq":1,"checkpointInterval":5,"#
          + #""state":{"count":0}}"#,
        #"{"kind":"action","seq":1,"time":-0.5,"type":"increment","action":{"increment":{}}}"#,
        #"{"kind":"action","seq":2,"time":1e300,"type":"increment","action":{"increment":{}}}"#,
        #"{"kind":"action","seq":3,"time":1e400,"type":"increment","action":{"increment":{}}}"#,
      ]
      try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
      let (run, values) = try results(
        url.path, "goto 1 --json", "goto 2 --json", "goto 3 --json", "goto 1", "goto 3")
      #expect(run.status == 0, "\(run.standardError)")
      try #require(values.count == 3)
      #expect(values[0]["action"]?["time"] == .number("-0.5"))
      #expect(values[1]["action"]?["time"] == .number("1e+300"))
      #expect(values[2]["action"]?["time"] == .null)
      let actions = ReplayRun(["actions", url.path, "--json"])
      #expect(actions.status == 0)
      #expect(
        try actions.standardOutput.split(separator: "\n").map { line -> Int? in
          try JSONParser.parse(String(line))["seq"]?.intValue
        } == [1, 2, 3])
    }
  }

  /// An empty line repeats a move, not a command that adds or skips something.
  @Test func anEmptyLineDoesNotAddASecondWatchpoint() {
    let run = ReplayRun([log], input: ["watch filter", "", "next", "", "watches"])
    #expect(run.status == 0)
    #expect(run.standardOutput.components(separatedBy: "watchpoint ").count == 2)
    #expect(run.standardOutput.contains("(replay 2/340) watches"), "\(run.standardOutput)")
    #expect(!run.standardOutput.contains("\n2  "), "\(run.standardOutput)")
  }

  @Test func aCommandArgumentOfSeveralLinesIsSeveralCommands() throws {
    let (run, values) = try results(log, "goto 2 --json\r\n\nprint filter --json\n\n")
    #expect(run.status == 0, "\(run.standardError)")
    try #require(values.count == 2)
    #expect(values[0]["position"]?.intValue == 2)
    #expect(values[1] == .string("all"))
    #expect(run.outputLines.filter { $0.hasPrefix("(replay) ") }.count == 2)
  }

  @Test func skippingASkippedActionSaysSo() {
    let run = ReplayRun([log, "-c", "skip 3", "-c", "skip 3"])
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "error: action 3 is skipped already ('unskip 3' replays it again)\n")
  }

  @Test func anUnknownCommandGivenJSONAnswersInJSON() throws {
    let (run, values) = try results(log, "nxt --json")
    #expect(run.status == 2)
    #expect(run.standardError == "")
    #expect(values.first?["error"]?.stringValue?.hasPrefix("unknown command 'nxt'") == true)
  }
}

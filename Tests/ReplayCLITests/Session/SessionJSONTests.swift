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
    #expect(values[3]["cursor"]?.intValue == 13)
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
    #expect(array(values[2]["replaySkips"]) == [])
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

  @Test func aCommandWithoutAJSONFormSaysSo() {
    let run = ReplayRun([log, "-c", "watch todos.count --json", "-c", "help next"])
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "error: 'watch' has no --json form (see 'help' for the commands that have one)\n")
    #expect(run.standardOutput.contains("  --json prints the result as one line of JSON.\n"))
  }
}

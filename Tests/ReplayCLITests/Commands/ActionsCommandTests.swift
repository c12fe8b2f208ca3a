import Foundation
import Testing

/// `replay actions`: the recorded actions, filtered by seq and type, as text or JSON lines.
@Suite struct ActionsCommandTests {
  private let log = CLIFixture.path("todo-session.jsonl")

  /// The `type` of every action line of the fixture, read without `replay`.
  private func recordedTypes() throws -> [String] {
    let text = try String(contentsOfFile: log, encoding: .utf8)
    return try text.split(separator: "\n").compactMap { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["kind"] as? String == "action" ? object?["type"] as? String : nil
    }
  }

  @Test func listsARangeOfActionsOnePerLine() {
    let run = ReplayRun(["actions", log, "--from", "10", "--to", "12"])
    #expect(run.status == 0)
    #expect(run.standardError == "")
    #expect(
      run.standardOutput == """
          10    2.500s  move           {"from":1,"to":1}
          11    2.750s  add            {"title":"Call mum"}
          12    3.000s  setFilter      "active"

        """)
  }

  @Test func listsEveryActionWithoutARange() throws {
    let run = ReplayRun(["actions", log])
    #expect(run.status == 0)
    #expect(run.outputLines.count == 340)
    #expect(run.outputLines.first?.hasPrefix("    1    0.250s  add ") == true)
    #expect(run.outputLines.last?.hasPrefix("  340   85.000s  add ") == true)
  }

  @Test func typeFilterKeepsOnlyActionsOfThatType() throws {
    let run = ReplayRun(["actions", log, "--type", "move"])
    #expect(run.status == 0)
    let moves = try recordedTypes().filter { $0 == "move" }.count
    #expect(moves > 0)
    #expect(run.outputLines.count == moves)
    #expect(run.outputLines.allSatisfy { $0.dropFirst(17).hasPrefix("move ") })
  }

  @Test func typeFilterMatchingNothingWarns() {
    let run = ReplayRun(["actions", log, "--type", "mvoe"])
    #expect(run.status == 0)
    #expect(run.standardOutput == "")
    #expect(
      run.standardError == "warning: no action of type 'mvoe' in seq 1…340; did you mean 'move'?\n")
  }

  @Test func aRangeOutsideTheLogWarns() {
    let run = ReplayRun(["actions", log, "--from", "500"])
    #expect(run.status == 0)
    #expect(run.standardOutput == "")
    #expect(
      run.standardError == "warning: no actions in seq 500…: the log's actions are 1…340\n")
    let backwards = ReplayRun(["actions", log, "--from", "5", "--to", "4"])
    #expect(backwards.standardError == "warning: --from 5 is after --to 4: no actions to list\n")
    let past = ReplayRun(["actions", log, "--from", "400", "--to", "500"])
    #expect(past.standardError.hasPrefix("warning: no actions in seq 400…500: "))
  }

  @Test func jsonPrintsOneParsableObjectPerAction() throws {
    let run = ReplayRun(["actions", log, "--from", "10", "--to", "20", "--json"])
    #expect(run.status == 0)
    #expect(run.outputLines.count == 11)
    var seqs: [Int] = []
    for line in run.outputLines {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      seqs.append(try #require(object["seq"] as? Int))
      #expect(object["type"] is String)
      #expect(object["action"] is [String: Any])
      #expect(object["line"] as? Int == (object["seq"] as? Int).map { $0 + 1 })
    }
    #expect(seqs == Array(10...20))
    #expect(
      run.outputLines.first
        == #"{"seq":10,"time":2.500000,"type":"move","action":{"move":{"from":1,"to":1}},"line":11}"#
    )
  }

  @Test func jsonWithATypeFilterKeepsOnlyThatType() throws {
    let run = ReplayRun(["actions", log, "--type", "setFilter", "--json"])
    #expect(run.status == 0)
    let types = try run.outputLines.map { line in
      try (JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"]
        as? String
    }
    #expect(types.count == (try recordedTypes().filter { $0 == "setFilter" }.count))
    #expect(types.allSatisfy { $0 == "setFilter" })
  }

  @Test func tornLogListsItsCompleteActionsAndWarnsAboutTheCutLine() {
    let torn = CLIFixture.path("todo-torn.jsonl")
    let run = ReplayRun(["actions", torn, "--from", "127"])
    #expect(run.status == 0)
    #expect(run.outputLines.count == 1)
    #expect(run.outputLines.first?.hasPrefix("  127 ") == true)
    #expect(
      run.standardError.replacingLog(torn) == """
        warning: $LOG:131 (byte 15932): line cut off mid-write (67 bytes, no newline at the end of the file)
        note: the last line was dropped: the app was cut off while writing it

        """)
  }
}

import Foundation
import RewindJSON
import Testing

/// The session's `search`: inside the state at the cursor, and across time in process and in
/// the worker (one request for the whole walk).
@Suite struct StateSearchCommandTests {
  private let log = CLIFixture.path("todo-session.jsonl")

  @Test func listsTheMatchesAtTheCursor() {
    let run = ReplayRun([log, "-c", "goto 120", "-c", "search milk", "-c", "search done=true"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput.contains(
        #"""
        2 matches for 'milk' at position 120:
          todos[1].title: "Buy milk"
          todos[6].title: "Buy milk"
        """#))
    #expect(run.standardOutput.contains("match for 'done=true' at position 120:"))
  }

  @Test func movesWhereAMatchAppearsOrGoesTheSameInTheWorker() throws {
    try PowerTools.useReplayBinaryAsWorker()
    var positions: [[String]] = []
    for isolation in ["--no-isolate", "--isolate"] {
      let run = ReplayRun([
        log, isolation, "-c", "search -n bike --json", "-c", "goto last",
        "-c", "search -b Zoë --json", "-c", "search -n nothing-like-this",
      ])
      #expect(run.status == 2, "the last search finds nothing: \(run.standardError)")
      #expect(
        run.standardError.contains("has a match for 'nothing-like-this'"))
      let moves = run.outputLines.filter { $0.hasPrefix("{") }.compactMap {
        try? JSONParser.parse($0)
      }
      #expect(moves.count == 2)
      #expect(moves.first?["present"] == .bool(true))
      positions.append(moves.compactMap { $0["position"]?.jsonText })
    }
    #expect(positions[0] == positions[1])
    #expect(positions[0].first == "8")
  }
}

import Foundation
import RewindReplay
import Testing

@testable import ReplayCLI

@Suite struct IsolationTests {
  @Test func aTrappingReducerIsReportedAndTheSessionGoesOn() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let result = PowerTools.run([
      PowerTools.fixture("todo-crash.jsonl"), "--isolate",
      "-c", "goto 37", "-c", "next", "-c", "print todos.count", "-c", "next", "-c", "back",
    ])
    #expect(result.status == 2)
    let crashes = result.err.split(separator: "\n").filter { $0.contains("crashed") }
    #expect(crashes.count == 2, "stepping onto the fatal action again reports it again")
    #expect(
      crashes.first?.contains("(SIGILL) while applying action 38 (type \"move\")") == true
        || crashes.first?.contains("(SIGTRAP) while applying action 38 (type \"move\")") == true)
    #expect(crashes.first?.contains("the last good position is 37") == true)
    #expect(result.out.contains(">   36"))
    #expect(result.out.contains("(replay) print todos.count\n6\n"))
  }

  @Test func crashMarkersAreParsed() {
    let marker = CrashMarker(
      "Fatal error: Index out of range\nreplay: x.jsonl: the app's reducer stopped the process while applying action 38 (type \"move\") from line 42\n"
    )
    #expect(marker.seq == 38)
    #expect(marker.type == "move")
    #expect(marker.line == 42)
    #expect(CrashMarker("").seq == nil)
  }
}

import RewindJSON
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// The TUI is an adapter: its keys become typed requests to the replay service, whose cursor,
/// watchpoints and stops it shows; it keeps none of its own.
@Suite struct TUIRequestTests {
  @Test func aKeyReachesTheServiceAsATypedRequest() throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type("l")
    #expect(model.lastRequest as? MoveRequest == MoveRequest(.steps(1)))
    #expect(model.service.position == 1)
    model.type("\u{1B}[F")
    #expect(model.lastRequest as? MoveRequest == MoveRequest(.position(12)))
    model.type("\u{1B}[H")
    // `w` on the state cursor (the root's first row: `count`) is a WatchRequest for its path.
    model.type("\tjw")
    let watch = try #require(model.lastRequest as? WatchRequest)
    #expect(watch.path.sessionText == "count")
    #expect(model.service.debugger.breakpoints.map(\.breakpoint) == [.watch(watch.path)])
    #expect(model.messages.map(\.text) == ["watchpoint 1: count (now 0)"])
    // `c` is a ContinueRequest; the stop is the service's, marked on the timeline.
    model.type("c")
    #expect(model.lastRequest as? ContinueRequest == ContinueRequest(.forward))
    #expect(model.position == 1)
    #expect(model.service.position == 1)
    #expect(model.stops == [1])
    #expect(model.messages.first?.text == "stopped by 1: count: 0 → 1")
    // `/` in the action list then `n`: a FindRequest (in the state pane, `/` searches the state).
    model.type("\t/type=add\r")
    let find = try #require(model.lastRequest as? FindRequest)
    #expect(find == FindRequest(.type("add"), .forward))
  }

  @Test func aCommandAfterTheColonIsParsedByTheSessionsTable() throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type(":goto 5\r")
    #expect(model.lastRequest as? MoveRequest == MoveRequest(.position(5)))
    #expect(model.position == 5)
    model.type(":print count\r")
    #expect(model.lastRequest is PrintRequest)
    #expect(model.messages.map(\.text) == ["8"])
    model.type(":nxt\r")
    #expect(
      model.messages.map(\.text) == [
        "error: unknown command 'nxt'. Did you mean 'next'? Type 'help' for the list."
      ])
    model.type(":quit\r")
    #expect(model.isFinished)
  }

  @Test func everyKeyOfTheHelpIsBoundAndTheHelpComesFromTheTable() {
    for binding in TUIKeyTable.bindings {
      #expect(binding.keys.count == binding.commands.count, "\(binding.label)")
      for (key, command) in zip(binding.keys, binding.commands) {
        #expect(TUIKeyTable.command(for: key) == command, "\(binding.label)")
      }
    }
    let help = TUIKeyTable.helpLines
    #expect(
      help.contains {
        $0.hasPrefix("c / C") && $0.hasSuffix("continue / reverse-continue to a watch or break")
      })
    #expect(TUIKeyTable.command(for: .character("c")) == .continueRun(.forward))
    #expect(TUIKeyTable.command(for: .character("z")) == nil)
  }
}

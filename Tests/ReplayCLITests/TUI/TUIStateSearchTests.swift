import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// `/` in the TUI's state pane searches the state; `n` and `N` there move across time. And the
/// action list shows where each action came from.
@Suite struct TUIStateSearchTests {
  @Test func slashInTheStatePaneFindsTheValueAndPutsTheCursorOnIt() throws {
    let model = try TUIFixture.model("todo-session.jsonl", width: 100, height: 30)
    model.type("g20\r")
    model.type("\t")  // the state pane
    #expect(model.focus == .state)
    model.type("/title=Book flights\r")
    #expect(
      model.lastRequest as? SearchRequest
        == SearchRequest(StateQuery(parsing: "title=Book flights")))
    #expect(model.tree.cursor.sessionText.hasPrefix("todos["))
    #expect(model.tree.cursor.sessionText.hasSuffix("].title"))
    #expect(model.screen.contains("\"Book flights\""))
    // In the action list, `/` still finds actions.
    model.type("\t/type=add\r")
    #expect(model.lastRequest is FindRequest)
  }

  @Test func nInTheStatePaneMovesToWhereTheMatchAppears() throws {
    let model = try TUIFixture.model("todo-session.jsonl", width: 100, height: 30)
    model.type("\t/title=Book flights\r")  // none at the initial state
    model.type("n")
    // `history todos[id=3].title` says the todo titled "Book flights" is added by action 9.
    #expect(model.position == 9)
    #expect(model.tree.cursor.sessionText.hasSuffix("].title"))
  }

  @Test func theActionListShowsCallSitesAndCauses() throws {
    let model = try TUIFixture.model("todo-origins.jsonl", width: 200, height: 30)
    model.type("g39\r")
    let row = model.screen.split(separator: "\n").first { $0.contains("> 39") } ?? ""
    #expect(row.contains("← 38"))
    #expect(row.contains("@ TodoScreen.swift:58"))
    // A narrow pane keeps the payload and the cause, and leaves the call site to `where`.
    let narrow = try TUIFixture.model("todo-origins.jsonl", width: 100, height: 30)
    narrow.type("g38\r")
    let toggle = narrow.screen.split(separator: "\n").first { $0.contains("> 38") } ?? ""
    #expect(toggle.contains(#"{"id":10}"#))
    #expect(!toggle.contains("@ TodoScreen.swift"))
  }
}

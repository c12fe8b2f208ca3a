import Testing

@testable import ReplayCLI

/// Keys, as the terminal sends their bytes, and what they do to the debugger's model.
@Suite struct TUIKeyTests {
  @Test func arrowsAndVimKeysStep() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("\u{1B}[C\u{1B}[Cl")
    #expect(model.position == 3)
    model.type("\u{1B}[Dh")
    #expect(model.position == 1)
    model.type("\u{1B}[B\u{1B}[Bj")
    #expect(model.position == 4)
    model.type("\u{1B}[A")
    #expect(model.position == 3)
  }

  @Test func steppingPastEitherEndSaysSo() throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type("\u{1B}[D")
    #expect(model.position == 0)
    #expect(model.messages.map(\.text) == ["already at the initial state (position 0)"])
    model.type("\u{1B}[F\u{1B}[C")
    #expect(model.position == 12)
    #expect(model.messages.map(\.text) == ["already at the last position (12)"])
  }

  @Test func pageDownAndUpMoveByTheListsHeight() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    #expect(model.layout.contentHeight == 19)
    model.type("\u{1B}[6~")
    #expect(model.position == 19)
    #expect(model.listTop == 1)
    model.type("\u{1B}[6~\u{1B}[5~")
    #expect(model.position == 19)
    #expect(model.listTop == 19)
  }

  @Test(arguments: ["\u{1B}[H", "\u{1B}[1~", "\u{1B}OH", "\u{1B}[7~"])
  func homeGoesToTheInitialState(home: String) throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g200\r")
    model.type(home)
    #expect(model.position == 0)
    #expect(model.listTop == 0)
  }

  @Test(arguments: ["\u{1B}[F", "\u{1B}[4~", "\u{1B}OF", "\u{1B}[8~"])
  func endGoesToTheLastAction(end: String) throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type(end)
    #expect(model.position == 340)
    #expect(model.listTop == 322)
  }

  @Test func gotoAsksForAPosition() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g12")
    #expect(model.prompt?.kind == .goto)
    #expect(model.prompt?.line.text == "12")
    #expect(model.screen.split(separator: "\n")[22] == "goto: 12")
    model.type("\r")
    #expect(model.prompt == nil)
    #expect(model.position == 12)
    model.type("glast\r")
    #expect(model.position == 340)
    model.type("g9999\r")
    #expect(model.position == 340)
    #expect(
      model.messages == [
        TUIMessageLine(
          text: "position 9999 is out of range: valid positions are 0…340", isError: true)
      ])
  }

  @Test func escapeClosesAPromptWithoutActing() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g12")
    #expect(model.prompt?.line.text == "12")
    model.type("\u{1B}")
    #expect(model.prompt == nil)
    #expect(model.position == 0)
  }

  @Test func findThenNextAndPreviousMatch() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("/add\r")
    #expect(model.lastQuery == "add")
    #expect(model.position == 1)
    model.type("n")
    #expect(model.position == 3)
    model.type("n")
    #expect(model.position == 9)
    model.type("N")
    #expect(model.position == 3)
    model.type("/type=setFilter\r")
    #expect(model.position == 12)
    #expect(model.messages.map(\.text) == [#">   12    3.000s  setFilter      "active""#])
  }

  @Test func aFailedFindReportsAnErrorAndStays() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("/type=addd\r")
    #expect(model.position == 0)
    #expect(
      model.messages == [
        TUIMessageLine(
          text: "error: no action after position 0 matches 'type=addd'; did you mean type=add?",
          isError: true)
      ])
  }

  @Test func colonRunsASessionCommandAtTheCursor() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type(":goto 5\r")
    #expect(model.position == 5)
    model.type("\u{1B}[C:print todos.count\r")
    #expect(model.position == 6)
    #expect(model.messages.map(\.text) == ["1"])
    model.type(":next 3\r")
    #expect(model.position == 9)
    model.type(":info\r")
    #expect(model.messages.count > 1)
    #expect(model.screen.contains("9 of 0…340"))
    model.type("x")
    #expect(model.messages.isEmpty)
  }

  @Test func colonPromptCompletesAndRemembers() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g12\r:pr\t")
    #expect(model.prompt?.line.text == "print ")
    model.type("to\t\r")
    #expect(model.messages.first?.text == "[")
    model.type(":\u{1B}[A")
    #expect(model.prompt?.line.text == "print todos")
  }

  @Test func colonQuitEndsTheDebugger() throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type(":quit\r")
    #expect(model.isFinished)
  }

  @Test(arguments: ["q", "\u{03}"])
  func qAndCtrlCQuit(key: String) throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type("l" + key + "l")
    #expect(model.isFinished)
    #expect(model.position == 1)
  }

  @Test func watchTheTreeCursorThenContinueBothWays() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g10\r\t")
    #expect(model.focus == .state)
    model.type("\u{1B}[B\u{1B}[B\u{1B}[B")
    #expect(model.tree.cursor.sessionText == "filter")
    model.type("w")
    #expect(model.messages.map(\.text) == [#"watchpoint 1: filter (now "all")"#])
    model.type("c")
    #expect(model.position == 12)
    #expect(model.stops == [12])
    #expect(model.messages.first?.text == #"stopped by 1: filter: "all" → "active""#)
    model.type("c")
    #expect(model.stops == [12, 19])
    model.type("C")
    #expect(model.position == 12)
    #expect(model.stops == [12, 19])
  }

  @Test func tabSwitchesPanesAndUpDownMoveInTheTree() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g12\r\t\u{1B}[B")
    #expect(model.position == 12)
    #expect(model.tree.cursor.sessionText == "todos[0]")
    model.type("\r")
    #expect(model.screen.contains("│>  ▾ [0]: {3 keys}"))
    model.type(" \t\u{1B}[B")
    #expect(model.focus == .actions)
    #expect(model.position == 13)
    #expect(model.tree.cursor.sessionText == "todos[0]")
  }

  @Test func dTogglesTheDiffPane() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g12\rd")
    #expect(model.showsDiff)
    #expect(model.screen.contains(#" filter: "all" → "active""#))
    model.type("d")
    #expect(!model.showsDiff)
  }

  @Test func helpShowsAndAnyKeyClosesIt() throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type("?")
    #expect(model.screen.contains("any key closes this help"))
    model.type("l")
    #expect(!model.showsHelp)
    #expect(model.position == 0)
  }

  @Test func theLastActionOfACrashLogIsNotRebuiltUntilConfirmed() throws {
    let model = try TUIFixture.model("todo-crash.jsonl")
    model.type("\u{1B}[F")
    #expect(model.position == 38)
    if case .unconfirmed = model.state(at: 38) {
    } else {
      Issue.record("the state at 38 was rebuilt")
    }
    #expect(model.changes(at: 38) == nil)
    model.type("d\tw")
    #expect(model.messages == [TUIMessageLine(text: "no state here to watch", isError: true)])
    model.type(":print\r")
    #expect(model.messages.first?.text.contains("press ! to rebuild it anyway") == true)
    #expect(model.screen.contains("│ Action 38 is the last one"))
    #expect(model.screen.contains(" not rebuilt yet: press ! to rebuild this state"))
    model.type("\u{1B}[D")
    #expect(model.position == 37)
    if case .value = model.state(at: 37) {} else { Issue.record("no state at 37") }
  }
}

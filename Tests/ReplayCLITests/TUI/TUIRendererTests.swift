import Foundation
import Rewind
import RewindExamples
import RewindReplayService
import Testing

@testable import ReplayCLI

/// Whole screens of the full-screen debugger, drawn without a terminal and compared as text.
@Suite struct TUIRendererTests {
  @Test func counterAtTheInitialState() throws {
    let model = try TUIFixture.model("counter.jsonl")
    #expect(
      model.screen == """
         replay · counter.jsonl · app counter · 12 actions · position 0/12
        [Actions]───────────────────────────────────┬ State at 0 ───────────────────────
        >  0  (initial state)                       │>  count: 0
           1  0.250s  increment                     │
           2  0.500s  increment                     │
           3  0.750s  add        10                 │
           4  1.000s  decrement                     │
           5  1.250s  add        -3                 │
           6  1.500s  increment                     │
           7  1.750s  add        100                │
           8  2.000s  decrement                     │
           9  2.250s  decrement                     │
          10  2.500s  add        7                  │
          11  2.750s  increment                     │
          12  3.000s  add        -20                │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
                                                    │
         █─────────────────────────────┼─────────────────────────────┼────────────┼ 0/12

         ←→ step  ↑↓ move  g goto  / find  n/N next  w watch  d diff  ? help  q quit
        """)
  }

  @Test func counterWithTheDiffPane() throws {
    let model = try TUIFixture.model("counter.jsonl")
    model.type("g5\rd")
    #expect(
      model.screen == """
         replay · counter.jsonl · app counter · 12 actions · position 5/12
        [Actions]───────────────────────────────────┬ State at 5 ───────────────────────
           0  (initial state)                       │>  count: 8
           1  0.250s  increment                     │
           2  0.500s  increment                     │
           3  0.750s  add        10                 │
           4  1.000s  decrement                     │
        >  5  1.250s  add        -3                 │
           6  1.500s  increment                     │
           7  1.750s  add        100                │
           8  2.000s  decrement                     │
           9  2.250s  decrement                     │
          10  2.500s  add        7                  │
         Diff of action 5 (4 → 5) ──────────────────────────────────────────────────────
         count: 11 → 8






         ──────────────────────────────█─────────────────────────────┼────────────┼ 5/12

         ←→ step  ↑↓ move  g goto  / find  n/N next  w watch  d diff  ? help  q quit
        """)
  }

  @Test func todoSessionAtASetFilter() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g12\r")
    #expect(
      model.screen == """
         replay · todo-session.jsonl · app todo · 340 actions · position 12/340
        [Actions]───────────────────────────────────┬ State at 12 ──────────────────────
            0  (initial state)                      │>▾ todos: [3 items]
            1  0.250s  add             {"title":"Ca…│   ▸ [0]: {"id":1,"title":"Fix the…
            2  0.500s  toggle          {"id":1}     │   ▸ [1]: {"id":3,"title":"Book fl…
            3  0.750s  add             {"title":"Pa…│   ▸ [2]: {"id":4,"title":"Call mu…
            4  1.000s  remove          {"id":2}     │   filter: "active"
            5  1.250s  toggle          {"id":1}     │   nextID: 5
            6  1.500s  clearCompleted               │
            7  1.750s  toggle          {"id":1}     │
            8  2.000s  rename          {"id":1,"tit…│
            9  2.250s  add             {"title":"Bo…│
           10  2.500s  move            {"from":1,"t…│
           11  2.750s  add             {"title":"Ca…│
        >  12  3.000s  setFilter       "active"     │
           13  3.250s  move            {"from":2,"t…│
           14  3.500s  add             {"title":"Ca…│
           15  3.750s  toggle          {"id":4}     │
           16  4.000s  move            {"from":2,"t…│
           17  4.250s  toggle          {"id":3}     │
           18  4.500s  setFilter       "active"     │
         ──█───────┼─────────┼──────────┼─────────┼──────────┼─────────┼────────┼ 12/340

         ←→ step  ↑↓ move  g goto  / find  n/N next  w watch  d diff  ? help  q quit
        """)
  }

  @Test func todoSessionWithAnUnfoldedTodoAndTheDiff() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g120\rd\t\u{1B}[B\u{1B}[B ")
    #expect(
      model.screen == """
         replay · todo-session.jsonl · app todo · 340 actions · position 120/340
         Actions ───────────────────────────────────┬[State at 120]─────────────────────
          110  27.500s  add             {"title":"P…│ ▾ todos: [12 items]
          111  27.750s  toggle          {"id":20}   │   ▸ [0]: {"id":12,"title":"Write …
          112  28.000s  remove          {"id":34}   │>  ▾ [1]: {3 keys}
          113  28.250s  clearCompleted              │       id: 13
          114  28.500s  toggle          {"id":11}   │       title: "Buy milk"
          115  28.750s  toggle          {"id":13}   │       done: false
          116  29.000s  add             {"title":"B…│   ▸ [2]: {"id":14,"title":"Call m…
          117  29.250s  move            {"from":6,"…│   ▸ [3]: {"id":11,"title":"Plan t…
          118  29.500s  toggle          {"id":13}   │   ▸ [4]: {"id":23,"title":"Book f…
          119  29.750s  remove          {"id":31}   │   ▸ [5]: {"id":25,"title":"Book f…
        > 120  30.000s  setFilter       "completed" │   ▸ [6]: {"id":24,"title":"Buy mi…
         Diff of action 120 (119 → 120) ────────────────────────────────────────────────
         filter: "all" → "completed"






         ──────────┼─────────┼───█─────┼──────────┼─────────┼─────────┼────────┼ 120/340

         ←→ step  ↑↓ move  g goto  / find  n/N next  w watch  d diff  ? help  q quit
        """)
  }

  @Test func theLastActionOfACrashLogWaitsForConfirmation() throws {
    let model = try TUIFixture.model("todo-crash.jsonl")
    model.type("\u{1B}[F")
    #expect(
      model.screen == """
         replay · todo-crash.jsonl · app todo · 38 actions · position 38/38 · cut off
        [Actions]───────────────────────────────────┬ State at 38 ──────────────────────
          20  5.000s  rename          {"id":6,"titl…│ Action 38 is the last one
          21  5.250s  remove          {"id":6}      │ recorded: the app stopped while
          22  5.500s  toggle          {"id":2}      │ running it (the log has no end
          23  5.750s  toggle          {"id":8}      │ record), so its reducer may crash
          24  6.000s  move            {"from":5,"to…│ this process too.
          25  6.250s  clearCompleted                │ Press ! to rebuild this state
          26  6.500s  add             {"title":"Bac…│ anyway, or run replay without
          27  6.750s  toggle          {"id":5}      │ --no-isolate.
          28  7.000s  add             {"title":"Buy…│
          29  7.250s  move            {"from":0,"to…│
          30  7.500s  rename          {"id":4,"titl…│
          31  7.750s  toggle          {"id":5}      │
          32  8.000s  toggle          {"id":5}      │
          33  8.250s  setFilter       "active"      │
          34  8.500s  rename          {"id":5,"titl…│
          35  8.750s  remove          {"id":9}      │
          36  9.000s  add             {"title":"Pay…│
          37  9.250s  toggle          {"id":7}      │
        > 38  9.500s  move            {"from":9,"to…│
         ──────────────────┼──────────────────┼──────────────────┼───────────────█ 38/38
        press ! to rebuild this state anyway (the app stopped during this action)
         ←→ step  ↑↓ move  g goto  / find  n/N next  w watch  d diff  ? help  q quit
        """)
  }

  /// The default, a reducer in a worker process: End stops at the last good state with the
  /// crash's headline; → onto the fatal action shows its crash card.
  @Test func endOnACrashLogLandsBeforeTheCrashAndTheFatalActionShowsTheCard() throws {
    let model = try TUIFixture.model("todo-crash.jsonl", isolated: true)
    model.type("\u{1B}[F")
    #expect(model.position == 37)
    let screen = model.screen
    #expect(
      screen.contains(
        "stopped at 37 (→ shows the crash): the app's reducer crashed on action 38 (type"),
      "\(screen)")
    #expect(screen.contains("> 37"), "the cursor's row is on the screen: \(screen)")
    model.type("\u{1B}[C")
    #expect(model.position == 38)
    let card = model.screen
    #expect(card.contains("│ the app's reducer crashed on"), "\(card)")
    #expect(card.contains("Index out of range"), "\(card)")
    #expect(card.contains(" Todo.swift:"), "\(card)")
    #expect(card.contains("The last state before the crash"), "\(card)")
  }

  @Test func underSixtyColumnsOnlyTheFocusedPaneIsShown() throws {
    let model = try TUIFixture.model("todo-session.jsonl", width: 40, height: 10)
    model.type("g120\r")
    #expect(
      model.screen == """
         replay · todo-session.jsonl · app todo…
        [Actions]───────────────────────────────
          116  29.000s  add        {"title":"Bo…
          117  29.250s  move       {"from":6,"t…
          118  29.500s  toggle     {"id":13}
          119  29.750s  remove     {"id":31}
        > 120  30.000s  setFilter  "completed"
         ────┼───┼─█──┼───┼────┼───┼───┼ 120/340

         ←→ step  ↑↓ move  ? help  q quit
        """)
    model.type("\t")
    #expect(model.screen.contains("[State at 120]───"))
    #expect(!model.screen.contains("Actions"))
  }

  @Test func underTenRowsTheScreenIsOneLine() throws {
    let model = try TUIFixture.model("todo-session.jsonl", width: 20, height: 5)
    model.type("g120\r")
    #expect(model.screen == "120/340 setFilter \"…\n\n\n\n")
    model.type("g")
    #expect(model.screen.hasPrefix("goto:"))
  }

  @Test(arguments: [
    (0, 0), (1, 1), (1, 24), (80, 1), (2, 3), (10, 10), (59, 10), (60, 9), (300, 200),
  ])
  func oddSizesNeverCrash(width: Int, height: Int) throws {
    let model = try TUIFixture.model("todo-session.jsonl", width: width, height: height)
    for keys in [
      "g120\r", "d", "\t", "\u{1B}[B", " ", "?", "x", ":info\r", "\u{1B}[F", "\u{1B}[6~",
    ] {
      model.type(keys)
      let grid = TUIRenderer.render(model)
      #expect(grid.width == width)
      #expect(grid.height == height)
    }
  }

  @Test func withoutTheAppStatesShowOnlyAtCheckpoints() throws {
    let opened = try OpenedLog(path: CLIFixture.path("counter.jsonl"), recovery: .tail, apps: [])
    let model = TUIModel(opened: opened, width: 80, height: 24)
    model.type("g3\rd")
    let lines = model.screen.split(separator: "\n").map(String.init)
    #expect(lines[2].hasSuffix("│ no state here: this replay binary"))
    #expect(lines[13] == " Diff of action 3 (2 → 3) " + String(repeating: "─", count: 54))
    #expect(lines[14].hasPrefix(" this replay binary does not know the app \"counter\""))
    model.type("g5\r")
    #expect(model.screen.contains("│>  count: 8"))
  }

  @Test func resizingKeepsTheCursorInView() throws {
    let model = try TUIFixture.model("todo-session.jsonl")
    model.type("g300\r")
    model.resize(width: 80, height: 12)
    #expect(model.screen.contains("> 300"))
    model.resize(width: 0, height: 0)
    model.resize(width: 100, height: 40)
    #expect(model.screen.contains("> 300"))
  }

  @Test func escapeSequencesInALogAreDrawnEscaped() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("evil\u{1B}[2J.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(to: path, app: "todo")
      store.dispatch(.add(title: "pwn\u{1B}[2J\u{1B}]52;c;QUJD\u{07}\u{9B}31m"))
      recorder.close()
      let model = try TUIFixture.model(path: path, width: 120, height: 24)
      model.type("\u{1B}[Cd")
      let screen = model.screen
      #expect(screen.contains(#"evil\x1b[2J.jsonl"#))
      let lines = screen.split(separator: "\n")
      #expect(lines[3].contains(#"add  {"title":"pwn\u001b[2J\u001b]52;c;"#))
      #expect(lines[2].contains(#"│>▾ todos: [1 item]"#))
      #expect(lines[3].contains(#"▸ [0]: {"id":1,"title":"pwn\u001b[2J\u001b]52"#))
      #expect(
        screen.contains(
          #"+ todos[0]: {"id":1,"title":"pwn\u001b[2J\u001b]52;c;QUJD\u0007\u{9b}31m","done":false}"#
        ))
      var writer = ScreenWriter(style: .colored)
      let bytes = String(decoding: writer.update(to: TUIRenderer.render(model)), as: UTF8.self)
      #expect(!bytes.contains("\u{1B}[2J"))
      #expect(!bytes.contains("\u{1B}]"))
      #expect(!bytes.contains("\u{07}"))
      #expect(!bytes.contains("\u{9B}"))
    }
  }
}

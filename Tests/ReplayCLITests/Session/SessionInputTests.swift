import Testing

/// A session reading its commands from standard input that is not a terminal: a banner, then
/// each command echoed after the prompt `(replay N/M) `, until `quit` or the end of input.
@Suite struct SessionInputTests {
  private let log = CLIFixture.path("todo-session.jsonl")

  @Test func echoesEachCommandAfterThePromptAndStopsAtQuit() {
    let run = ReplayRun([log], input: ["goto 12", "print filter", "next 2", "quit", "next"])
    #expect(run.status == 0)
    #expect(run.standardError == "")
    #expect(
      run.standardOutput.replacingLog(log) == """
        $LOG: app todo, 340 actions (seq 1…340), 7 checkpoints
        at position 0 (initial state). Type 'help' for commands.
        (replay 0/340) goto 12
        >   12    3.000s  setFilter      "active"
        (replay 12/340) print filter
        "active"
        (replay 12/340) next 2
        >   14    3.500s  add            {"title":"Call mum"}
        (replay 14/340) quit

        """)
  }

  @Test func emptyLineRepeatsTheLastCommand() {
    let run = ReplayRun([log], input: ["next", "", "", "print todos.count"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput.replacingLog(log) == """
        $LOG: app todo, 340 actions (seq 1…340), 7 checkpoints
        at position 0 (initial state). Type 'help' for commands.
        (replay 0/340) next
        >    1    0.250s  add            {"title":"Call mum #764"}
        (replay 1/340) 
        >    2    0.500s  toggle         {"id":1}
        (replay 2/340) 
        >    3    0.750s  add            {"title":"Pay rent 💸"}
        (replay 3/340) print todos.count
        2

        """)
  }

  @Test func emptyLineBeforeAnyCommandDoesNothing() {
    let run = ReplayRun([log], input: ["", "  ", "goto 3"])
    #expect(run.status == 0)
    #expect(run.standardError == "")
    #expect(
      run.outputLines.dropFirst(2) == [
        "(replay 0/340) ", "(replay 0/340)   ", "(replay 0/340) goto 3",
        #">    3    0.750s  add            {"title":"Pay rent 💸"}"#,
      ])
  }

  @Test func endOfInputEndsTheSession() {
    let run = ReplayRun([CLIFixture.path("counter.jsonl")], input: ["goto last"])
    #expect(run.status == 0)
    #expect(run.outputLines.last == ">   12    3.000s  add            -20")
  }

  @Test func errorsGoToStandardErrorAndTheSessionGoesOnToEndWithStatusTwo() {
    let run = ReplayRun(
      [log], input: ["goto 2", "goto 9999", "print todos[0].titl", "nxet", "goto 1"])
    #expect(run.status == 2)
    #expect(
      run.standardError == """
        error: position 9999 is out of range: valid positions are 0…340
        error: todos[0] has no key 'titl'; its keys are: id, title, done; did you mean 'title'?
        error: unknown command 'nxet'. Did you mean 'next'? Type 'help' for the list.

        """)
    #expect(run.outputLines.last == #">    1    0.250s  add            {"title":"Call mum #764"}"#)
  }

  @Test func bannerOfACrashLogSaysItWasCutOff() {
    let crash = CLIFixture.path("todo-crash.jsonl")
    let run = ReplayRun([crash], input: ["goto 37"])
    #expect(run.status == 0)
    #expect(
      run.outputLines.prefix(3).map { $0.replacingLog(crash) } == [
        "$LOG: app todo, 38 actions (seq 1…38), 3 checkpoints",
        "the log was cut off — no end record: the app crashed or was killed while running action "
          + "38 (move)",
        "at position 0 (initial state). Type 'help' for commands.",
      ])
  }

  @Test func bannerOfATornLogWarnsAboutTheDroppedLine() {
    let torn = CLIFixture.path("todo-torn.jsonl")
    let run = ReplayRun([torn], input: [])
    #expect(run.status == 0)
    #expect(
      run.standardError.replacingLog(torn)
        == "warning: $LOG:131 (byte 15932): line cut off mid-write (67 bytes, no newline at the end "
        + "of the file)\n")
  }
}

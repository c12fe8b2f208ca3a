import Testing

/// Session commands given with `-c`: each is echoed after `(replay)`, its output follows, and the
/// exit status is 2 when any of them failed.
@Suite struct SessionScriptTests {
  private let log = CLIFixture.path("todo-session.jsonl")

  private func session(_ commands: String...) -> ReplayRun {
    ReplayRun([log] + commands.flatMap { ["-c", $0] })
  }

  @Test func movesPrintsListsAndFinds() {
    let run = session(
      "goto 12", "print todos.count", "next", "back 3", "list 5", "find type=move",
      "find -b type=add", "action")
    #expect(run.status == 0)
    #expect(run.standardError == "")
    #expect(
      run.standardOutput == """
        (replay) goto 12
        >   12    3.000s  setFilter      "active"
        (replay) print todos.count
        3
        (replay) next
        >   13    3.250s  move           {"from":2,"to":1}
        (replay) back 3
        >   10    2.500s  move           {"from":1,"to":1}
        (replay) list 5
            8    2.000s  rename         {"id":1,"title":"Fix the bike #641"}
            9    2.250s  add            {"title":"Book flights"}
        >  10    2.500s  move           {"from":1,"to":1}
           11    2.750s  add            {"title":"Call mum"}
           12    3.000s  setFilter      "active"
        (replay) find type=move
        >   13    3.250s  move           {"from":2,"to":1}
        (replay) find -b type=add
        >   11    2.750s  add            {"title":"Call mum"}
        (replay) action
        action 11 at 2.750s, type add, line 12
        {
          "add": {
            "title": "Call mum"
          }
        }

        """)
  }

  @Test func verifyInASessionIsTheVerifyCommandsRequestAndLeavesTheCursor() {
    let alone = ReplayRun(["verify", log])
    let inSession = session("goto 12", "verify", "print todos.count")
    #expect(alone.status == 0)
    #expect(inSession.status == 0)
    #expect(
      inSession.standardOutput
        == "(replay) goto 12\n>   12    3.000s  setFilter      \"active\"\n(replay) verify\n"
        + alone.standardOutput + "(replay) print todos.count\n3\n")
    let json = ReplayRun(["verify", log, "--json"])
    let sessionJSON = ReplayRun([log, "--json", "-c", "verify"])
    #expect(sessionJSON.standardOutput == json.standardOutput)
    #expect(json.standardOutput.hasPrefix(#"{"path":"\#(log)","reproduced":true,"#))
  }

  @Test func failedCommandsReportErrorsAndTheSessionGoesOn() {
    let run = session("goto 2", "goto 9999", "print todos[0].titl", "nxet", "print todos[0].title")
    #expect(run.status == 2)
    #expect(
      run.combined == """
        (replay) goto 2
        >    2    0.500s  toggle         {"id":1}
        (replay) goto 9999
        error: position 9999 is out of range: valid positions are 0…340
        (replay) print todos[0].titl
        error: todos[0] has no key 'titl'; its keys are: id, title, done; did you mean 'title'?
        (replay) nxet
        error: unknown command 'nxet'. Did you mean 'next'? Type 'help' for the list.
        (replay) print todos[0].title
        "Call mum #764"

        """)
  }

  @Test func steppingPastTheEndsFailsSayingWhichWayToGo() {
    let run = session("back", "goto last", "next", "next 5")
    #expect(run.status == 2)
    #expect(
      run.standardError == """
        error: already at the first position (0); 'next' steps forward
        error: already at the last position (340); 'back' steps backward
        error: already at the last position (340); 'back' steps backward

        """)
  }

  @Test func aliasesRunTheirCommands() {
    let run = session("g 12", "p filter", "n", "b 2", "a")
    #expect(run.status == 0)
    #expect(
      run.standardOutput == """
        (replay) g 12
        >   12    3.000s  setFilter      "active"
        (replay) p filter
        "active"
        (replay) n
        >   13    3.250s  move           {"from":2,"to":1}
        (replay) b 2
        >   11    2.750s  add            {"title":"Call mum"}
        (replay) a
        action 11 at 2.750s, type add, line 12
        {
          "add": {
            "title": "Call mum"
          }
        }

        """)
  }

  @Test func helpListsEveryCommandWithItsAlias() {
    let run = ReplayRun([CLIFixture.path("counter.jsonl"), "-c", "help"])
    #expect(run.status == 0)
    let lines = run.outputLines
    #expect(lines.prefix(2) == ["(replay) help", "Commands (alias in brackets):"])
    #expect(lines.last == "'help COMMAND' explains one.")
    #expect(
      lines.contains(
        "--json as a command's last word prints its result (or error) as one line of JSON."))
    for (command, alias) in [
      ("next", "n"), ("back", "b"), ("goto", "g"), ("print", "p"), ("action", "a"), ("list", "l"),
      ("info", "i"), ("find", "f"), ("help", "h"), ("quit", "q"),
    ] {
      #expect(
        lines.contains { $0.hasPrefix("  \(command)") && $0.contains("  [\(alias)]  ") },
        "\(command) [\(alias)]")
    }
  }

  @Test func helpExplainsOneCommand() {
    let run = ReplayRun([CLIFixture.path("counter.jsonl"), "-c", "help next", "-c", "help g"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput == """
        (replay) help next
        next [N]  (alias: n)
          step forward N actions (default 1).
          Moves the cursor N positions forward and shows the action that led there.
          --json prints the result as one line of JSON.
        (replay) help g
        goto N|first|last  (alias: g)
          jump to position N.
          Position 0 is the initial state; position N is the state after action N.
          --json prints the result as one line of JSON.

        """)
  }

  @Test func helpForAnUnknownCommandSuggestsTheClosest() {
    let run = ReplayRun([CLIFixture.path("counter.jsonl"), "-c", "help fnid"])
    #expect(run.status == 2)
    #expect(run.standardError == "error: no command 'fnid'. Did you mean 'find'?\n")
  }

  @Test func infoDescribesTheLogAndTheCursor() {
    let counter = CLIFixture.path("counter.jsonl")
    let run = ReplayRun([counter, "-c", "goto 5", "-c", "info"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput.replacingLog(counter) == """
        (replay) goto 5
        >    5    1.250s  add            -3
        (replay) info
        log:          $LOG
        app:          counter (CounterState, CounterAction)
        session:      00000000-0000-4000-8000-000000000001
        recorded at:  2026-11-21T10:00:00Z
        actions:      12 (seq 1…12)
        checkpoints:  3 (seq 5, 10, 12)
        ended:        cleanly (end record)
        bad lines:    none
        position:     5 of 0…12

        """)
  }

  @Test func findWithoutAMatchSaysSoAndSuggestsAKnownType() {
    let run = session("goto 330", "find type=mvoe", "find Kaffee kaufen #999999")
    #expect(run.status == 2)
    #expect(
      run.standardError == """
        error: no action after position 330 matches 'type=mvoe'; did you mean type=move?
        error: no action after position 330 matches 'Kaffee kaufen #999999'

        """)
  }

  @Test func listAtTheStartMarksTheInitialState() {
    let run = ReplayRun([CLIFixture.path("counter.jsonl"), "-c", "list 3"])
    #expect(run.status == 0)
    #expect(
      run.standardOutput == """
        (replay) list 3
        >  0  (initial state)
           1    0.250s  increment
           2    0.500s  increment
           3    0.750s  add            10

        """)
  }

  @Test func crashLogSessionStopsShortOfTheTrappingAction() {
    let crash = CLIFixture.path("todo-crash.jsonl")
    let run = ReplayRun([crash, "-c", "goto 37", "-c", "print todos.count", "-c", "list 3"])
    #expect(run.status == 0)
    #expect(run.outputLines.first == "(replay) goto 37")
    // Listing shows action 38 without applying it; the cursor stays at 37.
    let listed = run.outputLines.drop { $0 != "(replay) list 3" }.dropFirst()
    #expect(listed.count == 3)
    #expect(listed.contains { $0.hasPrefix(">") && $0.contains(" 37 ") })
    #expect(listed.contains { !$0.hasPrefix(">") && $0.contains(" 38 ") && $0.contains("move") })
  }
}

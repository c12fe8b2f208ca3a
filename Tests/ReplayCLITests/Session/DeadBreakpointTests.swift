import Testing

/// A session never sets a breakpoint that cannot fire without a word: a malformed condition is
/// an error naming what to type, a value of another kind than the state's is a warning, and a
/// condition given to `watch` points at `break if`.
@Suite struct DeadBreakpointTests {
  @Test func malformedConditionsAreErrorsWithWhatToType() {
    let run = ReplayRun([
      CLIFixture.path("todo-session.jsonl"), "-c", "break if todos.count >> 3", "-c",
      "break if filter == activ", "-c", "watches",
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError == """
        error: '>>' is not an operator: did you mean '>'? Operators are == != < <= > >= contains
        error: 'activ' is not a value: did you mean "activ"? A string is quoted \
        (break if filter == "activ"); numbers, true, false and null are not

        """)
    #expect(run.standardOutput.contains("no watchpoints or breakpoints"))
  }

  @Test func aValueOfAnotherKindIsAWarning() {
    let run = ReplayRun([
      CLIFixture.path("todo-session.jsonl"), "-c", "goto 20", "-c", #"break if todos.count > "3""#,
      "-c", "break if todos > 3",
    ])
    #expect(run.status == 0)
    #expect(run.standardOutput.contains(#"breakpoint 1: break if todos.count > "3""#))
    #expect(
      run.standardError == """
        warning: todos.count is a number here and "3" is a string: '>' compares values of one \
        kind; did you mean 3?
        warning: todos is an array here: '>' compares numbers or strings; did you mean todos.count?

        """)
  }

  @Test func aConditionGivenToWatchPointsAtBreakIf() {
    let run = ReplayRun([CLIFixture.path("todo-session.jsonl"), "-c", "watch todos.count > 3"])
    #expect(run.status == 2)
    #expect(
      run.standardError == """
        error: watch takes a path and stops where its value changes; to stop where a condition \
        becomes true: break if todos.count > 3

        """)
  }
}

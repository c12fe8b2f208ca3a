extension CommandInvocation {
  /// `replay tui LOG [--recovery MODE] [--isolate]`: the full-screen debugger.
  func runTUI() throws(CommandFailure) -> Int32 {
    guard arguments.positional("LOG") != nil else {
      throw .diagnostic(
        Diagnostic.error(
          "replay tui needs LOG, a Rewind log",
          hints: [Diagnostic.Hint("replay tui Fixtures/todo-session.jsonl")]))
    }
    let opened = try openLog(interactive: true)
    reportFaults(opened.log)
    return TUIApp.run(opened: opened, output: output)
  }
}

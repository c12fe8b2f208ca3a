import RewindReplay
import RewindReplayService

extension ReplayProgram {
  /// `replay export LOG --html FILE | --redux-devtools FILE`.
  static let export = CommandSpec(
    name: "export",
    abstract: "Write a log as a self-contained HTML page, or as a file for Redux DevTools.",
    discussion: "--html writes one page with its script and style inline (timeline, actions, "
      + "states, diffs) that opens from disk in any browser; add #position=N to its address to "
      + "open at N (docs/export.md). --redux-devtools writes the session as DevTools' lifted "
      + "state, which the extension's Import, a monitor's import and @redux-devtools/remote all "
      + "read (docs/interop.md: what DevTools then shows).",
    arguments: [log],
    options: [
      htmlOption,
      .option(
        "redux-devtools", valueName: "FILE", help: "Write the session for Redux DevTools to FILE."),
      overwrite,
      recovery,
    ] + isolation,
    examples: [
      .init("replay export Fixtures/todo-session.jsonl --html /tmp/session.html"),
      .init("replay export Fixtures/todo-session.jsonl --redux-devtools /tmp/todo.json"),
    ])
}

extension CommandInvocation {
  /// `replay export LOG --html FILE | --redux-devtools FILE`.
  func runExport() throws(CommandFailure) -> Int32 {
    let html = arguments.string("html")
    let devtools = arguments.string("redux-devtools")
    guard (html == nil) != (devtools == nil) else {
      throw .diagnostic(
        Diagnostic.error(
          "replay export needs one of --html FILE and --redux-devtools FILE",
          hints: [Diagnostic.Hint("replay export LOG --html session.html")]))
    }
    // Refused before any work: the log itself, another log, a missing folder.
    try OutputFile.check(
      html ?? devtools ?? "", inputs: [arguments.positional("LOG") ?? ""],
      replacesLogs: arguments.flag("overwrite"))
    let opened = try openLog(needsInitialState: true)
    reportFaults(opened.log)
    if let html { try exportHTML(opened, to: html) }
    if let devtools { try exportReduxDevTools(opened, to: devtools) }
    return ExitStatus.success
  }
}

import Rewind
import RewindReplayService

extension CommandInvocation {
  /// `replay tui LOG [--recovery MODE] [--isolate]`: the full-screen debugger; with `--listen`
  /// (and `replay listen`'s options) instead of LOG, on a running app (``runLiveTUI()``).
  func runTUI() throws(CommandFailure) -> Int32 {
    if arguments.flag("listen") { return try runLiveTUI() }
    guard arguments.positional("LOG") != nil else {
      throw .diagnostic(
        Diagnostic.error(
          "replay tui needs LOG, a Rewind log, or --listen to watch a running app",
          hints: [
            Diagnostic.Hint("replay tui Fixtures/todo-session.jsonl"),
            Diagnostic.Hint("replay tui --listen", comment: "docs/live.md"),
          ]))
    }
    let opened = try openLog(interactive: true)
    reportFaults(opened.log)
    return TUIApp.run(opened: opened, output: output)
  }

  /// `replay tui --listen`: starts listening as `replay listen` does, waits for the first app,
  /// and opens the debugger on its saved log, which grows as its actions arrive.
  func runLiveTUI() throws(CommandFailure) -> Int32 {
    if let log = arguments.positional("LOG") {
      throw .diagnostic(
        Diagnostic.error(
          "replay tui --listen shows a running app: give it no LOG (\(inert(log)))",
          hints: [
            Diagnostic.Hint("replay tui \(inert(log))", comment: "the log"),
            Diagnostic.Hint("replay tui --listen", comment: "a running app"),
          ]))
    }
    // Before listening: an app that connects must not wait for a viewer that cannot start.
    guard Platform.isTerminal(0), Platform.isTerminal(1) else {
      throw .diagnostic(
        Diagnostic.error(
          "replay tui --listen needs a terminal: standard input and output must both be one",
          hints: [
            Diagnostic.Hint(
              "replay listen -c 'wait 10' -c 'print'",
              comment: "scripts and pipes use the line interface")
          ]))
    }
    let listening = try startListening()
    defer { listening.listener.stop() }
    let app = try listening.firstApp(shownBy: self)
    let opened = try openLive(app.path)
    let feed = TUILiveFeed(
      listening: listening, first: app,
      openedBytes: Platform.fileIdentity(app.path)?.size ?? 0
    ) { path in
      do throws(CommandFailure) {
        return .success(try openLive(path))
      } catch {
        return .failure(error)
      }
    }
    return TUIApp.run(opened: opened, output: output, live: feed)
  }
}

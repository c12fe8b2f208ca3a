import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay LOG`: an interactive session, or the commands of `-c` and `--json` as a script.
  func runSession() throws(CommandFailure) -> Int32 {
    let opened = try openLog(interactive: true)
    let jsonMode = arguments.flag("json")
    let session = ReplaySession(opened: opened, output: output, jsonMode: jsonMode)
    // A `-c` value of several lines (a script in one argument) is one command per line that is
    // not empty (any line ending).
    let scripted = arguments.strings("command").flatMap { value -> [String] in
      guard value.contains(where: \.isNewline) else { return [value] }
      return value.split(whereSeparator: \.isNewline).map(String.init)
    }
    if !scripted.isEmpty || jsonMode {
      // Commands from `-c`, else (with `--json`) from standard input; with `--json`, one line of
      // JSON each and nothing else on standard output.
      reportFaults(opened.log)
      var lines = scripted.makeIterator()
      // Plain lines even at a terminal: the line editor would draw its prompt on standard
      // output, which holds only the results' JSON.
      let source: any LineInput = input is TerminalLineInput ? StandardInput() : input
      while let line = scripted.isEmpty ? source.readLine() : lines.next() {
        if !jsonMode { output.writeLine("(replay) \(line)") }
        guard session.execute(line) else { break }
        output.flush()
      }
      if session.hadError { return ExitStatus.trouble }
      return session.metCrash ? ExitStatus.reducerCrashed : ExitStatus.success
    }
    session.printBanner()
    let interactive = input.isInteractive
    readCommands(into: session) { session.execute($0) }
    if interactive { return ExitStatus.success }
    if session.hadError { return ExitStatus.trouble }
    return session.metCrash ? ExitStatus.reducerCrashed : ExitStatus.success
  }

  /// Reads command lines from standard input until it ends or `execute` says to stop: at a
  /// terminal with the line editor (or a plain prompt), else echoing each line after the
  /// prompt, as a transcript. `beforePrompt` runs before each prompt (a live session reads what
  /// arrived there).
  func readCommands(
    into session: ReplaySession, beforePrompt: () -> Void = {}, execute: (String) -> Bool
  ) {
    let interactive = input.isInteractive
    let editor = input as? TerminalLineInput
    editor?.attach(to: session)
    while true {
      beforePrompt()
      if interactive && editor == nil { output.write(session.prompt, to: .standardOutput) }
      output.flush()
      guard let line = input.readLine() else { break }
      if !interactive { output.writeLine("\(session.prompt)\(line)") }
      guard execute(line) else { break }
    }
    if interactive && editor == nil { output.writeLine() }
  }
}

extension CommandInvocation {
  /// `replay tui LOG [--recovery MODE] [--isolate]`: the full-screen debugger.
  func runTUI() throws(CommandFailure) -> Int32 {
    let opened = try openLog(interactive: true)
    reportFaults(opened.log)
    return TUIApp.run(opened: opened, output: output)
  }
}

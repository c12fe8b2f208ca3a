extension TUIModel {
  /// Runs one session command at the cursor, exactly as `replay LOG` would, shows what it
  /// printed as messages, and follows the session if it moved.
  ///
  /// `quit` ends the debugger. A `continue` or `reverse-continue` that stopped at a watch or
  /// break marks the position on the timeline bar.
  func runSessionCommand(_ line: String) {
    guard synchronizeSession() else { return }
    _ = session.debugger.takeStop()
    let goesOn = session.execute(line)
    let lines = takeSessionOutput()
    forgetStates()
    guard goesOn else {
      isFinished = true
      return
    }
    if case .breakpoints(let stop, _)? = session.debugger.takeStop() {
      if let index = stops.firstIndex(where: { $0 >= stop }) {
        if stops[index] != stop { stops.insert(stop, at: index) }
      } else {
        stops.append(stop)
      }
    }
    messages = lines
    move(to: session.position)
  }

  /// Moves the session to the cursor; `false` (with a message) when it cannot go there.
  private func synchronizeSession() -> Bool {
    guard session.position != position else { return true }
    if needsConfirmation(position) {
      report(
        "position \(position) is not rebuilt: the app stopped while running this action, so its "
          + "reducer may crash here too; press ! to rebuild it anyway (or run without "
          + "--no-isolate)",
        isError: true)
      return false
    }
    session.execute("goto \(position)")
    let lines = takeSessionOutput()
    guard session.position == position else {
      messages = lines
      return false
    }
    return true
  }
}

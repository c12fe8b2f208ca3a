import RewindReplay
import RewindReplayService

extension TUIModel {
  /// Starts showing a running app (`replay tui --listen`): at its newest action, following the
  /// end as actions arrive.
  func startLive(_ status: TUILiveStatus) {
    live = status
    live?.wasShown = true
    service.isLive = true
    try? service.debugger.place(at: log.lastSeq)
    followPosition()
  }

  /// Goes on with `opened`, the live log read again after it grew (``adopt(_:)``).
  ///
  /// A cursor the user moved stays where it is. A cursor at the old end follows to the new one;
  /// with watchpoints or breakpoints set, it goes there as `continue` does instead, so one that a
  /// new action hits stops the view (not the app) on that action, and the message row says so.
  /// - Returns: Whether a watchpoint or breakpoint stopped the view.
  @discardableResult
  func grew(to opened: OpenedLog) -> Bool {
    let before = log.lastSeq
    let following = position == before && live?.stoppedAt != before
    adopt(opened)
    defer { followPosition() }
    let after = log.lastSeq
    guard after > before, following else { return false }
    guard !service.debugger.breakpoints.isEmpty else {
      try? service.debugger.place(at: after)
      return false
    }
    let response: StopResponse
    do throws(ReplayFailure) {
      response = try service.perform(ContinueRequest(.forward))
    } catch {
      report("live: " + service.text(of: error), isError: true)
      return false
    }
    lastResponse = response
    if case .boundary = response.stop { return false }
    live?.stoppedAt = response.stop.position
    if case .breakpoints(let position, _) = response.stop { mark(stop: position) }
    let first = service.textLines(of: response).first
    report(
      "live: \(first?.text.split(separator: "\n").first.map(String.init) ?? "stopped"); "
        + "the app goes on (End follows it again)",
      isError: response.stop.crash != nil)
    return true
  }
}

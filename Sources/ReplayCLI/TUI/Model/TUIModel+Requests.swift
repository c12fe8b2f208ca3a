import RewindReplay
import RewindReplayService

extension TUIModel {
  /// Runs `request` on the service at the cursor and shows its response's text as messages (the
  /// same lines `replay LOG` prints); a stop of `continue` or `reverse-continue` at a watch or
  /// break is marked on the timeline bar.
  func perform(_ request: any ReplayRequest) {
    lastRequest = request
    guard confirmedHere() else { return }
    let before = position
    defer {
      // A live view that the user moved no longer stands where a watchpoint stopped it.
      if position != before { live?.stoppedAt = nil }
    }
    do throws(ReplayFailure) {
      let response = try service.perform(request)
      lastResponse = response
      if response is QuitResponse {
        isFinished = true
        return
      }
      if let stop = response as? StopResponse, case .breakpoints(let position, _) = stop.stop {
        mark(stop: position)
      }
      messages = service.textLines(of: response).flatMap { line in
        // Multi-line text (a state printed) is one message line per line.
        line.text.split(separator: "\n", omittingEmptySubsequences: false).map {
          TUIMessageLine(text: String($0), isError: line.channel == .standardError)
        }
      }
    } catch {
      // As `replay LOG` prints a failed command.
      report("error: " + service.text(of: error), isError: true)
    }
    followPosition()
  }

  /// Runs a session command typed after `:`, parsed through the session's command table; on a
  /// running app (`replay tui --listen`), `dispatch ACTION` too, as in `replay listen`.
  func run(commandLine line: String) {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    if words.first == "dispatch" {
      guard let liveSource else {
        report(
          "error: dispatch sends an action into a running app: replay tui --listen "
            + "(docs/live.md, Sending actions back)", isError: true)
        return
      }
      liveSource.dispatch(LiveListening.dispatchedText(of: line), in: self)
      return
    }
    do throws(ReplayFailure) {
      perform(try service.request(words))
    } catch {
      report("error: " + service.text(of: error), isError: true)
    }
    if liveSource != nil, words == ["help"] || words == ["h"] {
      messages += [
        TUIMessageLine(text: "", isError: false),
        TUIMessageLine(text: "Live (replay tui --listen):", isError: false),
        TUIMessageLine(
          text: "  dispatch ACTION   send an action (its JSON) into the app shown, when it "
            + "accepts them; a / A switch apps", isError: false),
      ]
    }
  }

  /// Moves the cursor (a ``MoveRequest``), and scrolls to it.
  ///
  /// A jump to or past an action that crashes the app's reducer, from before it, lands on the
  /// last good position (the service's crash landing) and says so on the message line; from the
  /// last good position on, the cursor goes onto the target, whose state pane shows the crash.
  func move(_ target: MoveRequest.Target) {
    let before = position
    // A live view follows the end again once the user moves it there (End).
    live?.stoppedAt = nil
    let range = log.positions
    let wanted: Int
    switch target {
    case .position(let position): wanted = position
    case .steps(let delta):
      wanted =
        delta >= 0
        ? min(range.upperBound, before + delta) : max(range.lowerBound, before + delta)
    }
    lastRequest = MoveRequest(target)
    if wanted != before, needsConfirmation(wanted) {
      // Not rebuilt until the user presses `!`.
      try? service.debugger.place(at: wanted)
      followPosition()
      return
    }
    do throws(ReplayFailure) {
      let response = try service.perform(MoveRequest(target))
      if case .crashed(let crash, let landedAt) = response.motion {
        if let lastGood = crash.lastGood, before >= lastGood {
          try? service.debugger.place(at: wanted)
        } else {
          // One line: the message line, not the output panel that would cover the list's
          // cursor. Where the cursor is and what → does come first: a narrow terminal cuts the
          // end.
          report("stopped at \(landedAt) (→ shows the crash): \(crash.headline)", isError: true)
        }
      }
    } catch {
      switch error {
      // In keys, not commands: the session's message names `next` and `back`.
      case .debugger(.atLastPosition(let last)):
        report("already at the last position (\(last))")
      case .debugger(.atFirstPosition(let first)):
        report("already at the initial state (position \(first))")
      default: report(service.text(of: error), isError: true)
      }
    }
    followPosition()
  }

  /// Marks a stop on the timeline bar.
  func mark(stop: Int) {
    if let index = stops.firstIndex(where: { $0 >= stop }) {
      if stops[index] != stop { stops.insert(stop, at: index) }
    } else {
      stops.append(stop)
    }
  }

  /// Whether requests may rebuild states at the cursor; `false` (with a message) at the last
  /// action of a cut-off log not yet confirmed with `!`.
  private func confirmedHere() -> Bool {
    guard needsConfirmation(position) else { return true }
    report(
      "position \(position) is not rebuilt: the app stopped while running this action, so its "
        + "reducer may crash here too; press ! to rebuild it anyway (or run without "
        + "--no-isolate)",
      isError: true)
    return false
  }
}

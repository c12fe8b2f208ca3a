import Rewind
import RewindReplay
import RewindReplayService

/// `replay tui LOG` and `replay tui --listen`: the full-screen time-travel debugger, on the
/// terminal of standard input and output.
///
/// Runs in raw mode on the alternate screen and puts the terminal back on every way out: `q`,
/// Ctrl-C, the end of input, `SIGINT` and `SIGTERM` (by their handlers), and a crash of the
/// app's reducer (by the fatal-signal handler, which calls ``Platform/restoreTerminal()``).
/// Redraws on `SIGWINCH`. Each redraw writes only the cells that changed.
enum TUIApp {
  /// Runs the debugger on `opened` until the user quits.
  ///
  /// - Parameters:
  ///   - opened: The log, and its timeline when the app is known.
  ///   - output: Where to report that standard input or output is not a terminal; its
  ///     standard-output style decides colour (`NO_COLOR`, `TERM=dumb`).
  ///   - live: For `replay tui --listen`: the running app whose log `opened` is, looked at
  ///     every ``TUILiveFeed/interval`` milliseconds between keys.
  /// - Returns: The exit status: 0 after quitting, 2 without a terminal.
  static func run(opened: OpenedLog, output: any TextOutput, live: TUILiveFeed? = nil) -> Int32 {
    output.flush()
    guard let terminal = RawTerminal.open(fullScreen: true) else {
      output.emit(
        Diagnostic.error(
          "replay tui needs a terminal: standard input and output must both be one",
          hints: [
            Diagnostic.Hint(
              "replay \(opened.log.path) -c 'goto 12' -c 'print'",
              comment: "scripts and pipes use the line interface")
          ]))
      return ExitStatus.trouble
    }
    defer { terminal.close() }
    let size = terminal.size
    let model = TUIModel(opened: opened, width: size.columns, height: size.rows)
    if let live {
      model.startLive(TUILiveStatus(hello: live.first.hello, path: live.first.path))
      model.liveSource = live
    }
    var writer = ScreenWriter(style: output.style(for: .standardOutput))
    let progress = ProgressRow()
    // The timeline shown reports its rebuilds on the message row (a live log's is a new one
    // each time the log grew); the one given is put back as it was.
    let savedProgress = opened.timeline?.progress
    defer { opened.timeline?.progress = savedProgress }
    var reporting: OpenedLog?
    var needsRender = true
    while !model.isFinished {
      if reporting !== model.opened {
        reporting = model.opened
        model.opened.timeline?.progress = progress.callback(row: model.layout.messageRow)
      }
      if needsRender { terminal.write(writer.update(to: TUIRenderer.render(model))) }
      let events = terminal.nextEvents(timeoutMilliseconds: live == nil ? -1 : TUILiveFeed.interval)
      needsRender = !events.isEmpty
      for event in events where !model.isFinished {
        switch event {
        case .resize:
          let size = terminal.size
          model.resize(width: size.columns, height: size.rows)
          model.opened.timeline?.progress = progress.callback(row: model.layout.messageRow)
          writer.invalidate()
        case .endOfInput:
          model.isFinished = true
        case .key(let key):
          model.handle(key)
        }
      }
      if let live, !model.isFinished, live.update(model) { needsRender = true }
      if model.needsFullRedraw || progress.takeWasShown() {
        model.needsFullRedraw = false
        writer.invalidate()
        needsRender = true
      }
    }
    return ExitStatus.success
  }
}

/// Shows the progress of a long rebuild on the message row, straight to the terminal (the
/// screen is redrawn only between keys), and remembers that it did so the next redraw repaints.
private final class ProgressRow: Sendable {
  /// Whether progress was written since ``takeWasShown()`` last ran.
  private let wasShown = Locked(false)

  /// A timeline progress callback that writes to `row`.
  func callback(row: Int) -> @Sendable (Int, Int) -> Void {
    { [self] done, total in
      guard total > 0, done < total else { return }
      self.wasShown.withLock { $0 = true }
      let text =
        "\u{1B}[\(row + 1);1H\u{1B}[2K rebuilding states: \(done * 100 / total)% (\(done)/\(total))"
      _ = Array(text.utf8).withUnsafeBytes { Platform.writeAll(1, $0) }
    }
  }

  /// Whether progress was shown since the last call.
  func takeWasShown() -> Bool {
    wasShown.withLock { shown in
      defer { shown = false }
      return shown
    }
  }
}

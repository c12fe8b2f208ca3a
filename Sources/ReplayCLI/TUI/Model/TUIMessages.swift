import Rewind

/// One line of the message area, and whether it reports a failure.
struct TUIMessageLine: Sendable, Equatable {
  /// The text (made inert when drawn).
  var text: String
  /// Whether it came from standard error: an error or a warning.
  var isError: Bool
}

/// The ``TextOutput`` of the session behind the full-screen debugger: keeps what each command
/// writes, to show in the message area instead of on the terminal.
final class TUISessionOutput: TextOutput {
  /// Lines written and not yet taken, and a last line still open.
  private struct Pending {
    var text = ""
    var lines: [TUIMessageLine] = []
    var isError = false
  }

  /// What was written since the last ``take()``.
  private let pending = Locked(Pending())

  /// An empty output.
  init() {}

  /// Keeps `text`; complete lines become message lines.
  func write(_ text: String, to channel: OutputChannel) {
    pending.withLock { pending in
      let isError = channel == .standardError
      if pending.isError != isError, !pending.text.isEmpty {
        pending.lines.append(TUIMessageLine(text: pending.text, isError: pending.isError))
        pending.text = ""
      }
      pending.isError = isError
      pending.text += text
      while let newline = pending.text.firstIndex(of: "\n") {
        pending.lines.append(
          TUIMessageLine(text: String(pending.text[..<newline]), isError: isError))
        pending.text = String(pending.text[pending.text.index(after: newline)...])
      }
    }
  }

  /// Nothing to do: lines are kept until ``take()``.
  func flush() {}

  /// Plain: the screen decides how messages look.
  func style(for channel: OutputChannel) -> TerminalStyle { .plain }

  /// The lines written since the last call, and a last one without its line feed.
  func take() -> [TUIMessageLine] {
    pending.withLock { pending in
      var lines = pending.lines
      if !pending.text.isEmpty {
        lines.append(TUIMessageLine(text: pending.text, isError: pending.isError))
      }
      pending = Pending()
      return lines
    }
  }
}

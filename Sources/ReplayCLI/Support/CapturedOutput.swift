import Rewind

/// A ``TextOutput`` that keeps everything written to it, for running commands in tests.
///
///     let output = CapturedOutput()
///     output.writeLine("42 actions")
///     output.emit(.error("no such file"))
///     output.standardOutput  // "42 actions\n"
///     output.standardError   // "error: no such file\n"
///
/// Safe to write from several tasks at once; each write is kept whole.
package final class CapturedOutput: TextOutput {
  private struct Captured {
    var standardOutput = ""
    var standardError = ""
    var combined = ""
    var flushCount = 0
  }

  private let captured = Locked(Captured())
  private let outputStyle: TerminalStyle
  private let errorStyle: TerminalStyle

  /// An empty capture whose channels report the given styles (plain by default, so tests
  /// compare plain text unless they ask for colour).
  package init(
    standardOutputStyle: TerminalStyle = .plain, standardErrorStyle: TerminalStyle = .plain
  ) {
    self.outputStyle = standardOutputStyle
    self.errorStyle = standardErrorStyle
  }

  /// Everything written to standard output so far.
  package var standardOutput: String { captured.withLock { $0.standardOutput } }

  /// Everything written to standard error so far.
  package var standardError: String { captured.withLock { $0.standardError } }

  /// Everything written to either channel, in the order it was written, as a terminal showing
  /// both would display it.
  package var combined: String { captured.withLock { $0.combined } }

  /// How many times ``flush()`` was called, to check that a command flushes before it waits.
  package var flushCount: Int { captured.withLock { $0.flushCount } }

  /// Appends `text` to `channel`'s capture.
  package func write(_ text: String, to channel: OutputChannel) {
    captured.withLock { captured in
      switch channel {
      case .standardOutput: captured.standardOutput += text
      case .standardError: captured.standardError += text
      }
      captured.combined += text
    }
  }

  /// Counts the call; nothing is buffered.
  package func flush() {
    captured.withLock { $0.flushCount += 1 }
  }

  /// The style given for `channel` when this capture was made.
  package func style(for channel: OutputChannel) -> TerminalStyle {
    channel == .standardOutput ? outputStyle : errorStyle
  }
}

/// One of the two text outputs of a command.
package enum OutputChannel: Sendable, Hashable, CaseIterable {
  /// Results: what a script would read (`stdout`).
  case standardOutput
  /// Diagnostics, usage errors and prompts (`stderr`).
  case standardError
}

/// Where a command writes its text.
///
/// Commands take a `TextOutput` instead of calling `print`, so tests can run them in-process
/// with a ``CapturedOutput`` and check both channels, while the executable passes a
/// ``StandardOutput``.
package protocol TextOutput: Sendable {
  /// Writes `text` to `channel` as it is: no line feed is added.
  func write(_ text: String, to channel: OutputChannel)

  /// Writes UTF-8 `bytes` to `channel` as they are, without a `String` made of them: for output
  /// as large as a whole state. (The default makes that `String`.)
  func write(bytes: UnsafeRawBufferPointer, to channel: OutputChannel)

  /// Writes out anything buffered; call it before waiting for input and before exiting.
  func flush()

  /// How text written to `channel` may be styled (colour only on a terminal).
  func style(for channel: OutputChannel) -> TerminalStyle

  /// How the binary speaks of itself in messages and help (``VoicedOutput``); the bundled
  /// `replay`'s by default.
  var voice: ProgramVoice { get }
}

extension TextOutput {
  /// The bundled `replay`'s voice: every text as it is written.
  package var voice: ProgramVoice { .bundled }

  /// Writes `bytes` as a `String`: for outputs that keep text.
  package func write(bytes: UnsafeRawBufferPointer, to channel: OutputChannel) {
    write(String(decoding: bytes, as: UTF8.self), to: channel)
  }

  /// Writes `line` and a line feed to `channel` (standard output unless given).
  package func writeLine(_ line: String = "", to channel: OutputChannel = .standardOutput) {
    write(line + "\n", to: channel)
  }

  /// Writes `diagnostic` to standard error, coloured when standard error allows it.
  package func emit(_ diagnostic: Diagnostic) {
    writeLine(diagnostic.rendered(style: style(for: .standardError)), to: .standardError)
  }
}

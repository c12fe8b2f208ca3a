import Rewind

/// Whether text written to one output uses colour and bold, and the helpers that apply them.
///
/// Colour is on only when all of these hold (see <https://no-color.org>):
/// - the output descriptor is a terminal;
/// - `NO_COLOR` is unset or empty;
/// - `TERM` is not `dumb`.
///
/// Every helper returns its argument unchanged when colour is off, so renderers can call them
/// unconditionally:
///
///     let style = TerminalStyle(descriptor: 2, environment: environment)
///     let word = style.bold(style.red("error:"))
///
/// Each helper closes only its own attribute (`ESC[39m` for colours, `ESC[22m` for bold and
/// dim), so they nest: `style.bold(style.red("x"))` is bold and red, and text after it is plain.
package struct TerminalStyle: Sendable, Equatable {
  /// Whether the helpers add escape sequences.
  package var isColorEnabled: Bool

  /// A style with colour on or off regardless of the terminal.
  package init(isColorEnabled: Bool) {
    self.isColorEnabled = isColorEnabled
  }

  /// The style for the descriptor `fd`, decided by ``isColorAllowed(isTerminal:environment:)``.
  ///
  /// - Parameters:
  ///   - fd: The output descriptor, like 1 for standard output or 2 for standard error.
  ///   - environment: The process environment, passed in so tests need not change the real one.
  ///   - isTerminal: Tells whether a descriptor is a terminal; tests replace it.
  package init(
    descriptor fd: Int32,
    environment: [String: String],
    isTerminal: (Int32) -> Bool = Platform.isTerminal
  ) {
    let allowed = Self.isColorAllowed(isTerminal: isTerminal(fd), environment: environment)
    self.init(isColorEnabled: allowed)
  }

  /// Plain text: no colour, no bold.
  package static let plain = TerminalStyle(isColorEnabled: false)

  /// Colour and bold on, whatever the output is.
  package static let colored = TerminalStyle(isColorEnabled: true)

  /// Returns whether colour may be used on an output.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether the output is a terminal.
  ///   - environment: The variables to consult: `NO_COLOR` and `TERM`.
  /// - Returns: `true` when the output is a terminal, `NO_COLOR` is unset or empty, and `TERM`
  ///   is not `dumb`.
  package static func isColorAllowed(isTerminal: Bool, environment: [String: String]) -> Bool {
    guard isTerminal else { return false }
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return true
  }

  /// `text` in bold.
  package func bold(_ text: String) -> String { wrap(text, "1", "22") }

  /// `text` dimmed (faint).
  package func dim(_ text: String) -> String { wrap(text, "2", "22") }

  /// `text` in red, the colour of errors.
  package func red(_ text: String) -> String { wrap(text, "31", "39") }

  /// `text` in green.
  package func green(_ text: String) -> String { wrap(text, "32", "39") }

  /// `text` in yellow, the colour of warnings.
  package func yellow(_ text: String) -> String { wrap(text, "33", "39") }

  /// `text` in cyan, the colour of notes and hints.
  package func cyan(_ text: String) -> String { wrap(text, "36", "39") }

  private func wrap(_ text: String, _ on: String, _ off: String) -> String {
    guard isColorEnabled, !text.isEmpty else { return text }
    return "\u{1B}[\(on)m\(text)\u{1B}[\(off)m"
  }
}

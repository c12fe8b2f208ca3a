import Rewind

/// Where session commands come from: a terminal, a pipe, or a list in tests.
package protocol LineInput {
  /// Whether a person is typing (show prompts).
  var isInteractive: Bool { get }
  /// The next line without its newline, or `nil` at the end of input.
  func readLine() -> String?
}

/// Standard input.
struct StandardInput: LineInput {
  var isInteractive: Bool { Platform.isTerminal(0) }
  func readLine() -> String? { Swift.readLine(strippingNewline: true) }
}

/// Lines given in advance (tests, `-c`).
package final class ScriptedInput: LineInput {
  private var lines: [String]
  package let isInteractive: Bool

  /// Input that yields `lines`, then the end of input.
  package init(_ lines: [String], isInteractive: Bool = false) {
    self.lines = lines
    self.isInteractive = isInteractive
  }

  package func readLine() -> String? {
    lines.isEmpty ? nil : lines.removeFirst()
  }
}

import ReplayCLI
import Testing

@Suite struct TerminalStyleTests {
  @Test(
    arguments: [
      (true, [:], true),
      (false, [:], false),
      (true, ["NO_COLOR": "1"], false),
      (true, ["NO_COLOR": "0"], false),
      (true, ["NO_COLOR": ""], true),
      (true, ["TERM": "dumb"], false),
      (true, ["TERM": "xterm-256color"], true),
      (false, ["TERM": "xterm-256color"], false),
      (true, ["TERM": "dumb", "NO_COLOR": ""], false),
    ] as [(Bool, [String: String], Bool)])
  func colourNeedsATerminalWithoutNoColorOrDumbTerm(
    _ isTerminal: Bool, _ environment: [String: String], _ expected: Bool
  ) {
    #expect(
      TerminalStyle.isColorAllowed(isTerminal: isTerminal, environment: environment) == expected)
    let style = TerminalStyle(descriptor: 2, environment: environment) { _ in isTerminal }
    #expect(style.isColorEnabled == expected)
  }

  @Test func descriptorIsPassedToTheTerminalCheck() {
    let style = TerminalStyle(descriptor: 7, environment: [:]) { $0 == 7 }
    #expect(style.isColorEnabled)
    #expect(!TerminalStyle(descriptor: 2, environment: [:]) { $0 == 7 }.isColorEnabled)
  }

  @Test func plainStyleReturnsTextUnchanged() {
    let style = TerminalStyle.plain
    for helper in [style.bold, style.dim, style.red, style.green, style.yellow, style.cyan] {
      #expect(helper("text") == "text")
    }
  }

  @Test func colouredStyleWrapsAndClosesOnlyItsOwnAttribute() {
    let style = TerminalStyle.colored
    #expect(style.bold("b") == "\u{1B}[1mb\u{1B}[22m")
    #expect(style.dim("d") == "\u{1B}[2md\u{1B}[22m")
    #expect(style.red("r") == "\u{1B}[31mr\u{1B}[39m")
    #expect(style.green("g") == "\u{1B}[32mg\u{1B}[39m")
    #expect(style.yellow("y") == "\u{1B}[33my\u{1B}[39m")
    #expect(style.cyan("c") == "\u{1B}[36mc\u{1B}[39m")
    #expect(style.bold(style.red("x")) == "\u{1B}[1m\u{1B}[31mx\u{1B}[39m\u{1B}[22m")
    #expect(style.red("") == "")
  }
}

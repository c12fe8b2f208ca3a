import Testing

@testable import ReplayCLI

/// How the line being edited is drawn on one terminal row.
@Suite struct LineViewTests {
  @Test func promptAndTextWithTheCursorAfterThem() {
    let view = LineView(prompt: "(replay 0/340) ", state: LineEditState(text: "goto 12"), width: 80)
    #expect(view == LineView(text: "(replay 0/340) goto 12", cursorColumn: 22))
  }

  @Test func aLongLineScrollsToKeepTheCursorInView() {
    let text = String(repeating: "abcdefghij", count: 5)
    let atEnd = LineView(prompt: "> ", state: LineEditState(text: text), width: 20)
    #expect(atEnd == LineView(text: "cdefghijabcdefghij", cursorColumn: 18))
    var state = LineEditState(text: text)
    _ = state.apply(.home)
    let atStart = LineView(prompt: "> ", state: state, width: 20)
    #expect(atStart == LineView(text: "> abcdefghijabcdefg", cursorColumn: 2))
  }

  @Test func wideCharactersCountTwoColumns() {
    let view = LineView(prompt: "> ", state: LineEditState(text: "牛乳"), width: 80)
    #expect(view.cursorColumn == 6)
  }

  @Test func searchShowsItsOwnPrompt() {
    var state = LineEditState(history: ["goto 12", "next"])
    _ = state.apply(.control("r"))
    _ = state.apply(.character("g"))
    #expect(
      LineView(prompt: "> ", state: state, width: 80)
        == LineView(text: "(reverse-i-search)'g': goto 12", cursorColumn: 23))
    _ = state.apply(.character("x"))
    #expect(
      LineView(prompt: "> ", state: state, width: 80).text
        == "(failed reverse-i-search)'gx': goto 12")
  }

  @Test func tinyWidthsDoNotCrash() {
    for width in [0, 1, 2] {
      _ = LineView(
        prompt: "(replay 0/340) ", state: LineEditState(text: "print todos"), width: width)
    }
  }
}

import ReplayCLI
import Testing

@Suite struct TextWrappingTests {
  @Test func wrapsAtSpacesWithinTheWidth() {
    #expect(
      wrapWords("Replay the intact actions of a log", toWidth: 16)
        == ["Replay the", "intact actions", "of a log"])
  }

  @Test func keepsLineBreaksAndEmptyLines() {
    #expect(wrapWords("one two\n\nthree", toWidth: 80) == ["one two", "", "three"])
    #expect(wrapWords("", toWidth: 10) == [""])
  }

  @Test func longWordGetsItsOwnLine() {
    #expect(
      wrapWords("see Fixtures/todo-session-with-a-long-name.jsonl now", toWidth: 10)
        == ["see", "Fixtures/todo-session-with-a-long-name.jsonl", "now"])
  }

  @Test func wideCharactersCountTwoColumns() {
    #expect(wrapWords("日本 語語 ab", toWidth: 9) == ["日本 語語", "ab"])
  }

  @Test func firstLineMayBeNarrower() {
    #expect(
      wrapWords("a bb cc dd", toWidth: 5, firstLineWidth: 2) == ["a", "bb cc", "dd"])
  }

  @Test func hangingIndentIndentsFollowingLines() {
    #expect(
      hangingIndent(
        "Replay the intact actions of a log", firstLineWidth: 18, indent: 4, width: 22)
        == "Replay the intact\n    actions of a log")
  }
}

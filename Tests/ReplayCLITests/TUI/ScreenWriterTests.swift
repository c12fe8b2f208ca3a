import Testing

@testable import ReplayCLI

/// What reaches the terminal: only changed cells, attributes only with colour, and nothing from
/// the content that a terminal would act on.
@Suite struct ScreenWriterTests {
  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func theFirstFrameIsWrittenWholeWithoutClearingTheScreen() {
    var grid = ScreenGrid(width: 6, height: 2)
    grid.put("ab", row: 0, column: 0)
    grid.put("cdef", row: 1, column: 0)
    var writer = ScreenWriter(style: .plain)
    #expect(
      text(writer.update(to: grid))
        == "\u{1B}[?2026h\u{1B}[?25l\u{1B}[1;1H\u{1B}[2Kab\u{1B}[2;1H\u{1B}[2Kcdef\u{1B}[?2026l")
  }

  @Test func laterFramesWriteOnlyTheCellsThatChanged() {
    var grid = ScreenGrid(width: 10, height: 3)
    grid.put("position 1", row: 0, column: 0)
    grid.put("same", row: 2, column: 0)
    var writer = ScreenWriter(style: .plain)
    _ = writer.update(to: grid)
    grid.put("2", row: 0, column: 9)
    #expect(text(writer.update(to: grid)) == "\u{1B}[?2026h\u{1B}[?25l\u{1B}[1;10H2\u{1B}[?2026l")
    #expect(text(writer.update(to: grid)) == "\u{1B}[?2026h\u{1B}[?25l\u{1B}[?2026l")
  }

  @Test func aChangedRunStartsAtTheWholeWideCharacter() {
    var grid = ScreenGrid(width: 6, height: 1)
    grid.put("a牛b", row: 0, column: 0)
    var writer = ScreenWriter(style: .plain)
    _ = writer.update(to: grid)
    grid.put("x", row: 0, column: 2)
    #expect(text(writer.update(to: grid)).contains("\u{1B}[1;2H x"))
  }

  @Test func aRowWithAnEmojiIsRewrittenWholeAndRealignedAfterIt() {
    var grid = ScreenGrid(width: 12, height: 2)
    grid.put("trip ✈️ ok", row: 0, column: 0)
    grid.put("plain", row: 1, column: 0)
    var writer = ScreenWriter(style: .plain)
    _ = writer.update(to: grid)
    grid.put("K", row: 0, column: 9)
    grid.put("P", row: 1, column: 0)
    #expect(
      text(writer.update(to: grid))
        == "\u{1B}[?2026h\u{1B}[?25l\u{1B}[1;1H\u{1B}[2Ktrip ✈️\u{1B}[1;8H oK\u{1B}[2;1HP\u{1B}[?2026l"
    )
    #expect(ScreenWriter.hasUncertainWidth("🌱"))
    #expect(ScreenWriter.hasUncertainWidth("🇫🇷"))
    #expect(!ScreenWriter.hasUncertainWidth("牛"))
    #expect(!ScreenWriter.hasUncertainWidth("▸"))
    #expect(!ScreenWriter.hasUncertainWidth("7"))
  }

  @Test func invalidateRepaintsEverything() {
    var grid = ScreenGrid(width: 3, height: 1)
    grid.put("abc", row: 0, column: 0)
    var writer = ScreenWriter(style: .plain)
    _ = writer.update(to: grid)
    writer.invalidate()
    #expect(text(writer.update(to: grid)).contains("\u{1B}[1;1H\u{1B}[2Kabc"))
  }

  @Test func attributesOnlyWithColour() {
    var grid = ScreenGrid(width: 4, height: 1)
    grid.put("ok", row: 0, column: 0, tone: .added)
    var plain = ScreenWriter(style: .plain)
    var colored = ScreenWriter(style: .colored)
    #expect(!text(plain.update(to: grid)).contains("m"))
    #expect(text(colored.update(to: grid)).contains("\u{1B}[0;32mok\u{1B}[0m"))
  }

  @Test func theCursorIsShownOnlyForAPrompt() {
    var grid = ScreenGrid(width: 8, height: 2)
    var writer = ScreenWriter(style: .plain)
    #expect(!text(writer.update(to: grid)).contains("\u{1B}[?25h"))
    grid.cursor = (1, 3)
    #expect(text(writer.update(to: grid)).hasSuffix("\u{1B}[2;4H\u{1B}[?25h\u{1B}[?2026l"))
  }

  @Test func contentCannotWriteAnEscapeSequence() {
    var grid = ScreenGrid(width: 40, height: 1)
    grid.put("title \u{1B}[2J\u{1B}]52;c;AAAA\u{7}", row: 0, column: 0)
    var writer = ScreenWriter(style: .colored)
    let written = text(writer.update(to: grid))
    #expect(!written.contains("\u{1B}[2J"))
    #expect(!written.contains("\u{1B}]"))
    #expect(!written.contains("\u{7}"))
  }
}

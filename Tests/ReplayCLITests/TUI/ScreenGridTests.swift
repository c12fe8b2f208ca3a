import Testing

@testable import ReplayCLI

/// Drawing into the off-screen grid: widths, clipping, and text made inert.
@Suite struct ScreenGridTests {
  @Test func putDrawsTextAndReturnsTheColumnsUsed() {
    var grid = ScreenGrid(width: 10, height: 2)
    #expect(grid.put("hello", row: 1, column: 2) == 5)
    #expect(grid.lines == ["", "  hello"])
  }

  @Test func textIsClippedToTheLimitAndTheEdge() {
    var grid = ScreenGrid(width: 8, height: 1)
    grid.put("abcdef", row: 0, column: 0, limit: 3)
    grid.put("xyz123", row: 0, column: 5)
    #expect(grid.text == "abc  xyz")
  }

  @Test func wideCharactersTakeTwoCellsAndNeverHalfOfOne() {
    var grid = ScreenGrid(width: 5, height: 1)
    grid.put("牛乳を", row: 0, column: 0)
    #expect(grid.text == "牛乳")
    #expect(grid[0, 1].isContinuation)
    #expect(grid[0, 4].character == " ")
  }

  @Test func overwritingHalfOfAWideCharacterBlanksItsOtherHalf() {
    var grid = ScreenGrid(width: 4, height: 1)
    grid.put("牛牛", row: 0, column: 0)
    grid.put("x", row: 0, column: 1)
    #expect(grid.text == " x牛")
  }

  @Test func controlCharactersAreDrawnEscaped() {
    var grid = ScreenGrid(width: 30, height: 1)
    grid.put("a\u{1B}[2Jb\u{7}\n\u{9B}", row: 0, column: 0)
    #expect(grid.text == #"a\x1b[2Jb\x07\n\u{9b}"#)
    #expect(!grid.cells.contains { $0.character.unicodeScalars.contains { $0.value < 0x20 } })
  }

  @Test func drawingOutsideTheGridDrawsNothing() {
    var grid = ScreenGrid(width: 3, height: 1)
    #expect(grid.put("x", row: 1, column: 0) == 0)
    #expect(grid.put("x", row: -1, column: 0) == 0)
    #expect(grid.put("x", row: 0, column: 3) == 0)
    grid.paint(.bold, row: 5, columns: 0..<10)
    grid.clear(row: 0, columns: -4..<40)
    #expect(grid.text == "")
  }

  @Test(arguments: [(0, 0), (1, 1), (0, 5), (5, 0), (-3, -3)])
  func emptyAndTinyGridsAreFine(width: Int, height: Int) {
    var grid = ScreenGrid(width: width, height: height)
    grid.put("anything 牛", row: 0, column: 0)
    #expect(grid.lines.count == max(0, height))
  }
}

/// Turns successive ``ScreenGrid``s into the bytes that update a terminal: only the cells that
/// changed since the last grid, each run of them after one cursor move, inside a synchronized
/// update (`ESC[?2026h` … `ESC[?2026l`, ignored by terminals that lack it) so nothing flickers.
///
/// The first grid, a grid of another size, and the one after ``invalidate()`` are written
/// whole, line by line; the screen is never cleared with `ESC[2J`. A changed row holding an
/// emoji is rewritten whole, because terminals disagree about how wide emoji are.
struct ScreenWriter {
  /// What the terminal shows, or `nil` when unknown.
  private var previous: ScreenGrid?
  /// Whether attributes may be written.
  private let style: TerminalStyle

  /// A writer that uses colour when `style` allows it.
  init(style: TerminalStyle) {
    self.style = style
  }

  /// Forgets what the terminal shows, so the next update repaints everything (after a resize,
  /// or Ctrl-L).
  mutating func invalidate() {
    previous = nil
  }

  /// The bytes that change the terminal from the last grid to `grid`.
  /// - Complexity: O(width × height).
  mutating func update(to grid: ScreenGrid) -> [UInt8] {
    var out = "\u{1B}[?2026h\u{1B}[?25l"
    let old = previous.flatMap { $0.width == grid.width && $0.height == grid.height ? $0 : nil }
    for row in 0..<grid.height {
      if let old, !hasUncertainWidth(grid, row), !hasUncertainWidth(old, row) {
        guard var first = (0..<grid.width).first(where: { old[row, $0] != grid[row, $0] }),
          var last = (0..<grid.width).last(where: { old[row, $0] != grid[row, $0] })
        else { continue }
        if grid[row, first].isContinuation || old[row, first].isContinuation {
          first = max(0, first - 1)
        }
        if last + 1 < grid.width,
          grid[row, last + 1].isContinuation || old[row, last + 1].isContinuation
        {
          last += 1
        }
        out += "\u{1B}[\(row + 1);\(first + 1)H"
        write(grid, row: row, columns: first..<(last + 1), to: &out)
      } else {
        if let old, (0..<grid.width).allSatisfy({ old[row, $0] == grid[row, $0] }) { continue }
        out += "\u{1B}[\(row + 1);1H\u{1B}[2K"
        var end = grid.width
        while end > 0, grid[row, end - 1] == ScreenCell() { end -= 1 }
        write(grid, row: row, columns: 0..<end, to: &out)
      }
    }
    if let (row, column) = grid.cursor, row < grid.height, column < grid.width {
      out += "\u{1B}[\(row + 1);\(column + 1)H\u{1B}[?25h"
    }
    out += "\u{1B}[?2026l"
    previous = grid
    return Array(out.utf8)
  }

  /// Writes the cells of `columns`; after a character whose width terminals disagree on, moves
  /// the cursor to where the grid says the next one goes, so the rest of the row stays aligned.
  private func write(_ grid: ScreenGrid, row: Int, columns: Range<Int>, to out: inout String) {
    var current = CellTone.plain
    for x in columns {
      let cell = grid[row, x]
      if cell.isContinuation { continue }
      if cell.tone != current, style.isColorEnabled {
        out += Self.attributes(cell.tone)
        current = cell.tone
      }
      out.append(cell.character)
      if Self.hasUncertainWidth(cell.character) {
        let next = x + (x + 1 < grid.width && grid[row, x + 1].isContinuation ? 2 : 1)
        out += "\u{1B}[\(row + 1);\(next + 1)H"
      }
    }
    if current != .plain { out += Self.attributes(.plain) }
  }

  /// The SGR sequence that draws `tone`, starting from plain.
  static func attributes(_ tone: CellTone) -> String {
    switch tone {
    case .plain: return "\u{1B}[0m"
    case .dim: return "\u{1B}[0;2m"
    case .bold: return "\u{1B}[0;1m"
    case .bar: return "\u{1B}[0;7m"
    case .selected: return "\u{1B}[0;1;7m"
    case .accent: return "\u{1B}[0;1;36m"
    case .added: return "\u{1B}[0;32m"
    case .removed: return "\u{1B}[0;31m"
    case .changed: return "\u{1B}[0;33m"
    }
  }

  /// Whether terminals may draw `character` narrower or wider than ``displayWidth(of:)-(Character)``
  /// says: emoji and clusters of several scalars (`✈️`, flags, skin tones), which some draw one
  /// column wide and others two.
  static func hasUncertainWidth(_ character: Character) -> Bool {
    guard !character.isASCII, let first = character.unicodeScalars.first else { return false }
    return character.unicodeScalars.count > 1 || first.properties.isEmoji
  }

  /// Whether a row holds a character of uncertain width: such rows are rewritten whole, after
  /// erasing the line, so a terminal that measured differently keeps nothing stale.
  private func hasUncertainWidth(_ grid: ScreenGrid, _ row: Int) -> Bool {
    (0..<grid.width).contains { Self.hasUncertainWidth(grid[row, $0].character) }
  }
}

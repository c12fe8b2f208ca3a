import RewindReplayService

/// How a cell is drawn: the roles of text on the screen, mapped to attributes by
/// ``ScreenWriter`` (and to nothing when colour is off).
enum CellTone: UInt8, Sendable, Hashable {
  /// Normal text.
  case plain
  /// Secondary text: checkpoints, hints, empty parts of the timeline.
  case dim
  /// Emphasis: the title of the focused pane.
  case bold
  /// The header and footer bars.
  case bar
  /// The row under a cursor.
  case selected
  /// Keys and positions worth noticing: the cursor on the timeline.
  case accent
  /// A diff's additions.
  case added
  /// A diff's removals, errors, where a cut-off log ends.
  case removed
  /// A diff's changes, warnings, breakpoint stops.
  case changed
}

/// One cell of the screen: a character one or two columns wide, or the right half of a wide one.
struct ScreenCell: Sendable, Hashable {
  /// The grapheme cluster drawn here (a space when empty).
  var character: Character = " "
  /// How it is drawn.
  var tone: CellTone = .plain
  /// Whether this cell is the second column of the wide character to its left.
  var isContinuation = false
}

/// An off-screen picture of the terminal: `width` × `height` cells, drawn into by the renderer
/// and sent to the terminal by ``ScreenWriter``, which writes only what changed.
///
/// Every string drawn goes through ``inert(_:keepingNewlines:)`` first, so no control character
/// from a log — an action title holding `ESC[2J` — can reach the terminal through the grid.
struct ScreenGrid: Sendable, Equatable {
  /// Columns.
  let width: Int
  /// Rows.
  let height: Int
  /// The cells, row by row.
  private(set) var cells: [ScreenCell]
  /// Where to show the terminal's cursor (a prompt being typed), or `nil` to hide it.
  var cursor: (row: Int, column: Int)? {
    get { cursorRow.map { ($0, cursorColumn) } }
    set {
      cursorRow = newValue?.row
      cursorColumn = newValue?.column ?? 0
    }
  }
  /// The row of the shown cursor, or `nil` when hidden.
  private var cursorRow: Int?
  /// The column of the shown cursor.
  private var cursorColumn = 0

  /// A blank grid; negative sizes count as 0.
  init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: ScreenCell(), count: self.width * self.height)
  }

  /// The cell at `row`, `column` (both inside the grid).
  subscript(row: Int, column: Int) -> ScreenCell {
    cells[row * width + column]
  }

  /// Draws `text` on `row` from `column`, using at most `limit` columns (to the right edge when
  /// `nil`), and returns the columns used.
  ///
  /// Text is made inert first; characters of width 0 are dropped; a wide character that does
  /// not fit whole is replaced by a space. Drawing outside the grid draws nothing.
  @discardableResult
  mutating func put(
    _ text: String, row: Int, column: Int, limit: Int? = nil, tone: CellTone = .plain
  ) -> Int {
    guard row >= 0, row < height, column < width else { return 0 }
    let end = min(width, column + max(0, limit ?? width))
    var x = column
    for character in inert(text) {
      let columns = displayWidth(of: character)
      if columns == 0 { continue }
      if x + columns > end {
        if x < end, x >= 0 { set(row, x, ScreenCell(character: " ", tone: tone)) }
        x = end
        break
      }
      if x >= 0 {
        set(row, x, ScreenCell(character: character, tone: tone))
        if columns == 2 {
          set(row, x + 1, ScreenCell(character: " ", tone: tone, isContinuation: true))
        }
      }
      x += columns
    }
    return max(0, x - column)
  }

  /// Paints `tone` over the cells of `row` in `columns`, keeping their characters.
  mutating func paint(_ tone: CellTone, row: Int, columns: Range<Int>) {
    guard row >= 0, row < height else { return }
    for x in max(0, columns.lowerBound)..<min(width, max(0, columns.upperBound)) {
      cells[row * width + x].tone = tone
    }
  }

  /// Blanks the cells of `row` in `columns`.
  mutating func clear(row: Int, columns: Range<Int>, tone: CellTone = .plain) {
    guard row >= 0, row < height else { return }
    for x in max(0, columns.lowerBound)..<min(width, max(0, columns.upperBound)) {
      cells[row * width + x] = ScreenCell(tone: tone)
    }
  }

  /// The rows as text, without trailing spaces: what a test compares.
  var lines: [String] {
    (0..<height).map { row in
      var line = ""
      for x in 0..<width where !self[row, x].isContinuation { line.append(self[row, x].character) }
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// ``lines`` joined with line feeds.
  var text: String { lines.joined(separator: "\n") }

  /// Compares cells and cursor.
  static func == (lhs: ScreenGrid, rhs: ScreenGrid) -> Bool {
    lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
      && lhs.cursorRow == rhs.cursorRow && lhs.cursorColumn == rhs.cursorColumn
  }

  /// Stores one cell, blanking the other half of a wide character it overwrites.
  private mutating func set(_ row: Int, _ column: Int, _ cell: ScreenCell) {
    guard column >= 0, column < width else { return }
    let index = row * width + column
    // Overwriting half of a wide character leaves its other half as a blank.
    if cells[index].isContinuation, column > 0 {
      cells[index - 1] = ScreenCell(tone: cells[index - 1].tone)
    }
    if !cell.isContinuation, column + 1 < width, cells[index + 1].isContinuation {
      cells[index + 1] = ScreenCell(tone: cells[index + 1].tone)
    }
    cells[index] = cell
  }
}

import RewindReplayService

/// How a line being edited looks on one terminal row: the prompt and the text, scrolled
/// sideways when too long so that the cursor stays in view.
struct LineView: Equatable {
  /// The characters to draw after a carriage return (then erase to the end of the row).
  var text: String
  /// The column of the cursor, from 0.
  var cursorColumn: Int

  /// A row showing `text` with the cursor at `cursorColumn`.
  init(text: String, cursorColumn: Int) {
    self.text = text
    self.cursorColumn = cursorColumn
  }

  /// The row for `state` after `prompt`, on a terminal `width` columns wide.
  ///
  /// During a Ctrl-R search the prompt is `(reverse-i-search)'QUERY': ` (or
  /// `(failed reverse-i-search)…` when nothing matches). Everything is made inert; the last
  /// column stays free so the cursor never wraps.
  init(prompt: String, state: LineEditState, width: Int) {
    var promptText = prompt
    if let search = state.search {
      promptText = "(\(search.isFailing ? "failed " : "")reverse-i-search)'\(search.query)': "
    }
    var cells: [(text: String, width: Int)] = []
    for character in promptText + state.text {
      let shown = inert(String(character))
      cells.append((shown, displayWidth(of: shown)))
    }
    let cursorCell = promptText.count + state.cursor
    let available = max(1, width - 1)
    /// The column where `cell` starts.
    func column(_ cell: Int) -> Int {
      cells[0..<min(cell, cells.count)].reduce(0) { $0 + $1.width }
    }
    var start = 0
    while start < cursorCell, column(cursorCell) - column(start) > available - 1 { start += 1 }
    var shown = ""
    var used = 0
    for cell in cells[min(start, cells.count)...] {
      if used + cell.width > available { break }
      shown += cell.text
      used += cell.width
    }
    text = shown
    cursorColumn = column(cursorCell) - column(start)
  }
}

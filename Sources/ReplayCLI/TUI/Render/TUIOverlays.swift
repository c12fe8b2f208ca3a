import RewindReplayService

/// What is drawn over the panes: the output of a `:` command longer than one line, and the
/// help (`?`).
enum TUIOverlays {
  /// The help, in a box in the middle of the screen; any key closes it.
  static func drawHelp(into grid: inout ScreenGrid) {
    let lines = TUIKeyTable.helpLines + ["", "any key closes this help"]
    let width = min(grid.width, (lines.map { displayWidth(of: $0) }.max() ?? 0) + 4)
    let height = min(grid.height, lines.count + 2)
    guard width >= 4, height >= 3 else { return }
    let left = (grid.width - width) / 2
    let top = (grid.height - height) / 2
    let inner = width - 2
    grid.put("┌" + String(repeating: "─", count: inner) + "┐", row: top, column: left, tone: .bold)
    for index in 0..<(height - 2) {
      let row = top + 1 + index
      grid.clear(row: row, columns: left..<(left + width))
      grid.put("│", row: row, column: left, tone: .bold)
      grid.put(
        " " + (index < lines.count ? lines[index] : ""), row: row, column: left + 1, limit: inner)
      grid.put("│", row: row, column: left + width - 1, tone: .bold)
    }
    grid.put(
      "└" + String(repeating: "─", count: inner) + "┘", row: top + height - 1, column: left,
      tone: .bold)
    grid.put(" Keys ", row: top, column: left + 2, tone: .bold)
  }

  /// The lines a `:` command printed, over the bottom of the panes, errors in red.
  static func drawMessages(_ model: TUIModel, into grid: inout ScreenGrid) {
    let layout = model.layout
    let available = layout.paneRows.count
    guard available >= 2 else { return }
    let messages = model.messages
    let shown = min(messages.count, available - 1)
    let cut = shown < messages.count
    let bottom = layout.paneRows.upperBound
    let top = bottom - shown - 1
    TUIRenderer.drawTitle(
      "Output", isFocused: false, row: top, columns: 0..<grid.width, into: &grid)
    for index in 0..<shown {
      let row = top + 1 + index
      grid.clear(row: row, columns: 0..<grid.width)
      if cut, index == shown - 1 {
        grid.put(" … \(messages.count - shown + 1) more lines", row: row, column: 0, tone: .dim)
      } else {
        grid.put(
          " " + messages[index].text, row: row, column: 0,
          tone: messages[index].isError ? .removed : .plain)
      }
    }
  }
}

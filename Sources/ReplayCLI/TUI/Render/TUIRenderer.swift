import RewindReplay
import RewindReplayService

/// Draws a ``TUIModel`` into a ``ScreenGrid``: a pure function of the model (and of the log
/// and states it reads), so tests compare whole screens as text.
///
/// Drawing reads only what is visible — the actions of the rows shown (`log.action(at:)`),
/// the rows of the state tree shown, the checkpoints and stops per column of the timeline bar
/// by binary search — so a redraw costs the same on a log of ten actions or ten million.
/// - Complexity: O(width × height) cells, plus one action decoded per list row and at most
///   two states rebuilt (the cursor's and the one before it, for the diff).
enum TUIRenderer {
  /// The screen for `model` at its size.
  static func render(_ model: TUIModel) -> ScreenGrid {
    var grid = ScreenGrid(width: model.width, height: model.height)
    guard grid.width > 0, grid.height > 0 else { return grid }
    let layout = model.layout
    if layout.isCompact {
      drawCompact(model, into: &grid)
      return grid
    }
    drawHeader(model, into: &grid)
    if layout.showsBothPanes {
      ActionListPane.draw(model, columns: layout.listColumns, into: &grid)
      for row in layout.topPaneRows {
        grid.put(
          row == layout.topPaneRows.lowerBound ? "┬" : "│", row: row,
          column: layout.listColumns.upperBound, tone: .dim)
      }
      StateTreePane.draw(model, columns: layout.treeColumns, into: &grid)
    } else if model.focus == .actions {
      ActionListPane.draw(model, columns: layout.listColumns, into: &grid)
    } else {
      StateTreePane.draw(model, columns: layout.treeColumns, into: &grid)
    }
    if !layout.diffRows.isEmpty { DiffPane.draw(model, rows: layout.diffRows, into: &grid) }
    TimelineBar.draw(model, row: layout.timelineRow, into: &grid)
    drawMessageLine(model, into: &grid)
    drawFooter(into: &grid, row: layout.footerRow)
    if model.messages.count > 1 { TUIOverlays.drawMessages(model, into: &grid) }
    if model.showsHelp { TUIOverlays.drawHelp(into: &grid) }
    return grid
  }

  /// A pane's title row: `[Title]───` when focused, ` Title ───` when not.
  static func drawTitle(
    _ title: String, isFocused: Bool, row: Int, columns: Range<Int>, into grid: inout ScreenGrid
  ) {
    let text = isFocused ? "[\(title)]" : " \(title) "
    let used = grid.put(
      text, row: row, column: columns.lowerBound, limit: columns.count,
      tone: isFocused ? .bold : .plain)
    let rest = max(0, columns.count - used)
    grid.put(
      String(repeating: "─", count: rest), row: row, column: columns.lowerBound + used, limit: rest,
      tone: .dim)
  }

  /// The top bar: log, app, number of actions, position, cut off, skips; for a running app
  /// (`replay tui --listen`), `live` or `disconnected`, the app's session and host, which of the
  /// apps connected it is (``TUIModel/appsText``), and the actions dropped on the way instead of
  /// the file and `cut off`.
  private static func drawHeader(_ model: TUIModel, into grid: inout ScreenGrid) {
    let log = model.log
    var text: String
    if let live = model.live {
      text = " replay · \(live.headerText)"
      if let apps = model.appsText { text += " · \(apps)" }
      if live.dropped > 0 { text += " · \(live.dropped) dropped" }
    } else {
      let name = log.path.split(separator: "/").last.map(String.init) ?? log.path
      text = " replay · \(name) · app \(log.app)"
    }
    text += " · \(log.actionCount) action"
    text += log.actionCount == 1 ? "" : "s"
    text += " · position \(model.position)/\(log.lastSeq)"
    if let stamp = log.header.build { text += " · recorded by \(stamp.summary)" }
    if log.migration != nil { text += " · migrated" }
    if model.isCutOff { text += " · cut off" }
    if let skips = model.opened.timeline?.skippedSeqs.count, skips > 0 {
      text += " · skips: \(skips)"
    }
    grid.put(truncate(inert(text), toWidth: grid.width), row: 0, column: 0, tone: .bar)
    grid.paint(.bar, row: 0, columns: 0..<grid.width)
  }

  /// The prompt being answered, the message of the last key, or a hint.
  private static func drawMessageLine(_ model: TUIModel, into grid: inout ScreenGrid) {
    let row = model.layout.messageRow
    if let prompt = model.prompt {
      let view = LineView(prompt: prompt.label, state: prompt.line, width: grid.width)
      grid.put(view.text, row: row, column: 0)
      grid.cursor = (row, min(view.cursorColumn, grid.width - 1))
      return
    }
    if model.messages.count == 1, let message = model.messages.first {
      grid.put(message.text, row: row, column: 0, tone: message.isError ? .removed : .plain)
    } else if model.messages.count > 1 {
      grid.put(
        "\(model.messages.count) lines of output above; any key closes them", row: row, column: 0,
        tone: .dim)
    } else if model.needsConfirmation(model.position) {
      grid.put(
        "press ! to rebuild this state anyway (the app stopped during this action)", row: row,
        column: 0, tone: .changed)
    }
  }

  /// The keys (``TUIKeyTable/footer``), as many as fit, always ending with help and quit.
  private static func drawFooter(into grid: inout ScreenGrid, row: Int) {
    let names = TUIKeyTable.footer
    let keys = names.dropLast(2)
    let tail = names.suffix(2).joined(separator: "  ")
    var text = ""
    for key in keys where displayWidth(of: text + key + "  " + tail) + 1 <= grid.width {
      text += key + "  "
    }
    grid.put(" " + text + tail, row: row, column: 0, tone: .bar)
    grid.paint(.bar, row: row, columns: 0..<grid.width)
  }

  /// Under ten rows: one line with the position and the action there, or the prompt.
  private static func drawCompact(_ model: TUIModel, into grid: inout ScreenGrid) {
    if let prompt = model.prompt {
      let view = LineView(prompt: prompt.label, state: prompt.line, width: grid.width)
      grid.put(view.text, row: 0, column: 0)
      grid.cursor = (0, min(view.cursorColumn, grid.width - 1))
      return
    }
    if let message = model.messages.first {
      grid.put(message.text, row: 0, column: 0, tone: message.isError ? .removed : .plain)
      return
    }
    var text = "\(model.position)/\(model.log.lastSeq)"
    if model.position > model.log.positions.lowerBound,
      let action = try? model.log.action(at: model.position)
    {
      text +=
        " \(inert(action.type ?? "?")) \(ActionFormatter.payloadText(action, width: max(1, grid.width)))"
    } else {
      text += " initial state"
    }
    if let live = model.live { text += live.disconnected == nil ? " · live" : " · disconnected" }
    text += " · taller window for more"
    grid.put(truncate(text, toWidth: grid.width), row: 0, column: 0)
  }
}

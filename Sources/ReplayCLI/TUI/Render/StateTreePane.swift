import RewindJSON
import RewindReplay
import RewindReplayService

/// The state at the cursor as a tree: one row per value, members of unfolded containers
/// indented below them (`▾`), folded containers (`▸`) shown as one line of compact JSON.
enum StateTreePane {
  /// Draws the pane's title and rows in `columns` of the pane area.
  /// - Complexity: O(rows shown × depth of the state), as ``StateTreeRows`` says.
  static func draw(_ model: TUIModel, columns: Range<Int>, into grid: inout ScreenGrid) {
    let layout = model.layout
    let top = layout.topPaneRows.lowerBound
    TUIRenderer.drawTitle(
      "State at \(model.position)", isFocused: model.focus == .state, row: top, columns: columns,
      into: &grid)
    let height = layout.contentHeight
    switch model.state(at: model.position) {
    case .value(let state):
      let tree = StateTreeRows(document: state, toggled: model.tree.toggled)
      let cursor = tree.row(for: model.tree.cursor)
      for (index, row) in tree.rows(from: tree.row(for: model.tree.top), count: height).enumerated()
      {
        let line = text(of: row, in: tree, isCursor: row == cursor, width: columns.count)
        grid.put(line, row: top + 1 + index, column: columns.lowerBound, limit: columns.count)
        if row == cursor, model.focus == .state {
          grid.paint(.selected, row: top + 1 + index, columns: columns)
        }
      }
    case .unavailable(let reason):
      drawParagraphs(
        ["no state here: " + reason], rows: (top + 1)..<(top + 1 + height), columns: columns,
        into: &grid)
    case .unconfirmed:
      drawParagraphs(
        [
          "Action \(model.position) is the last one recorded: the app stopped while running it "
            + "(the log has no end record), so its reducer may crash this process too.",
          "Press ! to rebuild this state anyway, or run replay without --no-isolate.",
        ], rows: (top + 1)..<(top + 1 + height), columns: columns, into: &grid, tone: .changed)
    case .crashed(let report):
      var paragraphs = report.lines(shortFiles: true)
      if let lastGood = report.lastGood, lastGood < model.position {
        paragraphs.append(
          "The last state before the crash is at position \(lastGood): ← or g \(lastGood).")
      }
      drawParagraphs(
        paragraphs, rows: (top + 1)..<(top + 1 + height), columns: columns, into: &grid,
        tone: .removed)
    }
  }

  /// One row: cursor marker, indentation, fold marker, key or index, and the value (a summary
  /// for an unfolded container, compact JSON cut to the width for anything else).
  static func text(of row: [Int], in tree: StateTreeRows, isCursor: Bool, width: Int) -> String {
    guard let value = tree.node(row) else { return "" }
    var prefix = isCursor ? ">" : " "
    prefix += String(repeating: "  ", count: max(0, row.count - 1))
    let isExpanded = tree.isExpanded(row)
    prefix += !tree.document.hasChildren(value) ? "  " : isExpanded ? "▾ " : "▸ "
    switch tree.jsonPath(row).components.last {
    case .key(let key): prefix += JSONPreview.key(key) + ": "
    case .index(let index): prefix += "[\(index)]: "
    // A tree row's path holds keys and indices only.
    case .matching, nil: break
    }
    let rest = max(0, width - displayWidth(of: prefix))
    guard isExpanded else {
      return prefix + JSONPreview.text(ofValueAt: value, in: tree.document.text, width: rest)
    }
    let level = tree.document.level(of: value)
    let count = level?.count ?? 0
    if level?.isObject != true {
      return prefix + "[\(count) item\(count == 1 ? "" : "s")]"
    }
    return prefix + "{\(count) key\(count == 1 ? "" : "s")}"
  }

  /// Wrapped text for a pane that has no tree to show.
  static func drawParagraphs(
    _ paragraphs: [String], rows: Range<Int>, columns: Range<Int>, into grid: inout ScreenGrid,
    tone: CellTone = .plain
  ) {
    var row = rows.lowerBound
    for paragraph in paragraphs {
      for line in wrapWords(inert(paragraph), toWidth: max(1, columns.count - 2)) {
        guard row < rows.upperBound else { return }
        grid.put(" " + line, row: row, column: columns.lowerBound, limit: columns.count, tone: tone)
        row += 1
      }
    }
  }
}

import RewindJSON
import RewindReplay

/// What the action at the cursor changed in the state (`d` shows or hides it): one line per
/// change, additions green, removals red, changes yellow.
enum DiffPane {
  /// Draws the pane's title and changes in `rows`, across the whole width.
  /// - Complexity: One ``JSONDiff/diff(_:_:)`` per position (cached), then O(rows shown).
  static func draw(_ model: TUIModel, rows: Range<Int>, into grid: inout ScreenGrid) {
    let columns = 0..<grid.width
    let position = model.position
    let lower = model.log.positions.lowerBound
    let title =
      position > lower ? "Diff of action \(position) (\(position - 1) → \(position))" : "Diff"
    TUIRenderer.drawTitle(
      title, isFocused: false, row: rows.lowerBound, columns: columns, into: &grid)
    let content = (rows.lowerBound + 1)..<rows.upperBound
    guard let result = model.changes(at: position) else {
      let text =
        position == lower
        ? "position \(position) is the initial state: no action led here"
        : "not rebuilt yet: press ! to rebuild this state"
      grid.put(" " + text, row: content.lowerBound, column: 0, tone: .dim)
      return
    }
    switch result {
    case .failure(let failure):
      StateTreePane.drawParagraphs([failure.message], rows: content, columns: columns, into: &grid)
    case .success(nil):
      grid.put(" no changes", row: content.lowerBound, column: 0, tone: .dim)
    case .success(let changes?):
      let fits = changes.count <= content.count ? changes.count : max(0, content.count - 1)
      for (index, change) in changes.prefix(fits).enumerated() {
        let text = JSONDiff.render([change], maxValueWidth: max(1, grid.width))
        grid.put(" " + text, row: content.lowerBound + index, column: 0, tone: tone(of: change))
      }
      if fits < changes.count {
        grid.put(
          " … \(changes.count - fits) more change\(changes.count - fits == 1 ? "" : "s"): type :diff to print them all",
          row: content.lowerBound + fits, column: 0, tone: .dim)
      }
    }
  }

  /// Green for additions, red for removals, yellow for changes.
  private static func tone(of change: JSONChange) -> CellTone {
    switch change {
    case .added: return .added
    case .removed: return .removed
    case .changed: return .changed
    }
  }
}

/// Where each part of the full-screen debugger goes on a screen of a given size.
///
/// ```
/// row 0          header: log, app, position
/// rows 1…        the action list │ the state tree     (each with a title row)
///                the diff of the action               (when shown)
/// row height-3   the timeline bar
/// row height-2   the message line, or a prompt
/// row height-1   the keys
/// ```
/// Under ``minimumWidthForTree`` columns only the focused pane is shown; under
/// ``minimumHeight`` rows the whole screen is one status line.
struct TUILayout: Sendable, Equatable {
  /// Fewer columns than this show one pane at a time.
  static let minimumWidthForTree = 60
  /// Fewer rows than this show one status line only.
  static let minimumHeight = 10

  /// Columns.
  let width: Int
  /// Rows.
  let height: Int
  /// Whether the diff pane is shown.
  let showsDiff: Bool

  /// A layout for a `width` × `height` screen (negative sizes count as 0).
  init(width: Int, height: Int, showsDiff: Bool) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.showsDiff = showsDiff
  }

  /// Whether the screen is too short for panes: one status line instead.
  var isCompact: Bool { height < Self.minimumHeight }
  /// Whether the action list and the state tree are side by side.
  var showsBothPanes: Bool { width >= Self.minimumWidthForTree }

  /// The rows of the pane area (titles included).
  var paneRows: Range<Int> { 1..<max(1, height - 3) }
  /// The rows of the diff pane (its title included); empty when it is hidden.
  var diffRows: Range<Int> {
    guard showsDiff, !isCompact else { return paneRows.upperBound..<paneRows.upperBound }
    let count = max(3, paneRows.count * 2 / 5)
    return (paneRows.upperBound - count)..<paneRows.upperBound
  }
  /// The rows of the action list and the state tree (their titles included).
  var topPaneRows: Range<Int> { paneRows.lowerBound..<diffRows.lowerBound }
  /// How many rows of content the action list and the state tree show.
  var contentHeight: Int { max(0, topPaneRows.count - 1) }
  /// The columns of the action list when both panes are shown.
  var listColumns: Range<Int> { 0..<(showsBothPanes ? width * 11 / 20 : width) }
  /// The columns of the state tree when both panes are shown.
  var treeColumns: Range<Int> { showsBothPanes ? (listColumns.upperBound + 1)..<width : 0..<width }
  /// The row of the timeline bar.
  var timelineRow: Int { height - 3 }
  /// The row of messages and prompts.
  var messageRow: Int { height - 2 }
  /// The row of the keys.
  var footerRow: Int { height - 1 }
}

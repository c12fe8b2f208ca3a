import RewindReplay
import RewindReplayService

/// The action list: one row per position (seq, time, type, payload), from the model's `listTop`,
/// columns as wide as the rows shown need, the cursor's row marked
/// `>` and highlighted, rows where a `continue` stopped marked `•`, skipped actions dimmed.
enum ActionListPane {
  /// Draws the list's title and rows in `columns` of the pane area.
  /// - Complexity: One `log.action(at:)` per row shown.
  static func draw(_ model: TUIModel, columns: Range<Int>, into grid: inout ScreenGrid) {
    let layout = model.layout
    let log = model.log
    let top = layout.topPaneRows.lowerBound
    TUIRenderer.drawTitle(
      "Actions", isFocused: model.focus == .actions, row: top, columns: columns, into: &grid)
    let seqWidth = String(log.lastSeq).count
    let skipped = model.opened.timeline?.skippedSeqs ?? []
    let last = min(log.positions.upperBound, model.listTop + layout.contentHeight - 1)
    guard model.listTop <= last else { return }
    let rows = (model.listTop...last).map {
      position -> (Int, Result<RecordedAction, ReplayError>?) in
      guard position > log.positions.lowerBound else { return (position, nil) }
      do throws(ReplayError) { return (position, .success(try log.action(at: position))) } catch {
        return (position, .failure(error))
      }
    }
    let actions = rows.compactMap { try? $0.1?.get() }
    let timeWidth = actions.map { displayWidth(of: time($0)) }.max() ?? 0
    let typeWidth = min(20, actions.map { displayWidth(of: inert($0.type ?? "?")) }.max() ?? 0)
    for (index, (position, result)) in rows.enumerated() {
      let row = top + 1 + index
      let marker = position == model.position ? ">" : isStop(position, model.stops) ? "•" : " "
      var text = "\(marker) \(pad(String(position), seqWidth))  "
      switch result {
      case nil:
        text += "(initial state)"
      case .failure(let error):
        text += "(unreadable: \(inert(error.message)))"
      case .success(let action):
        let type = inert(action.type ?? "?")
        text += pad(time(action), timeWidth) + "  " + type
        text += String(repeating: " ", count: max(0, typeWidth - displayWidth(of: type))) + "  "
        var sanitized = ActionFormatter.marks(action) + ActionFormatter.origin(action)
        var room = columns.count - displayWidth(of: text) - displayWidth(of: sanitized)
        if room < 24, action.site != nil {
          // A narrow pane keeps the payload: the call site is in `action` and `where`.
          var plain = action
          plain.site = nil
          sanitized = ActionFormatter.marks(action) + ActionFormatter.origin(plain)
          room = columns.count - displayWidth(of: text) - displayWidth(of: sanitized)
        }
        text += ActionFormatter.payloadText(action, width: max(1, room)) + sanitized
      }
      let tone: CellTone = skipped.contains(position) ? .dim : .plain
      grid.put(text, row: row, column: columns.lowerBound, limit: columns.count, tone: tone)
      if position == model.position { grid.paint(.selected, row: row, columns: columns) }
    }
  }

  /// `3.250s`, or `-` when the action has no time.
  private static func time(_ action: RecordedAction) -> String {
    action.time.map { ActionFormatter.formatTime($0).trimmingWhitespace() } ?? "-"
  }

  /// `text` right-aligned in `width` columns.
  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - displayWidth(of: text))) + text
  }

  /// Whether `position` is in the ascending `stops` (binary search).
  static func isStop(_ position: Int, _ stops: [Int]) -> Bool {
    var low = 0
    var high = stops.count
    while low < high {
      let mid = (low + high) / 2
      if stops[mid] < position { low = mid + 1 } else { high = mid }
    }
    return low < stops.count && stops[low] == position
  }
}

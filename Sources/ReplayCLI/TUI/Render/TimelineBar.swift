import RewindReplay
import RewindReplayService

/// One row that stands for the whole log: each column covers an equal share of the positions
/// and shows the most important thing in it — the cursor `█`, a stop of `continue` `◆`, the end
/// of a cut-off log `✗` (not of a connected app's, still being written), a recorded checkpoint `┼` —
/// over `─`, followed by `position/last`.
enum TimelineBar {
  /// Draws the bar on `row`.
  /// - Complexity: O(width × log(checkpoints + stops)), whatever the length of the log.
  static func draw(_ model: TUIModel, row: Int, into grid: inout ScreenGrid) {
    let log = model.log
    let label = " \(model.position)/\(log.lastSeq)"
    let cells = max(0, grid.width - displayWidth(of: label) - 1)
    guard cells > 0 else {
      grid.put(label, row: row, column: 0)
      return
    }
    let lower = log.positions.lowerBound
    let span = log.positions.count - 1
    let cursorCell = cell(of: model.position - lower, span: span, cells: cells)
    let endCell = cells - 1
    for index in 0..<cells {
      let (first, last) = offsets(of: index, span: span, cells: cells)
      var symbol = "─"
      var tone = CellTone.dim
      if index == cursorCell {
        (symbol, tone) = ("█", .accent)
      } else if first <= last, hasStop(in: (lower + first)...(lower + last), model.stops) {
        (symbol, tone) = ("◆", .changed)
      } else if index == endCell, model.isCutOff, log.actionCount > 0 {
        (symbol, tone) = ("✗", .removed)
      } else if first <= last, let checkpoint = log.checkpointSeq(atOrBefore: lower + last),
        checkpoint >= lower + first
      {
        (symbol, tone) = ("┼", .plain)
      }
      grid.put(symbol, row: row, column: 1 + index, tone: tone)
    }
    grid.put(label, row: row, column: 1 + cells)
  }

  /// The column that stands for the position `offset` after the first, when `span` positions
  /// follow the first: the first position is in the first column, the last in the last.
  static func cell(of offset: Int, span: Int, cells: Int) -> Int {
    guard span > 0, cells > 1 else { return 0 }
    return min(cells - 1, offset * (cells - 1) / span)
  }

  /// The offsets of the first and last positions in column `index` (`first > last` when the
  /// column stands for none: the log is shorter than the bar).
  static func offsets(of index: Int, span: Int, cells: Int) -> (first: Int, last: Int) {
    guard span > 0, cells > 1 else { return index == 0 ? (0, span) : (1, 0) }
    let first = (index * span + cells - 2) / (cells - 1)
    let last = min(span, ((index + 1) * span + cells - 2) / (cells - 1) - 1)
    return (first, last)
  }

  /// Whether one of the ascending `stops` is in `range` (binary search).
  private static func hasStop(in range: ClosedRange<Int>, _ stops: [Int]) -> Bool {
    var low = 0
    var high = stops.count
    while low < high {
      let mid = (low + high) / 2
      if stops[mid] < range.lowerBound { low = mid + 1 } else { high = mid }
    }
    return low < stops.count && stops[low] <= range.upperBound
  }
}

import RewindReplayService

/// Rows of cells laid out as columns two spaces apart, each padded to its widest cell as a
/// terminal shows it (``displayWidth(of:)``: a wide character takes two columns): the one table
/// layout of the command line's text output (`info FOLDER`, `compat`, `profile`).
enum TextTable {
  /// The lines of `rows`: cells left-aligned, or right-aligned (numbers) in the columns of
  /// `rightAligned`; no line ends in spaces. A row shorter than others leaves its missing cells
  /// empty.
  static func lines(_ rows: [[String]], rightAligned: Set<Int> = []) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? displayWidth(of: $0[column]) : 0 }.max() ?? 0
    }
    return rows.map { row in
      var line = ""
      for (column, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[column] - displayWidth(of: cell))
        if column > 0 { line += "  " }
        line += rightAligned.contains(column) ? padding + cell : cell + padding
      }
      while line.hasSuffix(" ") { line.removeLast() }
      return line
    }
  }
}

import RewindReplayService

/// Returns `text` broken into lines of at most `width` terminal columns, breaking at spaces.
///
/// Each line of `text` (split at `\n`) is filled greedily; runs of spaces between words
/// collapse to one, and an empty line stays empty. A word wider than its line gets a line of
/// its own rather than being cut. Widths come from ``displayWidth(of:)-(String)``.
///
///     wrapWords("Replay the intact actions of a log", toWidth: 16)
///     // ["Replay the", "intact actions", "of a log"]
///
/// - Parameters:
///   - text: The text to wrap, which should already be ``inert(_:keepingNewlines:)`` if it is
///     untrusted.
///   - width: The most columns per line; values below 1 are taken as 1.
///   - firstLineWidth: The most columns on the first line, when it differs (the rest of a line
///     that a label has started).
/// - Returns: The lines, without line feeds; at least one line.
package func wrapWords(_ text: String, toWidth width: Int, firstLineWidth: Int? = nil) -> [String] {
  var lines: [String] = []
  var limit: Int { max(1, lines.isEmpty ? (firstLineWidth ?? width) : width) }
  for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
    var line = ""
    var lineWidth = 0
    for word in paragraph.split(separator: " ") {
      let wordWidth = displayWidth(of: String(word))
      if lineWidth > 0 && lineWidth + 1 + wordWidth > limit {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      if lineWidth > 0 {
        line += " "
        lineWidth += 1
      }
      line += word
      lineWidth += wordWidth
    }
    lines.append(line)
  }
  return lines
}

/// Returns `text` wrapped for a column that starts part-way along a line: the first line has
/// `firstLineWidth` columns, and every following line is indented by `indent` spaces and
/// fills the line up to `width`.
///
///     hangingIndent("Replay the intact actions of a log", firstLineWidth: 18, indent: 4,
///                   width: 22)
///     // "Replay the intact\n    actions of a log"
///
/// - Returns: The wrapped text, lines joined by `\n`, with no trailing line feed; empty
///   lines are not indented.
package func hangingIndent(
  _ text: String, firstLineWidth: Int, indent: Int, width: Int
) -> String {
  let padding = String(repeating: " ", count: indent)
  let lines = wrapWords(text, toWidth: width - indent, firstLineWidth: firstLineWidth)
  return lines.enumerated()
    .map { $0.offset == 0 || $0.element.isEmpty ? $0.element : padding + $0.element }
    .joined(separator: "\n")
}

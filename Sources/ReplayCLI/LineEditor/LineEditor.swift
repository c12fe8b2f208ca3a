import Rewind
import RewindReplayService

/// Reads lines from the terminal with editing, history and completion (see ``LineEditState``
/// for the keys), in raw mode only while a line is being read.
///
/// When standard input or output is not a terminal, it reads plain lines instead.
package final class LineEditor {
  /// The history, saved to its file after each line.
  package private(set) var history: LineHistory
  /// What Tab completes with.
  package var completer: (any LineCompleting)?
  /// Events read after the end of the last line (the next lines of a paste), for the next one.
  private var pending: [RawTerminal.Event] = []

  /// An editor over `history`.
  package init(history: LineHistory) {
    self.history = history
  }

  /// Shows `prompt`, reads one line, and returns it without its line feed; `nil` at the end of
  /// input (Ctrl-D on an empty line, or the terminal gone).
  package func readLine(prompt: String) -> String? {
    guard let terminal = RawTerminal.open(fullScreen: false) else {
      _ = Array(prompt.utf8).withUnsafeBytes { Platform.writeAll(1, $0) }
      return Swift.readLine(strippingNewline: true)
    }
    defer { terminal.close() }
    var state = LineEditState(history: history.entries)
    var queue = pending
    pending = []
    draw(prompt, state, on: terminal)
    var isDrawn = true
    while true {
      if queue.isEmpty {
        if !isDrawn { draw(prompt, state, on: terminal) }
        queue = terminal.nextEvents()
      }
      isDrawn = false
      let event = queue.removeFirst()
      guard case .key(let key) = event else {
        if event == .endOfInput {
          terminal.write("\r\n")
          return nil
        }
        continue
      }
      let before = state
      switch state.apply(key, completer: completer) {
      case .editing, .cancelled:
        if !state.candidates.isEmpty { list(state.candidates, on: terminal) }
      case .submitted(let line):
        draw(prompt, LineEditState(text: line), on: terminal)
        terminal.write("\r\n")
        history.add(line)
        pending = queue
        return line
      case .interrupted:
        draw(prompt, LineEditState(text: before.text), on: terminal)
        terminal.write("^C\r\n")
        state = LineEditState(history: history.entries)
      case .endOfInput:
        terminal.write("\r\n")
        return nil
      case .redraw:
        terminal.write("\u{1B}[H\u{1B}[2J")
      }
    }
  }

  /// Redraws the prompt and the line on the current row, cursor in place.
  private func draw(_ prompt: String, _ state: LineEditState, on terminal: RawTerminal) {
    let view = LineView(prompt: prompt, state: state, width: terminal.size.columns)
    var out = "\r" + view.text + "\u{1B}[K\r"
    if view.cursorColumn > 0 { out += "\u{1B}[\(view.cursorColumn)C" }
    terminal.write(out)
  }

  /// Lists completion candidates in columns below the line.
  private func list(_ candidates: [String], on terminal: RawTerminal) {
    let names = candidates.map { inert($0) }
    let cellWidth = (names.map { displayWidth(of: $0) }.max() ?? 0) + 2
    let perRow = max(1, terminal.size.columns / max(1, cellWidth))
    var out = "\r\n"
    for (index, name) in names.enumerated() {
      out += name
      if (index + 1) % perRow == 0 || index == names.count - 1 {
        out += "\r\n"
      } else {
        out += String(repeating: " ", count: cellWidth - displayWidth(of: name))
      }
    }
    terminal.write(out)
  }
}

/// Session commands typed at a terminal, with line editing, history (`~/.rewind_replay_history`)
/// and Tab completion: the ``LineInput`` of `replay LOG` when standard input is a terminal.
///
/// It draws the prompt itself (so it can redraw the line as it is edited): the session loop
/// must not write the prompt before calling ``readLine()``. ``attach(to:)`` wires it to a
/// session's prompt and completions. The history file is read when the first line is.
package final class TerminalLineInput: LineInput {
  /// Where the history is kept (`nil`: in memory only).
  private let historyPath: String?
  /// Reads and edits the lines; made when the first line is read.
  private lazy var editor = LineEditor(history: LineHistory(path: historyPath))
  /// The prompt before each line (the session's, once attached).
  private var promptText: () -> String = { "(replay) " }

  /// An input whose history is kept at `historyPath` (by default `~/.rewind_replay_history`).
  package init(historyPath: String? = LineHistory.defaultPath()) {
    self.historyPath = historyPath
  }

  /// Always `true`: a person is typing.
  package var isInteractive: Bool { true }

  /// What Tab completes with.
  package var completer: (any LineCompleting)? {
    get { editor.completer }
    set { editor.completer = newValue }
  }

  /// Shows the session's prompt before each line and completes command names and the paths of
  /// its current state.
  func attach(to session: ReplaySession) {
    promptText = { [weak session] in session?.prompt ?? "(replay) " }
    completer = SessionCompleter(session: session)
  }

  /// Reads one edited line, or `nil` at the end of input.
  package func readLine() -> String? {
    editor.readLine(prompt: promptText())
  }
}

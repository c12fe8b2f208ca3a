import RewindJSON
import RewindReplay

extension TUIModel {
  /// Applies every key in order (a paste, a held key), as ``handle(_:)`` does one.
  func handle(_ keys: [TerminalKey]) {
    for key in keys where !isFinished { handle(key) }
  }

  /// Applies one key.
  ///
  /// ←/→ or h/l step; ↑/↓ (j/k) move in the focused pane; PgUp/PgDn page; Home/End go to the
  /// initial state and the last action; `g` asks for a position; `/` for text or `type=NAME`
  /// to find, and `n`/`N` find the next and previous match; `w` watches the value under the
  /// state cursor; `c`/`C` continue and reverse-continue; `d` shows or hides the diff; Tab
  /// switches panes; Enter or space folds and unfolds in the state (Enter in the action list
  /// moves to the state); `:` runs a session command; `!` rebuilds
  /// the last state of a cut-off log; `?` shows the keys; `q` (or Ctrl-C) quits. While the help
  /// is shown, any key closes it; while a prompt is open, keys edit its answer.
  func handle(_ key: TerminalKey) {
    if showsHelp {
      showsHelp = false
      return
    }
    if prompt != nil {
      handlePromptKey(key)
      return
    }
    messages = []
    let page = max(1, layout.contentHeight)
    switch key {
    case .left, .character("h"): step(by: -1)
    case .right, .character("l"): step(by: 1)
    case .up, .character("k"): focus == .actions ? step(by: -1) : moveTreeCursor(by: -1)
    case .down, .character("j"): focus == .actions ? step(by: 1) : moveTreeCursor(by: 1)
    case .pageUp: focus == .actions ? step(by: -page) : moveTreeCursor(by: -page)
    case .pageDown: focus == .actions ? step(by: page) : moveTreeCursor(by: page)
    case .home: move(to: log.positions.lowerBound)
    case .end: move(to: log.positions.upperBound)
    case .character("g"): ask(.goto)
    case .character("/"): ask(.find)
    case .character(":"): ask(.command)
    case .character("n"): findAgain(backward: false)
    case .character("N"): findAgain(backward: true)
    case .character("w"): watchTreeCursor()
    case .character("c"): runSessionCommand("continue")
    case .character("C"): runSessionCommand("reverse-continue")
    case .character("d"):
      showsDiff.toggle()
      followPosition()
    case .tab, .backTab: focus = focus == .actions ? .state : .actions
    case .enter, .character(" "):
      if focus == .state { toggleFold() } else { focus = .state }
    case .character("?"): showsHelp = true
    case .character("q"), .control("c"): isFinished = true
    case .character("!"): confirmRebuild()
    case .control("l"): needsFullRedraw = true
    default: break
    }
  }

  /// Moves `delta` positions, saying so at either end of the log.
  private func step(by delta: Int) {
    let range = log.positions
    if delta > 0, position == range.upperBound {
      report("already at the last position (\(range.upperBound))")
    } else if delta < 0, position == range.lowerBound {
      report("already at the initial state (position \(range.lowerBound))")
    } else {
      move(to: position + delta)
    }
  }

  /// Moves the state tree's cursor `delta` rows, when there is a state.
  private func moveTreeCursor(by delta: Int) {
    guard case .value(let state) = state(at: position) else { return }
    tree.moveCursor(by: delta, in: state, height: max(1, layout.contentHeight))
  }

  /// Folds or unfolds the state tree's row under the cursor.
  private func toggleFold() {
    guard case .value(let state) = state(at: position) else { return }
    tree.toggleFold(in: state, height: max(1, layout.contentHeight))
  }

  /// Opens a prompt on the message line, with the history of its kind.
  private func ask(_ kind: TUIPrompt.Kind) {
    let history = kind == .find ? findHistory : kind == .command ? commandHistory : []
    prompt = TUIPrompt(kind: kind, line: LineEditState(history: history))
  }

  /// Edits the open prompt's answer; Enter answers it, Escape and Ctrl-C close it.
  private func handlePromptKey(_ key: TerminalKey) {
    guard var current = prompt else { return }
    let completer: (any LineCompleting)? =
      current.kind == .command
      ? SessionCompleter { [weak self] in
        guard let self, case .value(let state) = self.state(at: self.position) else { return nil }
        return state
      } : nil
    switch current.line.apply(key, completer: completer) {
    case .editing, .redraw:
      prompt = current
      messages =
        current.line.candidates.isEmpty
        ? []
        : [TUIMessageLine(text: current.line.candidates.joined(separator: "  "), isError: false)]
    case .submitted(let text):
      prompt = nil
      messages = []
      answer(current.kind, text.trimmingWhitespace())
    case .cancelled, .interrupted, .endOfInput:
      prompt = nil
    }
  }

  /// Acts on a prompt's answer: goes to a position, finds, or runs a command.
  private func answer(_ kind: TUIPrompt.Kind, _ text: String) {
    guard !text.isEmpty else { return }
    switch kind {
    case .goto:
      do throws(DebuggerError) { move(to: try Debugger.position(text, in: log)) } catch {
        report(inert(error.message), isError: true)
      }
    case .find:
      if findHistory.last != text { findHistory.append(text) }
      lastQuery = text
      findAgain(backward: false)
    case .command:
      if commandHistory.last != text { commandHistory.append(text) }
      runSessionCommand(text)
    }
  }

  /// Finds the next (or previous) action matching the last query.
  private func findAgain(backward: Bool) {
    guard let lastQuery else {
      report("nothing to find again: press / and type text, or type=NAME")
      return
    }
    runSessionCommand(backward ? "find -b \(lastQuery)" : "find \(lastQuery)")
  }

  /// Sets a watchpoint on the path under the state tree's cursor.
  private func watchTreeCursor() {
    guard case .value(let state) = state(at: position) else {
      report("no state here to watch", isError: true)
      return
    }
    let rows = StateTreeRows(document: state, toggled: tree.toggled)
    runSessionCommand("watch \(rows.jsonPath(rows.row(for: tree.cursor)).sessionText)")
  }

  /// Lets the last state of a cut-off log be rebuilt (`!`).
  private func confirmRebuild() {
    guard needsConfirmation(position) else {
      report("nothing to confirm: '!' rebuilds the last state of a cut-off log")
      return
    }
    isRiskAccepted = true
    forgetStates()
    followPosition()
  }
}

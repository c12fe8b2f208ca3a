import RewindJSON
import RewindReplay
import RewindReplayService

extension TUIModel {
  /// Applies every key in order (a paste, a held key), as ``handle(_:)`` does one.
  func handle(_ keys: [TerminalKey]) {
    for key in keys where !isFinished { handle(key) }
  }

  /// Applies one key: what ``TUIKeyTable`` binds it to.
  ///
  /// While the help is shown, any key closes it; while a prompt is open, keys edit its answer.
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
    guard let command = TUIKeyTable.command(for: key) else { return }
    apply(command)
  }

  /// Does what a key is bound to: a request to the service, or a change of what is shown.
  func apply(_ command: TUIKeyCommand) {
    let page = max(1, layout.contentHeight)
    switch command {
    case .step(let delta): move(.steps(delta))
    case .row(let delta): focus == .actions ? move(.steps(delta)) : moveTreeCursor(by: delta)
    case .page(let pages):
      focus == .actions ? move(.steps(pages * page)) : moveTreeCursor(by: pages * page)
    case .end(let last):
      move(.position(last ? log.positions.upperBound : log.positions.lowerBound))
    case .ask(let kind): ask(kind == .find && focus == .state ? .searchState : kind)
    case .findAgain(let backward):
      if focus == .state, let query = lastStateQuery {
        searchState(query, backward ? .backward : .forward)
      } else {
        findAgain(backward: backward)
      }
    case .watchTreeCursor: watchTreeCursor()
    case .continueRun(let direction): perform(ContinueRequest(direction))
    case .toggleDiff:
      showsDiff.toggle()
      followPosition()
    case .switchPane: focus = focus == .actions ? .state : .actions
    case .fold: if focus == .state { toggleFold() } else { focus = .state }
    case .confirmRebuild: confirmRebuild()
    case .switchApp(let delta): switchApp(by: delta)
    case .help: showsHelp = true
    case .redraw: needsFullRedraw = true
    case .quit: isFinished = true
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
    let history =
      kind == .find || kind == .searchState
      ? findHistory
      : kind == .command ? commandHistory : []
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
      do throws(ReplayFailure) {
        move(.position(try ReplayCommand.position(text, in: service)))
      } catch {
        report(service.text(of: error), isError: true)
      }
    case .find:
      if findHistory.last != text { findHistory.append(text) }
      lastQuery = text
      findAgain(backward: false)
    case .command:
      if commandHistory.last != text { commandHistory.append(text) }
      run(commandLine: text)
    case .searchState:
      if findHistory.last != text { findHistory.append(text) }
      let query = StateQuery(parsing: text)
      lastStateQuery = query
      searchState(query, nil)
    }
  }

  /// Searches the state at the cursor for `query` (`direction` `nil`), or moves to the next or
  /// previous position where the state starts or stops matching; then puts the state cursor on
  /// the first match at the new position, unfolding the containers on the way.
  private func searchState(_ query: StateQuery, _ direction: TimelineSearch.Direction?) {
    perform(SearchRequest(query, direction))
    guard let response = lastResponse as? SearchResponse else { return }
    let matches: [StateMatch]
    switch response {
    case .matches(_, let result): matches = result.matches
    case .moved(_, _, _, let isPresent):
      guard isPresent else { return }
      matches = (try? service.debugger.searchState(query).matches) ?? []
    }
    guard let first = matches.first, case .value(let state) = self.state(at: position) else {
      return
    }
    tree.reveal(first.path, in: state, height: max(1, layout.contentHeight))
  }

  /// Finds the next (or previous) action matching the last query.
  private func findAgain(backward: Bool) {
    guard let lastQuery else {
      report("nothing to find again: press / and type text, or type=NAME")
      return
    }
    perform(FindRequest(ActionQuery(parsing: lastQuery), backward ? .backward : .forward))
  }

  /// Sets a watchpoint on the path under the state tree's cursor.
  private func watchTreeCursor() {
    guard case .value(let state) = state(at: position) else {
      report("no state here to watch", isError: true)
      return
    }
    let rows = StateTreeRows(document: state, toggled: tree.toggled)
    perform(WatchRequest(rows.jsonPath(rows.row(for: tree.cursor))))
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

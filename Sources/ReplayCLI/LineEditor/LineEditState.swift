/// What a key did to a line being edited.
package enum LineEditOutcome: Sendable, Equatable {
  /// The line changed or the cursor moved (or nothing happened): keep reading.
  case editing
  /// Enter: the line is done.
  case submitted(String)
  /// Ctrl-C: the line was dropped; start a new one.
  case interrupted
  /// Ctrl-D on an empty line: no more input.
  case endOfInput
  /// Escape outside a search: a prompt of the full-screen debugger closes.
  case cancelled
  /// Ctrl-L: clear the screen and draw the line again.
  case redraw
}

/// A line being edited, with its history: the testable core of ``LineEditor``, changed only by
/// ``apply(_:completer:)``.
///
/// Keys, as in readline: ←/→ (Ctrl-B/Ctrl-F) move, Alt-B/Alt-F by words; Home/End (Ctrl-A/
/// Ctrl-E); Backspace, Delete (and Ctrl-D within a line); Ctrl-U, Ctrl-K and Ctrl-W delete to the
/// start, to the end, and the word before; ↑/↓ (Ctrl-P/Ctrl-N) walk the history; Ctrl-R searches
/// it backward as you type; Tab completes; Enter submits; Ctrl-C drops the line; Ctrl-D on an
/// empty line ends the input.
///
///     var line = LineEditState(history: ["goto 12", "print todos"])
///     _ = line.apply(.up)         // text "print todos"
///     _ = line.apply(.control("a"))
///     _ = line.apply(.enter)      // .submitted("print todos")
package struct LineEditState: Sendable {
  /// An incremental search backward through the history (Ctrl-R).
  package struct ReverseSearch: Sendable, Equatable {
    /// What was typed since Ctrl-R.
    package var query = ""
    /// The index in the history of the line shown, when one matches.
    package var match: Int?
    /// Whether the query matches no older line.
    package var isFailing = false
    /// The line before the search started, for Ctrl-G.
    fileprivate var originalText: String
    /// The cursor before the search started.
    fileprivate var originalCursor: Int
  }

  /// The line as edited so far.
  package private(set) var text: String
  /// The cursor's offset in characters, from 0 (before the first) to `text.count`.
  package private(set) var cursor: Int
  /// Earlier lines, oldest first.
  package let history: [String]
  /// The search in progress, if any.
  package private(set) var search: ReverseSearch?
  /// The candidates to list after a Tab that could not choose; cleared by the next key.
  package private(set) var candidates: [String] = []
  /// The history line shown, or `nil` while editing the draft.
  private var historyIndex: Int?
  /// The line being typed before ↑ recalled an older one.
  private var draft = ""

  /// An empty line (or `text`, cursor at its end) over `history`, oldest first.
  package init(history: [String] = [], text: String = "") {
    self.history = history
    self.text = text
    self.cursor = text.count
  }

  /// Applies one key.
  /// - Parameters:
  ///   - key: The key pressed.
  ///   - completer: What Tab completes with; Tab does nothing without one.
  /// - Returns: What the key did; see ``LineEditOutcome``.
  package mutating func apply(
    _ key: TerminalKey, completer: (any LineCompleting)? = nil
  ) -> LineEditOutcome {
    candidates = []
    if search != nil, let outcome = applySearching(key) { return outcome }
    switch key {
    case .character(let character): insert(String(character))
    case .enter: return .submitted(text)
    case .left, .control("b"): cursor = max(0, cursor - 1)
    case .right, .control("f"): cursor = min(text.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = text.count
    case .alt("b"): cursor = wordStart(before: cursor)
    case .alt("f"): cursor = wordEnd(after: cursor)
    case .backspace:
      guard cursor > 0 else { break }
      remove((cursor - 1)..<cursor)
    case .delete: remove(cursor..<min(text.count, cursor + 1))
    case .control("d"):
      if text.isEmpty { return .endOfInput }
      remove(cursor..<min(text.count, cursor + 1))
    case .control("u"): remove(0..<cursor)
    case .control("k"): remove(cursor..<text.count)
    case .control("w"): remove(wordStart(before: cursor)..<cursor)
    case .up, .control("p"): recall(older: true)
    case .down, .control("n"): recall(older: false)
    case .control("r"):
      search = ReverseSearch(originalText: text, originalCursor: cursor)
    case .tab: complete(with: completer)
    case .control("c"):
      text = ""
      cursor = 0
      return .interrupted
    case .control("l"): return .redraw
    case .escape: return .cancelled
    default: break
    }
    return .editing
  }

  /// Handles a key during a search; `nil` when the key ends the search and should then act as
  /// usual (a movement keeps the line found and moves in it).
  private mutating func applySearching(_ key: TerminalKey) -> LineEditOutcome? {
    guard var current = search else { return nil }
    switch key {
    case .character(let character):
      current.query.append(character)
      find(current, from: current.match ?? history.count - 1)
      return .editing
    case .backspace:
      if !current.query.isEmpty { current.query.removeLast() }
      find(current, from: history.count - 1)
      return .editing
    case .control("r"):
      find(current, from: (current.match ?? history.count) - 1)
      return .editing
    case .control("g"):
      text = current.originalText
      cursor = current.originalCursor
      search = nil
      return .editing
    case .control("c"):
      search = nil
      text = ""
      cursor = 0
      return .interrupted
    case .escape:
      search = nil
      return .editing
    default:
      search = nil
      return nil
    }
  }

  /// Looks for the search's query in the history from index `start` back to the oldest line,
  /// showing the line found.
  private mutating func find(_ searching: ReverseSearch, from start: Int) {
    var current = searching
    current.isFailing = false
    var index = min(start, history.count - 1)
    while index >= 0 {
      let line = history[index]
      if current.query.isEmpty || line.contains(current.query) {
        current.match = index
        text = line
        if let range = line.range(of: current.query), !current.query.isEmpty {
          cursor = line.distance(from: line.startIndex, to: range.lowerBound)
        } else {
          cursor = line.count
        }
        search = current
        return
      }
      index -= 1
    }
    current.isFailing = true
    search = current
  }

  /// Shows the older (↑) or newer (↓) history line, then the draft again.
  private mutating func recall(older: Bool) {
    guard !history.isEmpty else { return }
    if older {
      guard let index = historyIndex else {
        draft = text
        historyIndex = history.count - 1
        show(history[history.count - 1])
        return
      }
      guard index > 0 else { return }
      historyIndex = index - 1
      show(history[index - 1])
    } else {
      guard let index = historyIndex else { return }
      if index + 1 < history.count {
        historyIndex = index + 1
        show(history[index + 1])
      } else {
        historyIndex = nil
        show(draft)
      }
    }
  }

  /// Replaces the line, cursor at its end.
  private mutating func show(_ line: String) {
    text = line
    cursor = line.count
  }

  /// Tab: inserts the only candidate, or the candidates' common prefix, or lists them.
  private mutating func complete(with completer: (any LineCompleting)?) {
    guard let completer, let completion = completer.completion(for: text, cursor: cursor),
      !completion.candidates.isEmpty
    else { return }
    let start = min(max(0, completion.start), cursor)
    let word = String(Array(text)[start..<cursor])
    if completion.candidates.count == 1 {
      replace(start..<cursor, with: completion.candidates[0] + completion.terminator)
      return
    }
    let common = longestCommonPrefix(completion.candidates)
    if common.count > word.count, common.hasPrefix(word) {
      replace(start..<cursor, with: common)
    } else {
      candidates = completion.candidates
    }
  }

  /// Inserts text at the cursor.
  private mutating func insert(_ inserted: String) {
    replace(cursor..<cursor, with: inserted)
  }

  /// Deletes the characters in `range`.
  private mutating func remove(_ range: Range<Int>) {
    replace(range, with: "")
  }

  /// Replaces the characters in `range` and puts the cursor after the replacement.
  private mutating func replace(_ range: Range<Int>, with replacement: String) {
    let characters = Array(text)
    let before = String(characters[..<range.lowerBound]) + replacement
    text = before + String(characters[range.upperBound...])
    cursor = before.count
  }

  /// Where the word before `offset` starts (spaces separate words).
  private func wordStart(before offset: Int) -> Int {
    let characters = Array(text)
    var index = offset
    while index > 0, characters[index - 1] == " " { index -= 1 }
    while index > 0, characters[index - 1] != " " { index -= 1 }
    return index
  }

  /// Where the word after `offset` ends.
  private func wordEnd(after offset: Int) -> Int {
    let characters = Array(text)
    var index = offset
    while index < characters.count, characters[index] == " " { index += 1 }
    while index < characters.count, characters[index] != " " { index += 1 }
    return index
  }
}

import RewindJSON
import RewindReplay
import RewindReplayService

/// Completes session command lines: command names at the start of a line and after `help`,
/// `first`/`last` after `goto` and `diff`, and state paths after `print`, `watch` and `break if` — keys of
/// the state at the cursor (`print to⇥` → `todos`, `print todos[0].ti⇥` → `title`), and
/// `count` after an array.
struct SessionCompleter: LineCompleting {
  /// The state that paths complete in, or `nil` when it is not available.
  private let state: () -> StateDocument?

  /// Completes paths in whatever `state` returns when Tab is pressed.
  init(state: @escaping () -> StateDocument?) {
    self.state = state
  }

  /// Completes paths in the state at the session's cursor (already rebuilt when the session
  /// moved there, so this costs no reduction).
  init(session: ReplaySession) {
    self.init { [weak session] in
      guard let session else { return nil }
      return (try? session.service.stateText(at: session.position)).map {
        StateDocument(checkedText: $0)
      }
    }
  }

  /// The completions of the word before the cursor (see ``SessionCompleter``).
  func completion(for line: String, cursor: Int) -> LineCompletion? {
    let before = String(line.prefix(cursor))
    let wordStart =
      before.lastIndex(of: " ").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0
    let word = String(before.dropFirst(wordStart))
    let earlier = before.prefix(wordStart).split(separator: " ").map(String.init)
    guard let first = earlier.first else { return commandNames(word, start: wordStart) }
    switch ReplayCommandTable.lookup(first)?.arguments {
    case .commandName where earlier.count == 1:
      return commandNames(word, start: wordStart)
    case .positions:
      return words(["first", "last"], matching: word, start: wordStart, terminator: "")
    case .statePath where earlier.count == 1:
      return path(word, start: wordStart)
    case .breakpoint where earlier.count == 1:
      return words(["if", "type="], matching: word, start: wordStart, terminator: "")
    case .breakpoint where earlier.count == 2 && earlier[1] == "if":
      return path(word, start: wordStart)
    default:
      return nil
    }
  }

  /// Session command names that start with `word`.
  private func commandNames(_ word: String, start: Int) -> LineCompletion? {
    words(ReplayCommandTable.all.map(\.name), matching: word, start: start, terminator: " ")
  }

  /// The `words` that start with `word`, or `nil` when none does.
  private func words(
    _ words: [String], matching word: String, start: Int, terminator: String
  ) -> LineCompletion? {
    let matches = words.filter { $0.hasPrefix(word) }
    return matches.isEmpty
      ? nil : LineCompletion(start: start, candidates: matches, terminator: terminator)
  }

  /// Completes the last key of a path: `todos[0].ti` → `title`.
  private func path(_ word: String, start: Int) -> LineCompletion? {
    guard !word.contains("\"") else { return nil }
    let separator = word.lastIndex { $0 == "." || $0 == "[" }
    if let separator, word[separator] == "[" { return nil }
    let parentText = separator.map { String(word[..<$0]) } ?? ""
    let partial = separator.map { String(word[word.index(after: $0)...]) } ?? word
    let partialStart =
      start + (separator.map { word.distance(from: word.startIndex, to: $0) + 1 } ?? 0)
    guard let state = state(), let parentPath = try? JSONPath.parse(parentText),
      let parent = state.start(at: parentPath), state.level(of: parent) != nil
    else { return nil }
    let keys = state.keys(of: parent)?.filter { JSONPreview.key($0) == $0 } ?? ["count"]
    return words(keys, matching: partial, start: partialStart, terminator: "")
  }
}

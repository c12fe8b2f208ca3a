import Testing

@testable import ReplayCLI

/// The editing keys of the line interface, applied to the pure line state.
@Suite struct LineEditStateTests {
  /// Applies the keys of `text` (raw terminal bytes) and returns the last outcome.
  @discardableResult
  private func type(
    _ text: String, into state: inout LineEditState, completer: (any LineCompleting)? = nil
  ) -> LineEditOutcome {
    var outcome = LineEditOutcome.editing
    for key in TUIFixture.keys(text) { outcome = state.apply(key, completer: completer) }
    return outcome
  }

  @Test func typingInsertsAtTheCursor() {
    var line = LineEditState()
    type("goo 12\u{1B}[D\u{1B}[D\u{1B}[Dt", into: &line)
    #expect(line.text == "goot 12")
    #expect(line.cursor == 4)
    #expect(type("\r", into: &line) == .submitted("goot 12"))
  }

  @Test func homeEndAndTheirControlKeys() {
    var line = LineEditState(text: "print todos")
    type("\u{1B}[H", into: &line)
    #expect(line.cursor == 0)
    type("\u{1B}[F", into: &line)
    #expect(line.cursor == 11)
    type("\u{01}>", into: &line)
    #expect(line.text == ">print todos")
    type("\u{05}<", into: &line)
    #expect(line.text == ">print todos<")
  }

  @Test func backspaceAndDelete() {
    var line = LineEditState(text: "nexxt")
    type("\u{7F}\u{7F}t", into: &line)
    #expect(line.text == "next")
    type("\u{01}\u{1B}[3~", into: &line)
    #expect(line.text == "ext")
    type("\u{7F}\u{7F}", into: &line)
    #expect(line.text == "ext")
    #expect(line.cursor == 0)
  }

  @Test func killingToTheStartTheEndAndTheWordBefore() {
    var line = LineEditState(text: "print todos[0].title")
    type("\u{17}", into: &line)
    #expect(line.text == "print ")
    type("todos\u{1B}[D\u{1B}[D\u{0B}", into: &line)
    #expect(line.text == "print tod")
    type("\u{15}", into: &line)
    #expect(line.text == "")
  }

  @Test func altMovesByWords() {
    var line = LineEditState(text: "break if todos.count > 3")
    type("\u{1B}b\u{1B}b", into: &line)
    #expect(line.cursor == 21)
    type("\u{1B}f", into: &line)
    #expect(line.cursor == 22)
  }

  @Test func upAndDownWalkTheHistoryAndKeepTheDraft() {
    var line = LineEditState(history: ["goto 12", "print todos", "next"])
    type("dra", into: &line)
    type("\u{1B}[A", into: &line)
    #expect(line.text == "next")
    type("\u{1B}[A\u{1B}[A\u{1B}[A", into: &line)
    #expect(line.text == "goto 12")
    #expect(line.cursor == 7)
    type("\u{1B}[B", into: &line)
    #expect(line.text == "print todos")
    type("\u{1B}[B\u{1B}[B", into: &line)
    #expect(line.text == "dra")
    type("\u{10}", into: &line)
    #expect(line.text == "next")
  }

  @Test func ctrlRSearchesBackwardIncrementally() {
    var line = LineEditState(history: ["print todos", "goto 12", "print filter", "next"])
    type("\u{12}pr", into: &line)
    #expect(line.search?.query == "pr")
    #expect(line.text == "print filter")
    type("\u{12}", into: &line)
    #expect(line.text == "print todos")
    #expect(line.search?.match == 0)
    type("\u{12}", into: &line)
    #expect(line.search?.isFailing == true)
    #expect(line.text == "print todos")
    #expect(type("\r", into: &line) == .submitted("print todos"))
  }

  @Test func ctrlRThenAMovementKeepsTheLineFound() {
    var line = LineEditState(history: ["goto 12", "next"])
    type("\u{12}got\u{1B}[F 0", into: &line)
    #expect(line.search == nil)
    #expect(line.text == "goto 12 0")
  }

  @Test func ctrlGCancelsTheSearch() {
    var line = LineEditState(history: ["goto 12"])
    type("info\u{12}go\u{07}", into: &line)
    #expect(line.search == nil)
    #expect(line.text == "info")
  }

  @Test func ctrlCDropsTheLineAndCtrlDEndsOnlyAnEmptyOne() {
    var line = LineEditState()
    #expect(type("print\u{03}", into: &line) == .interrupted)
    #expect(line.text == "")
    #expect(type("ab\u{01}\u{04}", into: &line) == .editing)
    #expect(line.text == "b")
    #expect(type("\u{7F}\u{04}", into: &line) == .editing)
    #expect(line.text == "")
    #expect(type("\u{04}", into: &line) == .endOfInput)
    var empty = LineEditState()
    #expect(type("\u{04}", into: &empty) == .endOfInput)
  }

  private struct Words: LineCompleting {
    var words: [String]
    func completion(for line: String, cursor: Int) -> LineCompletion? {
      let word = String(
        line.prefix(cursor).split(separator: " ", omittingEmptySubsequences: false).last ?? "")
      return LineCompletion(
        start: cursor - word.count, candidates: words.filter { $0.hasPrefix(word) }, terminator: " "
      )
    }
  }

  @Test func tabCompletesAUniqueWordWithItsTerminator() {
    var line = LineEditState()
    type("rev\t", into: &line, completer: Words(words: ["reverse-continue", "next"]))
    #expect(line.text == "reverse-continue ")
  }

  @Test func tabExtendsToTheCommonPrefixThenListsTheCandidates() {
    let completer = Words(words: ["watch", "watches"])
    var line = LineEditState()
    type("w\t", into: &line, completer: completer)
    #expect(line.text == "watch")
    #expect(line.candidates.isEmpty)
    type("\t", into: &line, completer: completer)
    #expect(line.text == "watch")
    #expect(line.candidates == ["watch", "watches"])
    type("e", into: &line, completer: completer)
    #expect(line.candidates.isEmpty)
  }

  @Test func withoutACompleterTabDoesNothing() {
    var line = LineEditState(text: "pr")
    type("\t", into: &line)
    #expect(line.text == "pr")
  }

  @Test func wideAndCombinedCharactersAreOneCursorStepEach() {
    var line = LineEditState(text: "牛e\u{301}x")
    #expect(line.cursor == 3)
    type("\u{1B}[D\u{7F}", into: &line)
    #expect(line.text == "牛x")
  }
}

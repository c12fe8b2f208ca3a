import RewindJSON
import RewindReplayService
import Testing

@testable import ReplayCLI

/// Tab completion of session command lines: command names, and keys of the current state.
@Suite struct SessionCompleterTests {
  private let completer = SessionCompleter {
    StateDocument(
      .object([
        JSONMember(
          "todos",
          .array([.object([JSONMember("id", .number("1")), JSONMember("title", .string("x"))])])),
        JSONMember("total", .number("1")),
        JSONMember("filter", .string("all")),
        JSONMember("by id", .object([])),
      ]))
  }

  private func complete(_ line: String) -> String {
    var state = LineEditState(text: line)
    _ = state.apply(.tab, completer: completer)
    return state.text
      + (state.candidates.isEmpty ? "" : "  [" + state.candidates.joined(separator: " ") + "]")
  }

  @Test(arguments: [
    ("print to", "print to  [todos total]"),
    ("print tod", "print todos"),
    ("print todos[0].ti", "print todos[0].title"),
    ("p fil", "p filter"),
    ("print t", "print to"),
    ("print todos.c", "print todos.count"),
    ("watch todos[0].", "watch todos[0].  [id title]"),
    ("break if to", "break if to  [todos total]"),
    ("print todos[0].nothing.x", "print todos[0].nothing.x"),
    ("print filter.x", "print filter.x"),
    ("ne", "next "),
    ("re", "reverse-continue "),
    ("wa", "watch"),
    ("help del", "help delete "),
    ("goto l", "goto last"),
    ("break t", "break type="),
    ("info x", "info x"),
  ])
  func completes(line: String, result: String) {
    #expect(complete(line) == result)
  }

  @Test func completesTheWordBeforeTheCursorOnly() {
    var state = LineEditState(text: "print fi todos")
    for _ in 0..<6 { _ = state.apply(.left) }
    _ = state.apply(.tab, completer: completer)
    #expect(state.text == "print filter todos")
    #expect(state.cursor == 12)
  }

  @Test func withoutAStateOnlyCommandsComplete() {
    let blind = SessionCompleter { nil }
    var state = LineEditState(text: "print to")
    _ = state.apply(.tab, completer: blind)
    #expect(state.text == "print to")
  }
}

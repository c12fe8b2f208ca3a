import RewindReplay
import RewindReplayService

/// What a key does in the full-screen debugger. Those that ask the service for something become
/// typed requests (``TUIModel/request(for:)``); the others change only how things are shown.
enum TUIKeyCommand: Sendable, Equatable {
  /// Steps this many actions (←/→).
  case step(Int)
  /// Moves a row in the focused pane (↑/↓): a step in the action list, a row in the state.
  case row(Int)
  /// Moves a page in the focused pane (PgUp/PgDn).
  case page(Int)
  /// Goes to the initial state (`false`) or the last action (`true`).
  case end(last: Bool)
  /// Opens a prompt.
  case ask(TUIPrompt.Kind)
  /// Finds the next (or previous) action matching the last query.
  case findAgain(backward: Bool)
  /// Watches the value under the state cursor.
  case watchTreeCursor
  /// Continues forward or backward to a watch or break.
  case continueRun(TimelineSearch.Direction)
  /// Shows or hides the diff pane.
  case toggleDiff
  /// Switches between the panes.
  case switchPane
  /// Folds or unfolds in the state (in the action list: focuses the state).
  case fold
  /// Rebuilds the last state of a cut-off log.
  case confirmRebuild
  /// Shows the next (1) or previous (-1) running app (`replay tui --listen`).
  case switchApp(Int)
  /// Shows the keys.
  case help
  /// Repaints the screen.
  case redraw
  /// Ends the debugger.
  case quit
}

/// A key binding, as the help overlay lists it.
struct TUIKeyBinding: Sendable {
  /// The keys.
  var keys: [TerminalKey]
  /// How the help writes them (`←/→  h/l`).
  var label: String
  /// What they do.
  var summary: String
  /// What each key does, in the order of ``keys``.
  var commands: [TUIKeyCommand]
  /// How the footer names it (`←→ step`), when it does.
  var footer: String? = nil
}

/// The full-screen debugger's keys: the one table that ``TUIModel/handle(_:)`` acts on and the
/// help overlay lists. A command typed after `:` goes through the session's own table
/// (``ReplayCommandTable``).
enum TUIKeyTable {
  /// Every binding, in the order the help lists them.
  static let bindings: [TUIKeyBinding] = [
    TUIKeyBinding(
      keys: [.left, .character("h"), .right, .character("l")], label: "←/→  h/l",
      summary: "step back / forward one action",
      commands: [.step(-1), .step(-1), .step(1), .step(1)], footer: "←→ step"),
    TUIKeyBinding(
      keys: [.up, .character("k"), .down, .character("j")], label: "↑/↓  k/j",
      summary: "move in the focused pane", commands: [.row(-1), .row(-1), .row(1), .row(1)],
      footer: "↑↓ move"),
    TUIKeyBinding(
      keys: [.pageUp, .pageDown], label: "PgUp/PgDn", summary: "a page back / forward",
      commands: [.page(-1), .page(1)]),
    TUIKeyBinding(
      keys: [.home, .end], label: "Home/End", summary: "the initial state / the last action",
      commands: [.end(last: false), .end(last: true)]),
    TUIKeyBinding(
      keys: [.character("g")], label: "g N ⏎", summary: "go to position N (or first, last)",
      commands: [.ask(.goto)], footer: "g goto"),
    TUIKeyBinding(
      keys: [.character("/")], label: "/ TEXT ⏎",
      summary: "find an action: TEXT in its JSON, or type=NAME; in the state pane, search the "
        + "state: TEXT in a key or value, or NAME=VALUE", commands: [.ask(.find)],
      footer: "/ find"),
    TUIKeyBinding(
      keys: [.character("n"), .character("N")], label: "n / N",
      summary: "next / previous match; in the state pane, the next / previous position where "
        + "the state starts or stops matching",
      commands: [.findAgain(backward: false), .findAgain(backward: true)], footer: "n/N next"),
    TUIKeyBinding(
      keys: [.character("w")], label: "w", summary: "watch the value under the state cursor",
      commands: [.watchTreeCursor], footer: "w watch"),
    TUIKeyBinding(
      keys: [.character("c"), .character("C")], label: "c / C",
      summary: "continue / reverse-continue to a watch or break",
      commands: [.continueRun(.forward), .continueRun(.backward)], footer: "c/C continue"),
    TUIKeyBinding(
      keys: [.character("d")], label: "d", summary: "show / hide the diff of the action",
      commands: [.toggleDiff], footer: "d diff"),
    TUIKeyBinding(
      keys: [.tab, .backTab], label: "Tab", summary: "switch between the actions and the state",
      commands: [.switchPane, .switchPane], footer: "Tab pane"),
    TUIKeyBinding(
      keys: [.enter, .character(" ")], label: "⏎ / space", summary: "fold / unfold in the state",
      commands: [.fold, .fold]),
    TUIKeyBinding(
      keys: [.character(":")], label: ":", summary: "run a session command (help lists them)",
      commands: [.ask(.command)], footer: ": command"),
    TUIKeyBinding(
      keys: [.character("a"), .character("A")], label: "a / A",
      summary: "next / previous running app, when several are connected (replay tui --listen)",
      commands: [.switchApp(1), .switchApp(-1)]),
    TUIKeyBinding(
      keys: [.character("!")], label: "!", summary: "rebuild the last state of a cut-off log",
      commands: [.confirmRebuild]),
    TUIKeyBinding(
      keys: [.character("?")], label: "?", summary: "show these keys", commands: [.help],
      footer: "? help"),
    TUIKeyBinding(
      keys: [.control("l")], label: "Ctrl-L", summary: "redraw", commands: [.redraw]),
    TUIKeyBinding(
      keys: [.character("q"), .control("c")], label: "q  Ctrl-C", summary: "quit",
      commands: [.quit, .quit], footer: "q quit"),
  ]

  /// The footer's key names, in the table's order: those that fit are shown, and the last two
  /// (help and quit) always are.
  static var footer: [String] { bindings.compactMap(\.footer) }

  /// What `key` does, if anything.
  static func command(for key: TerminalKey) -> TUIKeyCommand? {
    for binding in bindings {
      if let index = binding.keys.firstIndex(of: key), index < binding.commands.count {
        return binding.commands[index]
      }
    }
    return nil
  }

  /// The lines of the help overlay: one per binding, then the timeline bar's legend.
  static var helpLines: [String] {
    let width = (bindings.map { displayWidth(of: $0.label) }.max() ?? 0) + 2
    return bindings.map { binding in
      binding.label + String(repeating: " ", count: width - displayWidth(of: binding.label))
        + binding.summary
    } + ["", "Timeline: █ cursor  ┼ checkpoint  ◆ stop  ✗ end of a cut-off log"]
  }
}

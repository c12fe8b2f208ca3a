/// One key press read from a terminal in raw mode, decoded from its bytes by ``KeyDecoder``.
package enum TerminalKey: Sendable, Hashable {
  /// Printable text: a letter, a digit, punctuation, a space, or any non-ASCII character.
  case character(Character)
  /// A letter typed with Ctrl held, as its lowercase letter: Ctrl-A is `.control("a")`.
  /// Enter, Tab and Backspace have their own cases even though they are control bytes.
  case control(Character)
  /// A character typed with Alt (Meta) held, which terminals send as Escape and the character.
  case alt(Character)
  /// Return or Enter.
  case enter
  /// Tab.
  case tab
  /// Shift-Tab.
  case backTab
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// Delete (forward delete).
  case delete
  /// Escape pressed alone.
  case escape
  /// The up arrow.
  case up
  /// The down arrow.
  case down
  /// The left arrow.
  case left
  /// The right arrow.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Page Up.
  case pageUp
  /// Page Down.
  case pageDown
  /// Insert.
  case insert
  /// A sequence this decoder does not know (a function key, a mouse report); ignored by both
  /// front ends.
  case unknown
}

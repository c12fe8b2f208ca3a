/// One token of Swift source, as much of the language as finding type declarations needs: names,
/// punctuation and operators, literals kept whole (so that no brace inside a string or a comment
/// is counted), and where a line starts.
struct SwiftToken: Equatable, Sendable {
  /// What a token is.
  enum Kind: Equatable, Sendable {
    /// A name or a keyword; a backticked name keeps its backticks in ``SwiftToken/text``.
    case identifier
    /// `#if`, `#endif`, `#available`, …: `#` and the name after it.
    case pound
    /// `@` and the attribute's name after it.
    case attribute
    /// A string literal, whole (interpolations and raw delimiters included).
    case string
    /// A number literal.
    case number
    /// One of `{ } ( ) [ ] , : ; .` or a run of operator characters (`->`, `?`, `=`, `<`, …).
    case punctuation
  }

  /// What the token is.
  var kind: Kind
  /// The token's text as written.
  var text: String
  /// The 1-based line the token starts on.
  var line: Int
  /// A line break (or the file's start) comes between the previous token and this one.
  var startsLine: Bool
  /// Whitespace or a comment comes between the previous token and this one.
  var followsSpace: Bool

  /// The name without backticks: `` `default` `` is `default`.
  var name: String {
    guard text.count >= 2, text.first == "`", text.last == "`" else { return text }
    return String(text.dropFirst().dropLast())
  }

  /// The token is this punctuation or keyword.
  func `is`(_ text: String) -> Bool {
    (kind == .punctuation || kind == .identifier) && self.text == text
  }
}

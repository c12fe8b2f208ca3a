/// One line of the message area, and whether it reports a failure.
struct TUIMessageLine: Sendable, Equatable {
  /// The text (made inert when drawn).
  var text: String
  /// Whether it came from standard error: an error or a warning.
  var isError: Bool
}

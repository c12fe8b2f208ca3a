import RewindReplayService

/// A command line that does not fit a command's usage.
///
/// Each case carries the facts: option names are spelled as the user typed them (`--jsn`,
/// `-x`), values as given. ``message`` phrases them the way swift-argument-parser does;
/// ``ProgramSpec/render(_:style:)`` adds the usage line and where to find help:
///
///     Error: Unknown option '--jsn'. Did you mean '--json'?
///     Usage: replay info LOG [--json] [--recovery MODE]
///       See 'replay info --help'.
package enum UsageError: Error, Sendable, Equatable {
  /// An option the command does not have, and the closest one it has (spelled with dashes).
  case unknownOption(String, suggestion: String?)
  /// An option that needs a value was last, or followed by another option.
  case missingValue(option: String)
  /// A value that does not fit the option, what would fit, and the closest valid value.
  case invalidValue(option: String, value: String, expected: String, suggestion: String? = nil)
  /// A flag given a value with `=`, as in `--json=yes`.
  case unexpectedValue(option: String, value: String)
  /// An option that takes one value was given twice.
  case duplicateOption(String)
  /// A positional argument beyond those the command takes.
  case unexpectedArgument(String)
  /// A required positional argument, by its name in the usage line, that was not given.
  case missingArgument(String)
  /// A command name that does not exist, and the closest one that does.
  case unknownCommand(String, suggestion: String?)

  /// The one-line description, without the `Error: ` prefix.
  ///
  /// Text the user typed is made ``inert(_:keepingNewlines:)`` and cut to 60 columns, so an
  /// argument holding escape sequences or a megabyte of text cannot flood the terminal.
  package var message: String {
    switch self {
    case .unknownOption(let option, let suggestion):
      return "Unknown option \(quoted(option))." + didYouMean(suggestion)
    case .missingValue(let option):
      return "Missing value for option \(quoted(option))."
    case .invalidValue(let option, let value, let expected, let suggestion):
      return "Invalid value \(quoted(value)) for \(quoted(option)): expected \(expected)."
        + didYouMean(suggestion)
    case .unexpectedValue(let option, let value):
      return "Option \(quoted(option)) takes no value, but was given \(quoted(value))."
    case .duplicateOption(let option):
      return "Option \(quoted(option)) was given more than once."
    case .unexpectedArgument(let argument):
      return "Unexpected argument \(quoted(argument))."
    case .missingArgument(let name):
      return "Missing expected argument \(quoted(name))."
    case .unknownCommand(let name, let suggestion):
      return "Unknown command \(quoted(name))." + didYouMean(suggestion)
    }
  }
}

private func quoted(_ text: String) -> String {
  "'" + truncate(inert(text), toWidth: 60) + "'"
}

private func didYouMean(_ suggestion: String?) -> String {
  suggestion.map { " Did you mean \(quoted($0))?" } ?? ""
}

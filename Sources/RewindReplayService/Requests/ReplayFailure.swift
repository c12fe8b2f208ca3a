import RewindJSON
import RewindReplay

/// Why a request failed: the debugger's typed error, or a request that does not say what it
/// wants (``usage(_:)``). Its ``message`` is the one text of it; a front end adds only what it
/// knows of its own (the apps a binary registers, for ``DebuggerError/noReducer``).
package enum ReplayFailure: Error, Sendable {
  /// The debugger could not do it.
  case debugger(DebuggerError)
  /// The request was typed wrongly: the message says how it is written.
  case usage(String)
  /// No command has this name or alias; the closest name, if one is close.
  case unknownCommand(String, suggestion: String?)

  /// One line on what went wrong and, where there is one, how to fix it.
  package var message: String {
    switch self {
    case .debugger(let error): return error.message
    case .usage(let text): return text
    case .unknownCommand(let word, let suggestion):
      return "unknown command '\(word)'."
        + (suggestion.map { " Did you mean '\($0)'?" } ?? "") + " Type 'help' for the list."
    }
  }

  /// `{"error": MESSAGE}`: the failure's JSON form.
  package var jsonValue: JSONValue {
    .object([JSONMember("error", .string(message))])
  }
}

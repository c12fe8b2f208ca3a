import RewindJSON
import RewindReplay

/// The state at the cursor, or the value at a path in it (`print todos[0].title`). Answered
/// with a ``ValueResponse``.
package struct PrintRequest: ReplayRequest, Equatable {
  /// Where in the state; the empty path is the whole state.
  package var path: JSONPath

  /// The value at `path` in the state at the cursor.
  package init(_ path: JSONPath) { self.path = path }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ValueResponse {
    ValueResponse(
      value: try service.debug { () throws(DebuggerError) in try service.debugger.value(at: path) })
  }

  /// `print [PATH]`.
  static let command = ReplayCommand(
    name: "print", alias: "p", usage: "print [PATH]", summary: "show the state, or a part of it",
    details: "PATH examples: todos[2].title, filter, todos.count (length of an array or "
      + "object). Without PATH, prints the whole state.",
    arguments: .statePath
  ) { words, _ throws(ReplayFailure) in
    PrintRequest(try ReplayCommand.path(words))
  }
}

/// A value of the state.
package struct ValueResponse: ReplayResponse {
  /// The value.
  package var value: JSONValue
  /// The value itself.
  package var jsonValue: JSONValue { value }
}

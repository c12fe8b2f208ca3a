import RewindJSON
import RewindReplay

/// Moves to the next (or previous) action that matches a query: a type (`type=NAME`) or text in
/// its recorded JSON. Answered with a ``MotionResponse``.
package struct FindRequest: ReplayRequest, Equatable {
  /// What to look for.
  package var query: ActionQuery
  /// Which way.
  package var direction: TimelineSearch.Direction

  /// A search for `query`, `direction` from the cursor.
  package init(_ query: ActionQuery, _ direction: TimelineSearch.Direction) {
    self.query = query
    self.direction = direction
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> MotionResponse {
    service.response(
      to: try service.debug { () throws(DebuggerError) in
        try service.debugger.find(query, direction)
      })
  }

  /// `find [-b] TEXT|type=NAME`.
  static let command = ReplayCommand(
    name: "find", alias: "f", usage: "find [-b] TEXT|type=NAME",
    summary: "go to the next matching action",
    details: "Searches forward from the cursor (backward with -b) for an action whose type is "
      + "NAME (type=NAME) or whose recorded JSON contains TEXT."
  ) { words, _ throws(ReplayFailure) in
    var words = words
    var direction = TimelineSearch.Direction.forward
    if words.first == "-b" {
      direction = .backward
      words.removeFirst()
    }
    let text = words.joined(separator: " ")
    guard !text.isEmpty else { throw .usage("usage: find [-b] TEXT|type=NAME") }
    return FindRequest(ActionQuery(parsing: text), direction)
  }
}

import RewindJSON
import RewindReplay

/// Searches inside the state: at the cursor, every key or value that matches a text or
/// `NAME=VALUE`; or across time (`-n`, `-b`), the next or previous position where the state
/// starts or stops having a match (``Debugger/searchState(_:_:)``). Answered with a
/// ``SearchResponse``.
package struct SearchRequest: ReplayRequest, Equatable {
  /// What to look for.
  package var query: StateQuery
  /// Which way to move, or `nil` to search the state at the cursor.
  package var direction: TimelineSearch.Direction?

  /// A search for `query` at the cursor, or across time in `direction`.
  package init(_ query: StateQuery, _ direction: TimelineSearch.Direction? = nil) {
    self.query = query
    self.direction = direction
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> SearchResponse {
    guard let direction else {
      return .matches(
        query,
        try service.debug { () throws(DebuggerError) in
          try service.debugger.searchState(query)
        })
    }
    let moved = try service.debug { () throws(DebuggerError) in
      try service.debugger.searchState(query, direction)
    }
    return .moved(
      query, direction, service.response(to: moved.motion), isPresent: moved.isPresent)
  }

  /// `search [-n|-b] TEXT|NAME=VALUE`.
  static let command = ReplayCommand(
    name: "search", alias: "se", usage: "search [-n|-b] TEXT|NAME=VALUE",
    summary: "find a text or a value inside the state, here or across time",
    details: "Without -n or -b: every key or value of the state at the cursor that contains "
      + "TEXT (ASCII case ignored), or every member NAME whose value is VALUE (JSON: 42, "
      + "\"Buy milk\", true). With -n (-b): moves forward (backward) to where the state starts or "
      + "stops having a match."
  ) { words, _ throws(ReplayFailure) in
    var words = words
    var direction: TimelineSearch.Direction?
    if let first = words.first, first == "-n" || first == "-b" {
      direction = first == "-b" ? .backward : .forward
      words.removeFirst()
    }
    let text = words.joined(separator: " ")
    guard !text.isEmpty else { throw .usage("usage: search [-n|-b] TEXT|NAME=VALUE") }
    return SearchRequest(StateQuery(parsing: text), direction)
  }
}

/// What a state search found: the matches at the cursor, or where a search across time moved.
package enum SearchResponse: ReplayResponse {
  /// The matches in the state at the cursor.
  case matches(StateQuery, Debugger.StateSearchResult)
  /// The cursor moved to where having a match changed; `isPresent`: the state there has one.
  case moved(StateQuery, TimelineSearch.Direction, MotionResponse, isPresent: Bool)

  /// `{"position", "query", "matches": [{"path", "value"}], "truncated"}` at the cursor; a move's
  /// ``MotionResponse`` form with `"query"` and `"present"` across time.
  package var jsonValue: JSONValue {
    switch self {
    case .matches(let query, let result):
      return .object([
        JSONMember("position", .number(String(result.position))),
        JSONMember("query", .string(query.description)),
        JSONMember(
          "matches",
          .array(
            result.matches.map {
              .object([
                JSONMember("path", .string($0.path.sessionText)), JSONMember("value", $0.value),
              ])
            })),
        JSONMember("truncated", .bool(result.isTruncated)),
      ])
    case .moved(let query, _, let motion, let isPresent):
      guard case .object(var members) = motion.jsonValue else { return motion.jsonValue }
      members.append(JSONMember("query", .string(query.description)))
      members.append(JSONMember("present", .bool(isPresent)))
      return .object(members)
    }
  }

  package var crash: CrashReport? {
    if case .moved(_, _, let motion, _) = self { return motion.crash }
    return nil
  }
}

import RewindJSON
import RewindReplay

/// Sets a watchpoint: `continue` stops where the value at the path changes. Answered with a
/// ``WatchResponse``.
package struct WatchRequest: ReplayRequest, Equatable {
  /// The watched path.
  package var path: JSONPath

  /// A watchpoint on `path`.
  package init(_ path: JSONPath) { self.path = path }

  package func run(on service: ReplayService) throws(ReplayFailure) -> WatchResponse {
    let (id, value) = try service.debug { () throws(DebuggerError) in
      try service.debugger.watch(path)
    }
    return WatchResponse(id: id, path: path, value: value)
  }

  /// `watch PATH`.
  static let command = ReplayCommand(
    name: "watch", alias: "w", usage: "watch PATH",
    summary: "stop where the value at PATH changes",
    details: "A watchpoint: 'continue' runs forward to the next action that changes the value "
      + "at PATH, 'reverse-continue' backward to the action that last changed it.",
    repeats: false, arguments: .statePath
  ) { words, service throws(ReplayFailure) in
    guard !words.isEmpty else {
      throw .usage("usage: watch PATH (for example: watch todos.count)")
    }
    // Said before a path error: without the app's reducer no watchpoint can be set at all.
    _ = try service.debug { () throws(DebuggerError) in try service.debugger.requireTimeline() }
    let text = words.joined(separator: " ")
    if Breakpoint.isCondition(text) {
      // `watch todos.count > 3` read as one path would be a key named `count > 3`.
      throw .usage(
        "watch takes a path and stops where its value changes; to stop where a condition "
          + "becomes true: break if \(text)")
    }
    return WatchRequest(try ReplayCommand.path(words))
  }
}

/// A watchpoint set.
package struct WatchResponse: ReplayResponse {
  /// Its id (for `delete`).
  package var id: Int
  /// The watched path.
  package var path: JSONPath
  /// The value at the cursor, or why there is none there.
  package var value: Result<JSONValue, StatePathError>

  /// `{"id": 1, "watch": "todos.count", "value": 3}` (no `value` when the path leads nowhere at
  /// the cursor).
  package var jsonValue: JSONValue {
    var members = [
      JSONMember("id", .number(String(id))), JSONMember("watch", .string(path.sessionText)),
    ]
    if case .success(let current) = value { members.append(JSONMember("value", current)) }
    return .object(members)
  }
}

import RewindJSON
import RewindReplay

/// Every action that changed the value at a path, or anything under it, oldest first: `history
/// PATH` in a session, `replay history LOG PATH`. One pass over the timeline, in the worker when
/// isolated (``Debugger/history(of:from:through:limit:)``). Answered with a ``HistoryResponse``.
package struct HistoryRequest: ReplayRequest, Equatable {
  /// The value's path (`todos[id=42].title` follows that todo wherever it moves).
  package var path: JSONPath
  /// The first position looked at (`nil`: the first).
  package var from: Int?
  /// The last position looked at (`nil`: the last).
  package var to: Int?
  /// At most this many changes (`nil`: all).
  package var limit: Int?

  /// The history of `path` over `from`…`to`, at most `limit` changes.
  package init(_ path: JSONPath, from: Int? = nil, to: Int? = nil, limit: Int? = nil) {
    self.path = path
    self.from = from
    self.to = to
    self.limit = limit
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> HistoryResponse {
    if let from, let to, from > to {
      throw .usage("--from \(from) is after --to \(to): give the earlier position first")
    }
    let result = try service.debug { () throws(DebuggerError) in
      try service.debugger.history(of: path, from: from, through: to, limit: limit)
    }
    return HistoryResponse(service, path: path, result: result, isBlame: false)
  }

  /// `history PATH [--from N] [--to M] [--limit K]`.
  static let command = ReplayCommand(
    name: "history", alias: "hi", usage: "history PATH [--from N] [--to M] [--limit K]",
    summary: "every action that changed the value at PATH",
    details: "Lists, oldest first, every action that changed the value at PATH or anything "
      + "under it, each with the value before and after it; one pass over the log. "
      + "todos[id=42].title follows the todo whose id is 42 wherever it moves. As 'replay "
      + "history LOG PATH'.", arguments: .statePath
  ) { words, service throws(ReplayFailure) in
    let usage = "usage: history PATH [--from N] [--to M] [--limit K]"
    // The path is every word before the first option (a quoted value may hold spaces).
    let pathWords = words.prefix { !$0.hasPrefix("--") }
    guard !pathWords.isEmpty else { throw .usage(usage) }
    var request = HistoryRequest(try ReplayCommand.path(Array(pathWords)))
    var rest = words.dropFirst(pathWords.count)
    while let option = rest.popFirst() {
      guard let value = rest.popFirst() else { throw .usage(usage) }
      switch option {
      case "--from": request.from = try ReplayCommand.position(value, in: service)
      case "--to": request.to = try ReplayCommand.position(value, in: service)
      case "--limit":
        guard let limit = Int(value), limit > 0 else {
          throw .usage("--limit takes a number of changes (1 or more), not '\(value)'")
        }
        request.limit = limit
      default: throw .usage(usage)
      }
    }
    return request
  }
}

/// The last action up to the cursor that set the value at a path, and the one before it:
/// `blame PATH`. Answered with a ``HistoryResponse`` of at most two changes.
package struct BlameRequest: ReplayRequest, Equatable {
  /// The value's path.
  package var path: JSONPath

  /// Who set the value at `path`, as the cursor sees it.
  package init(_ path: JSONPath) {
    self.path = path
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> HistoryResponse {
    let result = try service.debug { () throws(DebuggerError) in
      try service.debugger.blame(path)
    }
    return HistoryResponse(service, path: path, result: result, isBlame: true)
  }

  /// `blame PATH`.
  static let command = ReplayCommand(
    name: "blame", alias: "bl", usage: "blame PATH",
    summary: "the last action that set the value at PATH, and the one before",
    details: "Finds, up to the cursor, the last action that changed the value at PATH (or "
      + "anything under it) and the one before it, with the values before and after each.",
    arguments: .statePath
  ) { words, _ throws(ReplayFailure) in
    guard words.count == 1 else { throw .usage("usage: blame PATH") }
    return BlameRequest(try ReplayCommand.path(words))
  }
}

/// The changes of one value, each with the action that made it.
package struct HistoryResponse: ReplayResponse {
  /// The value's path.
  package var path: JSONPath
  /// The changes, and the positions looked at.
  package var history: ValueHistory
  /// The action that made each change, in the same order (`nil` where its line cannot be read).
  package var actions: [RecordedAction?]
  /// A crash of the app's reducer that ended the walk before the end asked for.
  package var crash: CrashReport?
  /// Whether this answers `blame` (the last changes up to the cursor).
  package var isBlame: Bool

  init(_ service: ReplayService, path: JSONPath, result: Debugger.HistoryResult, isBlame: Bool) {
    self.path = path
    history = result.history
    actions = result.history.changes.map { try? service.log.action(at: $0.seq) }
    crash = result.crash
    self.isBlame = isBlame
  }

  /// `{"path", "from", "through", "initial", "changes": [{"action", "before", "after",
  /// "patch"}], "truncated", "crash"}`. `before`, `after` and `initial` are left out where the
  /// path led nowhere; `patch` is RFC 6902, relative to the value at PATH; `action` has the one
  /// form of an action.
  package var jsonValue: JSONValue {
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    var members: [JSONMember] = [
      JSONMember("path", .string(history.path)), JSONMember("from", number(history.from)),
      JSONMember("through", number(history.through)),
    ]
    if let initial = history.initial { members.append(JSONMember("initial", initial)) }
    members.append(
      JSONMember(
        "changes",
        .array(
          zip(history.changes, actions).map { change, action in
            var fields = [
              JSONMember(
                "action",
                action?.jsonValue ?? .object([JSONMember("seq", number(change.seq))]))
            ]
            if let before = change.before { fields.append(JSONMember("before", before)) }
            if let after = change.after { fields.append(JSONMember("after", after)) }
            fields.append(JSONMember("patch", JSONPatch(changes: change.changes).jsonValue))
            return .object(fields)
          })))
    members.append(JSONMember("truncated", .bool(history.isTruncated)))
    members.append(JSONMember("crash", crash?.json ?? .null))
    return .object(members)
  }
}

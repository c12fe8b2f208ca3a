import RewindJSON
import RewindReplay

/// The action that led to the cursor's position, or action `seq`. Answered with an
/// ``ActionDetail``.
package struct ActionRequest: ReplayRequest, Equatable {
  /// The action asked for; `nil` for the cursor's.
  package var seq: Int?

  /// The action at the cursor, or action `seq`.
  package init(seq: Int? = nil) { self.seq = seq }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ActionDetail {
    try service.debug { () throws(DebuggerError) in
      if let seq { return try service.debugger.action(at: seq) }
      return try service.debugger.actionHere()
    }
  }

  /// `action [N]`.
  static let command = ReplayCommand(
    name: "action", alias: "a", usage: "action [N]", summary: "show the action that led here",
    details: "Shows the seq, time, type and payload of the action at the cursor, or of action "
      + "N; for a log recorded with origins, also where it was dispatched, the action that "
      + "caused it and the actions it caused."
  ) { words, service throws(ReplayFailure) in
    ActionRequest(seq: try ReplayCommand.optionalSeq(words, in: service))
  }
}

extension ActionDetail: ReplayResponse {}

/// Lists actions around the cursor. Answered with a ``ListResponse``.
package struct ListRequest: ReplayRequest, Equatable {
  /// How many actions.
  package var count: Int
  /// Whether each action is listed under the action that caused it (`--tree`).
  package var tree: Bool

  /// A listing of `count` actions around the cursor; with `tree`, in the order of their causes.
  package init(count: Int, tree: Bool = false) {
    self.count = count
    self.tree = tree
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ListResponse {
    try service.debug { () throws(DebuggerError) in
      let debugger = service.debugger
      var tree: ActionTree?
      let listing: ActionListing
      if self.tree {
        let ordered = try debugger.actionTree(around: count)
        tree = ordered
        listing = ordered.listing
      } else {
        listing = try debugger.actions(around: count)
      }
      return ListResponse(
        listing: listing, tree: tree,
        lastSeq: service.log.lastSeq, logHasActions: service.log.actionCount > 0)
    }
  }

  /// `list [N] [--tree]`.
  static let command = ReplayCommand(
    name: "list", alias: "l", usage: "list [N] [--tree]",
    summary: "list N actions around the cursor",
    details: "Lists N actions (default 10) around the cursor; '>' marks the cursor. With --tree, "
      + "each action is listed under the action whose handling dispatched it (a log recorded "
      + "with origins), so a chain of effects reads top to bottom."
  ) { words, _ throws(ReplayFailure) in
    let tree = words.contains("--tree")
    return ListRequest(
      count: try ReplayCommand.count(words.filter { $0 != "--tree" }, default: 10), tree: tree)
  }
}

/// Actions around the cursor.
package struct ListResponse: ReplayResponse {
  /// The actions, and the cursor among them.
  package var listing: ActionListing
  /// The same actions in the order of their causes, for `--tree`.
  package var tree: ActionTree?
  /// The log's last seq (the width of the seq column).
  package var lastSeq: Int
  /// Whether the log has any action.
  package var logHasActions: Bool
  /// ``ActionListing/jsonValue``, or ``ActionTree/jsonValue`` for `--tree`.
  package var jsonValue: JSONValue { tree?.jsonValue ?? listing.jsonValue }
}

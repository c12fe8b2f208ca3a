import RewindJSON
import RewindReplay

/// The action that led to the cursor's position. Answered with an ``ActionDetail``.
package struct ActionRequest: ReplayRequest, Equatable {
  /// The action at the cursor.
  package init() {}

  package func run(on service: ReplayService) throws(ReplayFailure) -> ActionDetail {
    try service.debug { () throws(DebuggerError) in try service.debugger.actionHere() }
  }

  /// `action`.
  static let command = ReplayCommand(
    name: "action", alias: "a", usage: "action", summary: "show the action that led here",
    details: "Shows the seq, time, type and payload of the action at the cursor."
  ) { _, _ throws(ReplayFailure) in ActionRequest() }
}

extension ActionDetail: ReplayResponse {}

/// Lists actions around the cursor. Answered with a ``ListResponse``.
package struct ListRequest: ReplayRequest, Equatable {
  /// How many actions.
  package var count: Int

  /// A listing of `count` actions around the cursor.
  package init(count: Int) { self.count = count }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ListResponse {
    ListResponse(
      listing: try service.debug { () throws(DebuggerError) in
        try service.debugger.actions(around: count)
      }, lastSeq: service.log.lastSeq, logHasActions: service.log.actionCount > 0)
  }

  /// `list [N]`.
  static let command = ReplayCommand(
    name: "list", alias: "l", usage: "list [N]", summary: "list N actions around the cursor",
    details: "Lists N actions (default 10) around the cursor; '>' marks the cursor."
  ) { words, _ throws(ReplayFailure) in
    ListRequest(count: try ReplayCommand.count(words, default: 10))
  }
}

/// Actions around the cursor.
package struct ListResponse: ReplayResponse {
  /// The actions, and the cursor among them.
  package var listing: ActionListing
  /// The log's last seq (the width of the seq column).
  package var lastSeq: Int
  /// Whether the log has any action.
  package var logHasActions: Bool
  /// ``ActionListing/jsonValue``.
  package var jsonValue: JSONValue { listing.jsonValue }
}

import RewindJSON
import RewindReplay

/// A page of the log's actions in a seq range, of one type or holding a text: what `replay
/// actions LOG` writes a page at a time, and the MCP server's `actions` tool lists. Answered with
/// an ``ActionsResponse``.
package struct ActionsRequest: ReplayRequest, Equatable {
  /// The most actions one page holds.
  package static let maxLimit = 1000
  /// The first seq looked at (the log's first when `nil`).
  package var from: Int?
  /// The last seq looked at (the log's last when `nil`).
  package var to: Int?
  /// Only actions this query matches (``ActionQuery``: a type, or text in the type or JSON).
  package var query: ActionQuery?
  /// How many matching actions at most.
  package var limit: Int

  /// The first `limit` actions of `from...to` that `query` matches.
  package init(from: Int? = nil, to: Int? = nil, query: ActionQuery? = nil, limit: Int = 100) {
    self.from = from
    self.to = to
    self.query = query
    self.limit = limit
  }

  package func run(on service: ReplayService) throws(ReplayFailure) -> ActionsResponse {
    guard (1...Self.maxLimit).contains(limit) else {
      throw .usage("the limit must be 1 to \(Self.maxLimit), not \(limit)")
    }
    let log = service.log
    var response = ActionsResponse(actions: [], nextFrom: nil, lastSeq: log.lastSeq)
    guard log.actionCount > 0 else { return response }
    let first = max(from ?? log.firstSeq, log.firstSeq)
    let last = min(to ?? log.lastSeq, log.lastSeq)
    guard first <= last else { return response }
    let skips = Set(service.skips)
    var seq = first
    while seq <= last {
      if response.actions.count == limit {
        response.nextFrom = seq
        break
      }
      let action: RecordedAction
      do { action = try log.action(at: seq) } catch { throw .debugger(.replay(error)) }
      if query?.matches(action, in: log) ?? true {
        response.actions.append(ActionDetail(action: action, isSkipped: skips.contains(seq)))
      }
      seq += 1
    }
    return response
  }
}

/// A page of actions.
package struct ActionsResponse: ReplayResponse {
  /// The actions, in seq order.
  package var actions: [ActionDetail]
  /// Where the next page starts, when the range goes on past this one.
  package var nextFrom: Int?
  /// The log's last seq.
  package var lastSeq: Int

  /// `{"actions": [...], "lastSeq": N, "nextFrom": M}` (`nextFrom` only when there is more),
  /// each action as ``ActionDetail/jsonValue``.
  package var jsonValue: JSONValue {
    var members = [
      JSONMember("actions", .array(actions.map(\.jsonValue))),
      JSONMember("lastSeq", .number(String(lastSeq))),
    ]
    if let nextFrom { members.append(JSONMember("nextFrom", .number(String(nextFrom)))) }
    return .object(members)
  }
}

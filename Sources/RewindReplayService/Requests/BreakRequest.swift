import RewindJSON
import RewindReplay

/// Sets a breakpoint: at every action of a type, or where a condition on the state becomes
/// true. Answered with a ``BreakResponse``.
package struct BreakRequest: ReplayRequest, Equatable {
  /// The breakpoint.
  package var breakpoint: Breakpoint

  /// A request to set `breakpoint`.
  package init(_ breakpoint: Breakpoint) { self.breakpoint = breakpoint }

  package func run(on service: ReplayService) throws(ReplayFailure) -> BreakResponse {
    let debugger = service.debugger
    let id = try service.debug { () throws(DebuggerError) in
      try debugger.addBreakpoint(breakpoint)
    }
    var unknownType: BreakResponse.UnknownType?
    if case .actionType(let name) = breakpoint {
      let known = debugger.knownActionTypes()
      if !known.contains(name) {
        unknownType = BreakResponse.UnknownType(
          name: name, suggestion: closestMatch(to: name, in: known.sorted()))
      }
    }
    var mismatch: String?
    if case .condition(let path, let comparison, let expected) = breakpoint,
      let actual = try? debugger.value(at: path)
    {
      mismatch = comparison.mismatch(actual, expected, at: path.sessionText)
    }
    return BreakResponse(
      id: id, breakpoint: breakpoint, unknownType: unknownType, mismatch: mismatch)
  }

  /// `break type=NAME|if COND`.
  static let command = ReplayCommand(
    name: "break", alias: "br", usage: "break type=NAME|if COND",
    summary: "stop at a type, or where COND becomes true",
    details:
      "COND is PATH OP VALUE; OP is one of == != < <= > >= contains. VALUE is JSON: 3, "
      + "\"Buy milk\", true, null (a string is quoted). A condition stops where it holds after "
      + "an action and did not before.",
    repeats: false, arguments: .breakpoint
  ) { words, _ throws(ReplayFailure) in
    do throws(BreakpointParseError) {
      return BreakRequest(try Breakpoint.parseBreak(words.joined(separator: " ")))
    } catch {
      throw .usage(error.description)
    }
  }
}

/// A breakpoint set.
package struct BreakResponse: ReplayResponse {
  /// A type no action of the log (in a sample) has.
  package struct UnknownType: Sendable {
    /// The type asked for.
    package var name: String
    /// A close type of the log, if one is close.
    package var suggestion: String?
  }

  /// Its id (for `delete`).
  package var id: Int
  /// The breakpoint.
  package var breakpoint: Breakpoint
  /// Set when the breakpoint's action type is not in the log: it may never stop.
  package var unknownType: UnknownType?
  /// Set when the condition's value is of another kind than the value at its path at the
  /// cursor (a number compared with a string): why it cannot hold, and what was likely meant.
  package var mismatch: String? = nil

  /// ``Breakpoint/jsonValue(id:)``.
  package var jsonValue: JSONValue { breakpoint.jsonValue(id: id) }
}

/// Lists the watchpoints and breakpoints. Answered with a ``BreakpointsResponse``.
package struct BreakpointsRequest: ReplayRequest, Equatable {
  /// The listing.
  package init() {}

  package func run(on service: ReplayService) throws(ReplayFailure) -> BreakpointsResponse {
    BreakpointsResponse(breakpoints: service.debugger.breakpoints)
  }

  /// `watches`.
  static let command = ReplayCommand(
    name: "watches", alias: "ws", usage: "watches", summary: "list watchpoints and breakpoints",
    details: "Shows each with its id, for 'delete ID'."
  ) { _, _ throws(ReplayFailure) in BreakpointsRequest() }
}

/// The watchpoints and breakpoints, in the order set.
package struct BreakpointsResponse: ReplayResponse {
  /// Each with its id.
  package var breakpoints: [(id: Int, breakpoint: Breakpoint)]
  /// `{"breakpoints": [...]}`, each as ``Breakpoint/jsonValue(id:)``.
  package var jsonValue: JSONValue {
    .object([JSONMember("breakpoints", .array(breakpoints.map { $1.jsonValue(id: $0) }))])
  }
}

/// Deletes a watchpoint or breakpoint, or all of them. Answered with a ``DeleteResponse``.
package struct DeleteRequest: ReplayRequest, Equatable {
  /// The one with this id; all when `nil`.
  package var id: Int?

  /// Deletes the watchpoint or breakpoint `id`, or all when `nil`.
  package init(id: Int?) { self.id = id }

  package func run(on service: ReplayService) throws(ReplayFailure) -> DeleteResponse {
    let debugger = service.debugger
    guard let id else {
      let ids = debugger.breakpoints.map(\.id)
      _ = debugger.deleteAllBreakpoints()
      return DeleteResponse(ids: ids, all: true)
    }
    try service.debug { () throws(DebuggerError) in try debugger.deleteBreakpoint(id) }
    return DeleteResponse(ids: [id], all: false)
  }

  /// `delete ID|all`.
  static let command = ReplayCommand(
    name: "delete", alias: "del", usage: "delete ID|all", summary: "remove a watch or break",
    details: "Removes the watchpoint or breakpoint with that id, or all of them.",
    repeats: false
  ) { words, service throws(ReplayFailure) in
    guard words.count == 1 else { throw .usage("usage: delete ID|all") }
    if words[0] == "all" { return DeleteRequest(id: nil) }
    guard let id = Int(words[0]) else {
      throw .debugger(.noSuchBreakpoint(words[0], ids: service.debugger.breakpoints.map(\.id)))
    }
    return DeleteRequest(id: id)
  }
}

/// What `delete` removed.
package struct DeleteResponse: ReplayResponse {
  /// The ids deleted.
  package var ids: [Int]
  /// Whether all were asked for.
  package var all: Bool
  /// `{"deleted": [ids]}`.
  package var jsonValue: JSONValue {
    .object([JSONMember("deleted", .array(ids.map { .number(String($0)) }))])
  }
}

import RewindJSON
import RewindReplay
import RewindReplayService

extension DAPSession {
  /// `setFunctionBreakpoints`: each name is an action type (`addTodo`: stop at every such
  /// action), or a condition written `if PATH OP VALUE` (stop where it becomes true). Replaces
  /// the previous function breakpoints.
  func setFunctionBreakpoints(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let specs = request.arguments["breakpoints"]?.arrayValue ?? []
    try deleteBreakpoints(of: .function, service: service, request)
    let results = specs.map { spec -> JSONValue in
      let name = (spec["name"]?.stringValue ?? "").trimmingSpaces()
      if let condition = spec["condition"]?.stringValue, !condition.isEmpty {
        return unverified(
          "a function breakpoint is an action type and stops at each such action: a condition "
            + "on it is not supported; add a breakpoint named 'if \(condition)' instead")
      }
      guard !name.isEmpty else {
        return unverified("an empty name: name an action type (addTodo) or 'if PATH OP VALUE'")
      }
      let breakpoint: Breakpoint
      if name.hasPrefix("if ") {
        do throws(BreakpointParseError) { breakpoint = try Breakpoint.parseBreak(name) } catch {
          return unverified(error.description)
        }
      } else {
        breakpoint = .actionType(name)
      }
      return set(breakpoint, as: .function, service: service, line: nil)
    }
    return .object([JSONMember("breakpoints", .array(results))])
  }

  /// `setBreakpoints`: a line is no place in a timeline, so only a breakpoint with a
  /// `condition` (`todos.count > 3`, the session's `break if`) is set: it stops where the
  /// condition becomes true, wherever that is. Replaces the previous ones of the source.
  func setBreakpoints(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let source =
      request.arguments["source"]?["path"]?.stringValue
      ?? request.arguments["source"]?["name"]?.stringValue ?? ""
    let specs = request.arguments["breakpoints"]?.arrayValue ?? []
    try deleteBreakpoints(of: .source(source), service: service, request)
    let results = specs.map { spec -> JSONValue in
      let line = spec["line"]?.intValue
      guard let condition = spec["condition"]?.stringValue, !condition.isEmpty else {
        return unverified(
          "a line is not a place a log stops at: give the breakpoint a condition (todos.count "
            + "> 3), or use a function breakpoint (an action type) or a data breakpoint (a "
            + "state value)", line: line)
      }
      do throws(BreakpointParseError) {
        let breakpoint = try Breakpoint.parseBreak("if " + condition)
        return set(breakpoint, as: .source(source), service: service, line: line)
      } catch {
        return unverified(error.description, line: line)
      }
    }
    return .object([JSONMember("breakpoints", .array(results))])
  }

  /// `dataBreakpointInfo`: a value of the State scope (or a state path given as the name,
  /// without a reference) can be watched; its data id is its path.
  func dataBreakpointInfo(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    _ = try service(request)
    let name = request.string("name") ?? ""
    let path: JSONPath
    if let reference = request.integer("variablesReference") {
      guard case .state(_, let parent) = references.container(reference) else {
        return dataInfo(
          nil, "only the values of the State scope can be watched ('\(name)' is not one)")
      }
      path = parent.appending(Self.component(name))
    } else {
      do throws(StatePathError) { path = try JSONPath.parse(name) } catch {
        return dataInfo(nil, "'\(name)' is not a state path: \(error.messageWithSuggestion)")
      }
    }
    return dataInfo(path.sessionText, "when \(path.sessionText) changes")
  }

  /// `setDataBreakpoints`: a watchpoint on each data id's path (stops where its value
  /// changes). Replaces the previous data breakpoints.
  func setDataBreakpoints(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let specs = request.arguments["breakpoints"]?.arrayValue ?? []
    try deleteBreakpoints(of: .data, service: service, request)
    let results = specs.map { spec -> JSONValue in
      let dataID = spec["dataId"]?.stringValue ?? ""
      let path: JSONPath
      do throws(StatePathError) { path = try JSONPath.parse(dataID) } catch {
        return unverified("'\(dataID)' is not a state path: \(error.messageWithSuggestion)")
      }
      return set(.watch(path), as: .data, service: service, line: nil)
    }
    return .object([JSONMember("breakpoints", .array(results))])
  }

  /// The path component a variable's `name` stands for: `[3]` an index, anything else a key.
  static func component(_ name: String) -> JSONPath.Component {
    if name.hasPrefix("["), name.hasSuffix("]"), let index = Int(name.dropFirst().dropLast()) {
      return .index(index)
    }
    return .key(name)
  }

  /// Deletes the debugger's breakpoints of `kind`.
  private func deleteBreakpoints(
    of kind: DAPBreakpointSet.Kind, service: ReplayService, _ request: DAPRequest
  ) throws(DAPError) {
    for id in breakpoints.removeAll(of: kind) {
      // One deleted in the debug console meanwhile is gone already.
      _ = try? service.perform(DeleteRequest(id: id))
    }
  }

  /// Sets `breakpoint` and answers with its `Breakpoint` (its id the debugger's).
  private func set(
    _ breakpoint: Breakpoint, as kind: DAPBreakpointSet.Kind, service: ReplayService, line: Int?
  ) -> JSONValue {
    let id: Int
    var message: String?
    do throws(ReplayFailure) {
      switch breakpoint {
      case .watch(let path):
        let response = try service.perform(WatchRequest(path))
        id = response.id
        if case .failure(let error) = response.value {
          message = "no value there at the cursor yet (\(error.messageWithSuggestion))"
        }
      default:
        let response = try service.perform(BreakRequest(breakpoint))
        id = response.id
        if let unknown = response.unknownType {
          message =
            "no action of the log is a '\(unknown.name)'"
            + (unknown.suggestion.map { "; did you mean '\($0)'?" } ?? "")
        }
      }
    } catch {
      return unverified(error.message, line: line)
    }
    breakpoints.record(id, as: kind)
    var members = [JSONMember("id", .integer(id)), JSONMember("verified", .bool(true))]
    if let message { members.append(JSONMember("message", .string(message))) }
    if let line { members.append(JSONMember("line", .integer(line))) }
    return .object(members)
  }

  /// A breakpoint that was not set, and why.
  private func unverified(_ message: String, line: Int? = nil) -> JSONValue {
    var members = [JSONMember("verified", .bool(false)), JSONMember("message", .string(message))]
    if let line { members.append(JSONMember("line", .integer(line))) }
    return .object(members)
  }

  /// A `dataBreakpointInfo` body.
  private func dataInfo(_ dataID: String?, _ description: String) -> JSONValue {
    var members = [
      JSONMember("dataId", dataID.map(JSONValue.string) ?? .null),
      JSONMember("description", .string(description)),
    ]
    if dataID != nil {
      members += [
        JSONMember("accessTypes", .array([.string("write")])),
        JSONMember("canPersist", .bool(true)),
      ]
    }
    return .object(members)
  }
}

extension JSONValue {
  /// The elements when this is an array, else `nil`.
  var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}

extension String {
  /// The text without spaces at either end.
  func trimmingSpaces() -> String {
    var text = Substring(self)
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}

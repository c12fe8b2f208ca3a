import RewindJSON
import RewindReplay
import RewindReplayService

extension DAPSession {
  /// The most variables one `variables` response holds (``ChildrenRequest/maxLimit``).
  static var maxPage: Int { ChildrenRequest.maxLimit }

  /// `scopes` of a frame (the position it stands for): "State", the state after the frame's
  /// action, read a level at a time; "Action", the action; "Diff", what it changed (none of
  /// the last two at the initial state).
  func scopes(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let position = try framePosition(request, service: service)
    var scopes = [
      scope(
        "State", .state(position: position, path: .root), hint: "locals", expensive: false)
    ]
    // A frame of the crash's report: the state the reducer was given, and the action it
    // crashed on.
    if try request.requiredInteger("frameId") >= Self.crashFrameBase {
      if let seq = lastCrash?.seq, let detail = try? service.perform(ActionRequest(seq: seq)) {
        scopes.append(
          scope("Action", .value(detail.jsonValue), hint: "arguments", expensive: false))
      }
      return .object([JSONMember("scopes", .array(scopes))])
    }
    if position > service.log.positions.lowerBound,
      let detail = try? service.perform(ActionRequest(seq: position))
    {
      scopes.append(
        scope("Action", .value(detail.jsonValue), hint: "arguments", expensive: false))
      scopes.append(scope("Diff", .diff(position: position), hint: nil, expensive: true))
    }
    return .object([JSONMember("scopes", .array(scopes))])
  }

  /// The position of the request's `frameId` (a frame's id is its position + 1).
  /// - Throws: ``DAPError`` when it names no position of the log.
  func framePosition(_ request: DAPRequest, service: ReplayService) throws(DAPError) -> Int {
    let id = try request.requiredInteger("frameId")
    if id >= Self.crashFrameBase, let crash = crashAtCursor(service),
      id - Self.crashFrameBase < crash.frames.count
    {
      return service.position
    }
    let position = id - 1
    guard service.log.positions.contains(position) else {
      throw DAPError(
        .badArguments,
        "no frame \(position + 1): frames are positions + 1, from "
          + "\(service.log.positions.lowerBound + 1) to \(service.log.positions.upperBound + 1)",
        request: request)
    }
    return position
  }

  /// A scope named `name` of `container`.
  private func scope(
    _ name: String, _ container: DAPVariableTable.Container, hint: String?, expensive: Bool
  ) -> JSONValue {
    var members = [
      JSONMember("name", .string(name)),
      JSONMember("variablesReference", .integer(references.reference(to: container))),
      JSONMember("expensive", .bool(expensive)),
    ]
    if let hint { members.append(JSONMember("presentationHint", .string(hint))) }
    return .object(members)
  }

  /// `variables`: the children of a container, a page at a time (`start`, `count`; `filter`
  /// `"indexed"` or `"named"`). A state's containers are read through ``ChildrenRequest``:
  /// never built whole. A page without `count` holds at most ``maxPage`` children, and says
  /// how to see the rest in a last variable.
  func variables(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let reference = try request.requiredInteger("variablesReference")
    guard let container = references.container(reference) else {
      throw DAPError(
        .badArguments,
        "no variables \(reference): references last until the next stop; ask "
          + "for the scopes of the current stop again", request: request)
    }
    let start = max(0, request.integer("start") ?? 0)
    let count = min(max(1, request.integer("count") ?? Self.maxPage), Self.maxPage)
    let filter = request.string("filter")
    let list: [JSONValue]
    switch container {
    case .state(let position, let path):
      list = try stateVariables(
        position: position, path: path, start: start, count: count, filter: filter,
        service: service, request)
    case .value(let value):
      list = valueVariables(value, start: start, count: count, filter: filter)
    case .diff(let position):
      list = try diffVariables(position: position, service: service, request)
    }
    return .object([JSONMember("variables", .array(list))])
  }

  /// The children `start..<start + count` of the value at `path` in the state at `position`.
  private func stateVariables(
    position: Int, path: JSONPath, start: Int, count: Int, filter: String?,
    service: ReplayService, _ request: DAPRequest
  ) throws(DAPError) -> [JSONValue] {
    let response: ChildrenResponse
    do throws(ReplayFailure) {
      response = try service.perform(
        ChildrenRequest(path, at: position, offset: start, limit: count))
    } catch {
      throw DAPError(.replayFailure, error.message, request: request)
    }
    let isArray = response.facts.kind == "array"
    // An array has no named children, an object no indexed ones.
    if filter == "named" && isArray || filter == "indexed" && !isArray { return [] }
    var list = response.children.map { child in
      variable(
        child.name, value: child.facts.value.map(scalarText) ?? child.facts.preview,
        type: child.facts.kind, evaluateName: child.path.sessionText,
        container: child.facts.count.map { _ in .state(position: position, path: child.path) },
        count: child.facts.count, isArray: child.facts.kind == "array")
    }
    if let next = response.nextOffset, request.integer("count") == nil {
      let total = response.facts.count ?? next
      list.append(
        variable(
          "…",
          value: "\(total - next) more: evaluate 'members \(path.sessionText) --at "
            + "\(position) --offset \(next)' in the debug console", type: nil,
          evaluateName: nil, container: nil, count: nil, isArray: false))
    }
    return list
  }

  /// The members or elements `start..<start + count` of a value held whole.
  private func valueVariables(_ value: JSONValue, start: Int, count: Int, filter: String?)
    -> [JSONValue]
  {
    let entries: [(String, JSONValue)]
    switch value {
    case .object(let members):
      if filter == "indexed" { return [] }
      entries = members.map { ($0.key, $0.value) }
    case .array(let elements):
      if filter == "named" { return [] }
      entries = elements.enumerated().map { ("[\($0.offset)]", $0.element) }
    default:
      return []
    }
    guard start < entries.count else { return [] }
    return entries[start..<min(entries.count, start + count)].map { name, value in
      valueVariable(name, value)
    }
  }

  /// A variable of a value held whole.
  private func valueVariable(_ name: String, _ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members):
      return variable(
        name, value: "{…} \(members.count) member\(members.count == 1 ? "" : "s")",
        type: "object", evaluateName: nil,
        container: members.isEmpty ? nil : .value(value), count: members.count, isArray: false)
    case .array(let elements):
      return variable(
        name, value: "[…] \(elements.count) element\(elements.count == 1 ? "" : "s")",
        type: "array", evaluateName: nil,
        container: elements.isEmpty ? nil : .value(value), count: elements.count, isArray: true)
    default:
      return variable(
        name, value: scalarText(value), type: value.kindName, evaluateName: nil, container: nil,
        count: nil, isArray: false)
    }
  }

  /// The changes the action at `position` made, one variable each: named by the changed
  /// path, valued by the operation and the new value.
  private func diffVariables(position: Int, service: ReplayService, _ request: DAPRequest)
    throws(DAPError) -> [JSONValue]
  {
    let diff: StateDiff
    do throws(DebuggerError) {
      diff = try service.diff(from: position - 1, to: position)
    } catch {
      throw DAPError(.replayFailure, error.message, request: request)
    }
    guard case .array(let operations) = diff.jsonValue else { return [] }
    if operations.isEmpty {
      return [valueVariable("(no change)", .string("the action left the state as it was"))]
    }
    return operations.prefix(Self.maxPage).map { operation in
      let path = operation["path"]?.stringValue ?? ""
      let op = operation["op"]?.stringValue ?? "change"
      guard let value = operation["value"] else {
        return variable(
          path.isEmpty ? "(root)" : path, value: op, type: nil, evaluateName: nil,
          container: nil, count: nil, isArray: false)
      }
      var described = valueVariable(path.isEmpty ? "(root)" : path, value)
      if case .object(var members) = described,
        let index = members.firstIndex(where: { $0.key == "value" }),
        let text = members[index].value.stringValue
      {
        members[index].value = .string("\(op): \(text)")
        described = .object(members)
      }
      return described
    }
  }

  /// A `Variable`: expandable when it has a `container`, with its count of indexed (array) or
  /// named (object) children so that a client pages a large one.
  func variable(
    _ name: String, value: String, type: String?, evaluateName: String?,
    container: DAPVariableTable.Container?, count: Int?, isArray: Bool
  ) -> JSONValue {
    var members = [
      JSONMember("name", .string(name)),
      JSONMember("value", .string(value)),
    ]
    if let type { members.append(JSONMember("type", .string(type))) }
    if let evaluateName { members.append(JSONMember("evaluateName", .string(evaluateName))) }
    let reference = container.map { references.reference(to: $0) } ?? 0
    members.append(JSONMember("variablesReference", .integer(reference)))
    if reference != 0, let count {
      members.append(JSONMember(isArray ? "indexedVariables" : "namedVariables", .integer(count)))
    }
    return .object(members)
  }

  /// A scalar's text: its compact JSON (a string quoted), cut at 200 characters.
  func scalarText(_ value: JSONValue) -> String {
    let text = value.jsonText
    return text.count > 200 ? String(text.prefix(199)) + "…" : text
  }
}

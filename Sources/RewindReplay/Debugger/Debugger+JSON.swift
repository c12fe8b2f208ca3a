import RewindJSON

// The one JSON form of each debugger result: what every front end's `--json` prints (the
// session's commands and `replay actions --json` alike), and what a protocol front end sends.

extension RecordedAction {
  /// The action as one object: `seq`, `time` (seconds, to the microsecond), `type`, `action`
  /// (the payload), `skipped` (the recorder's reason) or `missing`, `sanitized`, `migrated`, and
  /// `line`; members that do not apply are left out.
  public var jsonValue: JSONValue {
    var members = [JSONMember("seq", .number(String(seq)))]
    if let time { members.append(JSONMember("time", Self.seconds(time))) }
    if let type { members.append(JSONMember("type", .string(type))) }
    if let payload { members.append(JSONMember("action", payload)) }
    switch status {
    case .recorded: break
    case .skipped(let reason): members.append(JSONMember("skipped", .string(reason)))
    case .missing: members.append(JSONMember("missing", .bool(true)))
    }
    if isSanitized { members.append(JSONMember("sanitized", .bool(true))) }
    if isMigrated { members.append(JSONMember("migrated", .bool(true))) }
    if let site { members.append(JSONMember("site", .string(site))) }
    if let cause { members.append(JSONMember("cause", .number(String(cause)))) }
    if let via { members.append(JSONMember("via", .string(via))) }
    members.append(JSONMember("line", .number(String(line))))
    return .object(members)
  }

  /// Seconds with six decimals, as the recorder writes them; a time no recorder writes (negative,
  /// or past about 300,000 years) as Swift spells the number, still a JSON number; `null` for
  /// one that is not a number at all (a literal too large for a `Double`).
  private static func seconds(_ value: Double) -> JSONValue {
    guard value.isFinite else { return .null }
    guard value >= 0, value < 1e13 else { return .number(String(value)) }
    let micros = Int((value * 1_000_000).rounded())
    let fraction = String(micros % 1_000_000)
    return .number(
      "\(micros / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)")
  }
}

extension ActionDetail {
  /// ``RecordedAction/jsonValue``, with `"replaySkips": true` when the replay skips it,
  /// `"causeType"` (the type of its `cause`) and `"caused"` (``ActionReference/jsonValue`` of
  /// each action it caused) when known.
  public var jsonValue: JSONValue {
    guard isSkipped || cause?.type != nil || !effects.isEmpty,
      case .object(var members) = action.jsonValue
    else { return action.jsonValue }
    if isSkipped { members.append(JSONMember("replaySkips", .bool(true))) }
    if let type = cause?.type { members.append(JSONMember("causeType", .string(type))) }
    if !effects.isEmpty {
      members.append(JSONMember("caused", .array(effects.map(\.jsonValue))))
    }
    return .object(members)
  }
}

extension ActionListing {
  /// `{"position": N, "actions": [...]}` (the cursor's position), each action as
  /// ``ActionDetail/jsonValue``.
  public var jsonValue: JSONValue {
    let details = actions.map { action in
      ActionDetail(action: action, isSkipped: skipped.contains(action.seq)).jsonValue
    }
    return .object([
      JSONMember("position", .number(String(cursor))), JSONMember("actions", .array(details)),
    ])
  }
}

extension Breakpoint {
  /// The watchpoint or breakpoint with `id`: `{"id": 1, "watch": "todos.count"}`,
  /// `{"id": 2, "break": "type=add"}`, `{"id": 3, "break": "if todos.count >= 6"}` — the command
  /// that sets it, as a member.
  public func jsonValue(id: Int) -> JSONValue {
    let member: JSONMember
    switch self {
    case .watch(let path): member = JSONMember("watch", .string(path.sessionText))
    case .actionType(let name): member = JSONMember("break", .string("type=\(name)"))
    case .condition(let path, let comparison, let value):
      member = JSONMember(
        "break", .string("if \(path.sessionText) \(comparison.rawValue) \(value.jsonText)"))
    }
    return .object([JSONMember("id", .number(String(id))), member])
  }
}

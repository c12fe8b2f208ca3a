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
  /// ``RecordedAction/jsonValue``, with `"replaySkips": true` when the replay skips it.
  public var jsonValue: JSONValue {
    guard isSkipped, case .object(var members) = action.jsonValue else { return action.jsonValue }
    members.append(JSONMember("replaySkips", .bool(true)))
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
    let text = description
    let word = text.prefix { $0 != " " }
    let rest = text.dropFirst(word.count).drop { $0 == " " }
    return .object([
      JSONMember("id", .number(String(id))), JSONMember(String(word), .string(String(rest))),
    ])
  }
}

extension Debugger {
  /// Where a move ended: `{"position": N, "action": {...}}` (no `action` at the initial state),
  /// and `"crash"` (``CrashReport/json``) when the app's reducer crashed on the way and the
  /// cursor landed at the last good position.
  public func jsonValue(_ motion: Motion) -> JSONValue {
    switch motion {
    case .moved(let position): return landing(position, [])
    case .crashed(let report, let position):
      return landing(position, [JSONMember("crash", report.json)])
    }
  }

  /// Where `continue` or `reverse-continue` stopped: the position and action as for a
  /// ``Motion``, and why — `"stoppedBy": [{"id": 1, "reason": "todos.count: 3 → 4"}]`,
  /// `"reached": "end"` (or `"start"`) with nothing triggered, or `"crash"`.
  public func jsonValue(_ stop: Stop) -> JSONValue {
    switch stop {
    case .breakpoints(let position, let reasons):
      let stoppedBy = reasons.map { reason in
        JSONValue.object([
          JSONMember("id", .number(String(reason.id))), JSONMember("reason", .string(reason.text)),
        ])
      }
      return landing(position, [JSONMember("stoppedBy", .array(stoppedBy))])
    case .boundary(let position, let direction):
      let end = direction == .forward ? "end" : "start"
      return landing(position, [JSONMember("reached", .string(end))])
    case .crashed(let report, let position):
      return landing(position, [JSONMember("crash", report.json)])
    }
  }

  /// `position`, the action that led there when there is one (as ``ActionDetail/jsonValue``),
  /// then `extra`.
  private func landing(_ position: Int, _ extra: [JSONMember]) -> JSONValue {
    var members = [JSONMember("position", .number(String(position)))]
    if position > log.positions.lowerBound, let action = try? log.action(at: position) {
      let isSkipped = timeline?.skippedSeqs.contains(position) == true
      members.append(
        JSONMember("action", ActionDetail(action: action, isSkipped: isSkipped).jsonValue))
    }
    return .object(members + extra)
  }
}

import RewindJSON
import RewindReplay
import RewindReplayService

extension DAPSession {
  /// Tells the client the timeline stopped: a `stopped` event for thread 1 with `reason`
  /// (`"entry"`, `"step"`, `"goto"`, `"breakpoint"`, `"data breakpoint"`, `"function
  /// breakpoint"`, `"exception"`, `"pause"`), a line on where and why, and the breakpoints
  /// that triggered. The variables of the previous stop are forgotten.
  func stop(
    reason: String, description: String, text: String? = nil, hitBreakpointIDs: [Int] = [],
    crash: CrashReport? = nil
  ) {
    references.reset()
    lastCrash = crash
    var members = [
      JSONMember("reason", .string(reason)),
      JSONMember("description", .string(description)),
      JSONMember("threadId", .integer(Self.threadID)),
      JSONMember("allThreadsStopped", .bool(true)),
    ]
    if let text { members.append(JSONMember("text", .string(text))) }
    if !hitBreakpointIDs.isEmpty {
      members.append(
        JSONMember("hitBreakpointIds", .array(hitBreakpointIDs.map(JSONValue.integer))))
    }
    send(DAPMessage.event("stopped", body: .object(members)))
  }

  /// Moves the cursor (`next`, `stepBack`, `goto`) and stops where it landed: with `reason`, or
  /// at the reducer's crash (`"exception"`); at the start or end of the log it stops where it
  /// is, saying so.
  /// - Throws: ``DAPError`` when no log is open or the move fails otherwise.
  func move(_ target: MoveRequest.Target, reason: String, _ request: DAPRequest) throws(DAPError)
    -> JSONValue?
  {
    let service = try service(request)
    do throws(ReplayFailure) {
      let response = try service.perform(MoveRequest(target))
      stop(after: response, reason: reason)
    } catch {
      switch error {
      case .debugger(.atLastPosition(let last)):
        stop(
          reason: reason,
          description: "at the end of the log: position \(last) is the last; "
            + "step back or reverse-continue to go on")
      case .debugger(.atFirstPosition(let first)):
        stop(
          reason: reason,
          description: "at the start of the log: position \(first) is the "
            + "first; step or continue to go on")
      default:
        throw DAPError(.replayFailure, error.message, request: request)
      }
    }
    return nil
  }

  /// Stops after a move: where it ended, or at the crash met on the way.
  func stop(after response: MotionResponse, reason: String) {
    if let crash = response.crash {
      stopAtCrash(crash, position: response.landing.position)
    } else {
      stop(
        reason: reason,
        description: "at position \(response.landing.position)" + actionText(response.landing))
    }
  }

  /// `, after #N type` for a landing after an action; empty at the initial state.
  func actionText(_ landing: Landing) -> String {
    guard let action = landing.action else { return " (the initial state)" }
    return ", after #\(action.seq) \(action.type ?? "(unknown type)")"
  }

  /// Stops at the reducer's crash on the action after `position`.
  func stopAtCrash(_ crash: CrashReport, position: Int) {
    let action = crash.seq.map { "#\($0) \(crash.type ?? "")" } ?? "an action"
    let what = crash.message ?? crash.signal
    stop(
      reason: "exception",
      description: "the app's reducer crashed on \(action): \(what); the cursor is at position "
        + "\(position), the last state before it", text: what, crash: crash)
  }

  /// `continue` (and `stepOut`, which has no caller to return to on a timeline: it runs on as
  /// `continue` does) or `reverseContinue`: to the next watchpoint or breakpoint that
  /// triggers, else to the end or start of the log, or to the reducer's crash.
  func run(_ direction: TimelineSearch.Direction, _ request: DAPRequest) throws(DAPError)
    -> JSONValue?
  {
    let service = try service(request)
    do throws(ReplayFailure) {
      try run(direction, service)
    } catch {
      throw DAPError(.replayFailure, error.message, request: request)
    }
    return .object([JSONMember("allThreadsContinued", .bool(true))])
  }

  /// `continue` at launch with `stopOnEntry: false`: a failure becomes an `output` event and a
  /// stop where the cursor is.
  func runForward(_ service: ReplayService) {
    do throws(ReplayFailure) {
      try run(.forward, service)
    } catch {
      send(DAPMessage.output("error: " + error.message, category: "stderr"))
      stop(reason: "entry", description: "at position \(service.position)")
    }
  }

  /// Runs `direction` and stops: without watchpoints or breakpoints, to the end or start of the
  /// log (or the crash on the way).
  private func run(_ direction: TimelineSearch.Direction, _ service: ReplayService)
    throws(ReplayFailure)
  {
    let log = service.log
    guard !service.debugger.breakpoints.isEmpty else {
      let end = direction == .forward ? log.positions.upperBound : log.positions.lowerBound
      let response = try service.perform(MoveRequest(.position(end)))
      if let crash = response.crash {
        stopAtCrash(crash, position: response.landing.position)
      } else {
        stop(
          reason: "pause",
          description: boundaryText(direction, position: end)
            + " (no breakpoint is set)")
      }
      return
    }
    let response = try service.perform(ContinueRequest(direction))
    switch response.stop {
    case .crashed(let crash, let landedAt):
      stopAtCrash(crash, position: landedAt)
    case .boundary(let position, let direction):
      stop(reason: "pause", description: boundaryText(direction, position: position))
    case .breakpoints(let position, let reasons):
      let ids = reasons.map(\.id)
      stop(
        reason: breakpoints.reason(for: ids),
        description: "at position \(position)" + actionText(response.landing) + ": "
          + reasons.map(\.text).joined(separator: "; "),
        text: reasons.first?.text, hitBreakpointIDs: ids)
    }
  }

  /// `reached the end of the log (position N)` or the start.
  private func boundaryText(_ direction: TimelineSearch.Direction, position: Int) -> String {
    direction == .forward
      ? "reached the end of the log (position \(position)), nothing triggered on the way"
      : "reached the start of the log (position \(position)), nothing triggered on the way"
  }

  /// `exceptionInfo`: the crash of the last stop, with the reducer's frames.
  func exceptionInfo(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    guard let crash = lastCrash else {
      throw DAPError(
        .badArguments, "the last stop was not at a crash: there is no exception to describe",
        request: request)
    }
    let frames = crash.frames.map { frame in
      "  at \(frame.function)"
        + (frame.file.map { " (\($0)" + (frame.line.map { ":\($0)" } ?? "") + ")" } ?? "")
    }
    let stackTrace =
      (frames
      + (crash.foldedFrames > 0
        ? ["  (\(crash.foldedFrames) frames of the runtime and of Rewind left out)"] : []))
      .joined(separator: "\n")
    var details = [
      JSONMember("message", .string(crash.message ?? crash.signal)),
      JSONMember("typeName", .string(crash.signal)),
      JSONMember("stackTrace", .string(stackTrace)),
    ]
    if let seq = crash.seq {
      details.append(JSONMember("evaluateName", .string("action \(seq)")))
    }
    var description = "the app's reducer crashed"
    if let seq = crash.seq { description += " on action #\(seq) \(crash.type ?? "")" }
    if let line = crash.line { description += " (line \(line) of the log)" }
    description += ": " + (crash.message ?? crash.signal)
    if let location = crash.messageLocation { description += " at \(location)" }
    return .object([
      JSONMember("exceptionId", .string(crash.signal)),
      JSONMember("description", .string(description)),
      JSONMember("breakMode", .string("always")),
      JSONMember("details", .object(details)),
    ])
  }

  /// `goto`: to the position the target names (``gotoTargets(_:)`` gives one per action).
  func goto(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let target = try request.requiredInteger("targetId")
    return try move(.position(target - 1), reason: "goto", request)
  }

  /// `gotoTargets`: a line of the log file is the action written on it (a line before the
  /// first action, the initial state; a checkpoint's line, the action before it); target ids
  /// are positions + 1.
  func gotoTargets(_ request: DAPRequest) throws(DAPError) -> JSONValue? {
    let service = try service(request)
    let line = try request.requiredInteger("line")
    let path = request.arguments["source"]?["path"]?.stringValue ?? ""
    guard isLogFile(path) else {
      throw DAPError(
        .badArguments,
        "goto works on the lines of the log file ('\(logPath)'), not on '\(path)': "
          + "open the log and jump to the line of an action", request: request)
    }
    let log = service.log
    let position = logPosition(atLine: line, in: log)
    let label: String
    if position > log.positions.lowerBound, let action = try? log.action(at: position) {
      label = "#\(position) \(action.type ?? "(unknown type)")"
    } else {
      label = "#\(position) initial state"
    }
    let lineOfTarget = (try? log.action(at: position).line) ?? 1
    return .object([
      JSONMember(
        "targets",
        .array([
          .object([
            JSONMember("id", .integer(position + 1)), JSONMember("label", .string(label)),
            JSONMember("line", .integer(lineOfTarget)),
          ])
        ]))
    ])
  }

  /// Whether `path` is the launched log's file.
  private func isLogFile(_ path: String) -> Bool {
    func normalized(_ path: String) -> String {
      Self.absolutePath(path).split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
    return !path.isEmpty && normalized(path) == normalized(logPath)
  }

  /// The position of the last action written on or before `line` of the log (the first
  /// position when none is).
  /// - Complexity: O(log *n*) action reads.
  private func logPosition(atLine line: Int, in log: ReplayLog) -> Int {
    var low = log.firstSeq
    var high = log.lastSeq
    var found = log.positions.lowerBound
    guard log.actionCount > 0 else { return found }
    while low <= high {
      let middle = low + (high - low) / 2
      guard let action = try? log.action(at: middle) else { break }
      if action.line <= line {
        found = middle
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    return found
  }
}

import RewindJSON
import RewindReplay

extension ReplaySession {
  func requireTimeline() throws(SessionFailure) -> any AnyTimeline {
    try perform { () throws(DebuggerError) in try debugger.requireTimeline() }
  }

  func watch(_ arguments: [String]) throws(SessionFailure) {
    guard !arguments.isEmpty else {
      throw SessionFailure("usage: watch PATH (for example: watch todos.count)")
    }
    _ = try requireTimeline()
    let path = try Self.parsePath(arguments)
    let (id, value) = try perform { () throws(DebuggerError) in try debugger.watch(path) }
    if wantsJSON {
      var members = [
        JSONMember("id", .number(String(id))), JSONMember("watch", .string(path.sessionText)),
      ]
      if case .success(let current) = value { members.append(JSONMember("value", current)) }
      writeJSON(.object(members))
      return
    }
    var now = "absent here"
    switch value {
    case .success(let current): now = "now \(inert(current.jsonText))"
    case .failure(let error):
      if case .noSuchKey(let key, _, let available) = error,
        let suggestion = closestMatch(to: key, in: available)
      {
        now += "; did you mean '\(inert(suggestion))'?"
      }
    }
    output.writeLine("watchpoint \(id): \(inert(path.sessionText)) (\(truncate(now, toWidth: 70)))")
  }

  func addBreak(_ arguments: [String]) throws(SessionFailure) {
    let breakpoint: Breakpoint
    do throws(BreakpointParseError) {
      breakpoint = try Breakpoint.parseBreak(arguments.joined(separator: " "))
    } catch {
      throw SessionFailure(inert(error.description))
    }
    let id = try perform { () throws(DebuggerError) in try debugger.addBreakpoint(breakpoint) }
    if wantsJSON {
      writeJSON(breakpoint.jsonValue(id: id))
      return
    }
    output.writeLine("breakpoint \(id): \(inert(breakpoint.description))")
    if case .actionType(let name) = breakpoint {
      let known = debugger.knownActionTypes()
      if !known.contains(name) {
        let suggestion =
          closestMatch(to: name, in: known.sorted()).map { "; did you mean type=\($0)?" } ?? ""
        output.writeLine(
          "warning: no action of type '\(inert(name))' is in this log\(suggestion)",
          to: .standardError)
      }
    }
  }

  func listBreakpoints() {
    let breakpoints = debugger.breakpoints
    if wantsJSON {
      writeJSON(
        .object([JSONMember("breakpoints", .array(breakpoints.map { $1.jsonValue(id: $0) }))]))
      return
    }
    guard !breakpoints.isEmpty else {
      output.writeLine("no watchpoints or breakpoints; set one with 'watch PATH' or 'break ...'")
      return
    }
    for (id, breakpoint) in breakpoints {
      output.writeLine("\(id)  \(inert(breakpoint.description))")
    }
  }

  func deleteBreakpoint(_ arguments: [String]) throws(SessionFailure) {
    guard arguments.count == 1 else { throw SessionFailure("usage: delete ID|all") }
    if arguments[0] == "all" {
      let ids = debugger.breakpoints.map(\.id)
      let count = debugger.deleteAllBreakpoints()
      if wantsJSON {
        writeJSON(.object([JSONMember("deleted", .array(ids.map { .number(String($0)) }))]))
      } else {
        output.writeLine("deleted \(count) watchpoint(s) and breakpoint(s)")
      }
      return
    }
    guard let id = Int(arguments[0]) else {
      throw SessionFailure(
        .noSuchBreakpoint(arguments[0], ids: debugger.breakpoints.map(\.id)), opened: opened)
    }
    try perform { () throws(DebuggerError) in try debugger.deleteBreakpoint(id) }
    if wantsJSON {
      writeJSON(.object([JSONMember("deleted", .array([.number(String(id))]))]))
      return
    }
    output.writeLine("deleted \(id)")
  }

  func continueRun(_ direction: TimelineSearch.Direction) throws(SessionFailure) {
    let before = debugger.position
    let stop = try perform { () throws(DebuggerError) in try debugger.continueRun(direction) }
    if wantsJSON {
      writeJSON(debugger.jsonValue(stop), crashed: stop.crash != nil)
      return
    }
    switch stop {
    case .breakpoints(_, let reasons):
      for (id, text) in reasons { output.writeLine("stopped by \(id): \(inert(text))") }
      show(.moved(to: debugger.position))
    case .boundary(let end, let direction):
      if end != before { show(.moved(to: end)) }
      let word = direction == .forward ? "end" : "start"
      output.writeLine("reached the \(word) of the log (position \(end)) without a stop")
    case .crashed(let report, let lastGood):
      showCrash(report, landedAt: lastGood)
    }
  }

  func setSkip(_ arguments: [String], _ isSkipped: Bool) throws(SessionFailure) {
    _ = try requireTimeline()
    guard arguments.count == 1, let seq = Int(arguments[0]) else {
      throw SessionFailure("usage: \(isSkipped ? "skip" : "unskip") N (the seq of an action)")
    }
    let count = try perform { () throws(DebuggerError) in
      try debugger.setSkipped(seq, isSkipped)
    }
    if wantsJSON {
      let skips = opened.timeline?.skippedSeqs.sorted() ?? []
      writeJSON(.object([JSONMember("skips", .array(skips.map { .number(String($0)) }))]))
      return
    }
    output.writeLine(
      isSkipped
        ? "skipping action \(seq): states from position \(seq) on are recomputed without it (\(count) skipped)"
        : "action \(seq) replays again (\(count) skipped)")
  }

}

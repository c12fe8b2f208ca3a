import RewindJSON
import RewindReplay

extension ReplaySession {
  func requireTimeline() throws(SessionFailure) -> any AnyTimeline {
    guard let timeline = opened.timeline else {
      throw SessionFailure(Self.oneLine(opened.missingAppDiagnostic))
    }
    return timeline
  }

  func watch(_ arguments: [String]) throws(SessionFailure) {
    guard !arguments.isEmpty else {
      throw SessionFailure("usage: watch PATH (for example: watch todos.count)")
    }
    let timeline = try requireTimeline()
    let path: JSONPath
    do throws(StatePathError) { path = try JSONPath.parse(arguments.joined(separator: " ")) } catch
    {
      throw SessionFailure(inert(error.description))
    }
    let current: JSONValue
    do { current = try timeline.stateJSON(at: position) } catch { throw SessionFailure(error) }
    var now = "absent here"
    do throws(StatePathError) {
      now = "now \(inert(try current.value(at: path).jsonText))"
    } catch {
      if case .noSuchKey(let key, _, let available) = error,
        let suggestion = closestMatch(to: key, in: available)
      {
        now += "; did you mean '\(inert(suggestion))'?"
      }
    }
    let id = add(.watch(path))
    output.writeLine("watchpoint \(id): \(inert(path.sessionText)) (\(truncate(now, toWidth: 70)))")
  }

  func addBreak(_ arguments: [String]) throws(SessionFailure) {
    let breakpoint: Breakpoint
    do throws(BreakpointParseError) {
      breakpoint = try Breakpoint.parseBreak(arguments.joined(separator: " "))
    } catch {
      throw SessionFailure(inert(error.description))
    }
    if case .condition = breakpoint { _ = try requireTimeline() }
    let id = add(breakpoint)
    output.writeLine("breakpoint \(id): \(inert(breakpoint.description))")
    if case .actionType(let name) = breakpoint {
      let known = knownTypes()
      if !known.contains(name) {
        let suggestion =
          closestMatch(to: name, in: known.sorted()).map { "; did you mean type=\($0)?" } ?? ""
        output.writeLine(
          "warning: no action of type '\(inert(name))' is in this log\(suggestion)",
          to: .standardError)
      }
    }
  }

  private func add(_ breakpoint: Breakpoint) -> Int {
    let id = nextBreakpointID
    nextBreakpointID += 1
    breakpoints.append((id, breakpoint))
    return id
  }

  func listBreakpoints() {
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
      output.writeLine("deleted \(breakpoints.count) watchpoint(s) and breakpoint(s)")
      breakpoints.removeAll()
      return
    }
    guard let id = Int(arguments[0]), let index = breakpoints.firstIndex(where: { $0.id == id })
    else {
      let ids = breakpoints.map { String($0.id) }.joined(separator: ", ")
      throw SessionFailure(
        "no watchpoint or breakpoint '\(inert(arguments[0]))'"
          + (ids.isEmpty ? ": none is set" : "; ids: \(ids)"))
    }
    breakpoints.remove(at: index)
    output.writeLine("deleted \(id)")
  }

  func continueRun(_ direction: TimelineSearch.Direction) throws(SessionFailure) {
    guard !breakpoints.isEmpty else {
      throw SessionFailure(
        "nothing to stop at: set a watchpoint ('watch PATH') or a breakpoint ('break type=NAME')")
    }
    if breakpoints.contains(where: {
      if case .actionType = $0.breakpoint { return false } else { return true }
    }) {
      _ = try requireTimeline()
    }
    let hit: TimelineSearch.Hit?
    if let timeline = opened.timeline {
      do {
        hit = try TimelineSearch.run(
          timeline, from: position, direction: direction, breakpoints: breakpoints)
      } catch {
        try landBeforeCrash(error, target: log.positions.upperBound)
        return
      }
    } else {
      hit = try typeOnlySearch(direction)
    }
    guard let hit else {
      let end = direction == .forward ? log.positions.upperBound : log.positions.lowerBound
      let word = direction == .forward ? "end" : "start"
      if position != end { try move(to: end) }
      output.writeLine("reached the \(word) of the log (position \(end)) without a stop")
      return
    }
    for (id, text) in hit.reasons { output.writeLine("stopped by \(id): \(inert(text))") }
    try move(to: hit.position)
  }

  /// Searches type breakpoints through the log alone (no reducer needed).
  private func typeOnlySearch(_ direction: TimelineSearch.Direction) throws(SessionFailure)
    -> TimelineSearch.Hit?
  {
    let names = breakpoints.compactMap { entry -> (Int, String)? in
      if case .actionType(let name) = entry.breakpoint { return (entry.id, name) }
      return nil
    }
    let seqs: StrideThrough<Int> =
      direction == .forward
      ? stride(from: max(position + 1, log.firstSeq), through: log.lastSeq, by: 1)
      : stride(from: position - 1, through: log.firstSeq, by: -1)
    for seq in seqs {
      let type: String?
      do { type = try log.action(at: seq).type } catch { throw SessionFailure(error) }
      let reasons = names.filter { $0.1 == type }.map {
        (id: $0.0, text: "action \(seq) is a '\($0.1)'")
      }
      if !reasons.isEmpty { return TimelineSearch.Hit(position: seq, reasons: reasons) }
    }
    return nil
  }

  func setSkip(_ arguments: [String], _ isSkipped: Bool) throws(SessionFailure) {
    let timeline = try requireTimeline()
    guard arguments.count == 1, let seq = Int(arguments[0]) else {
      throw SessionFailure("usage: \(isSkipped ? "skip" : "unskip") N (the seq of an action)")
    }
    guard log.actionCount > 0, (log.firstSeq...log.lastSeq).contains(seq) else {
      throw SessionFailure("no action \(seq): actions are \(log.firstSeq)…\(log.lastSeq)")
    }
    if !isSkipped && !timeline.skippedSeqs.contains(seq) {
      throw SessionFailure("action \(seq) is not skipped")
    }
    timeline.setSkipped(seq, isSkipped)
    let count = timeline.skippedSeqs.count
    output.writeLine(
      isSkipped
        ? "skipping action \(seq): states from position \(seq) on are recomputed without it (\(count) skipped)"
        : "action \(seq) replays again (\(count) skipped)")
  }
}

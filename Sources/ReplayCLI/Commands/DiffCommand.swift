import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay diff A B [--json]`.
  func runDiff() throws(CommandFailure) -> Int32 {
    let (a, b) = try openLogPair()
    reportFaults(a.log)
    reportFaults(b.log)
    guard a.log.header.app == b.log.header.app else {
      throw .diagnostic(
        Diagnostic.error(
          "cannot compare sessions of different apps: A is \"\(a.log.header.app)\", B is "
            + "\"\(b.log.header.app)\"",
          hints: ["replay diff compares two recordings of the same app"]))
    }
    var timelines: (any ReplayTimeline, any ReplayTimeline)?
    if let ta = a.timeline, let tb = b.timeline { timelines = (ta, tb) }
    let result: LogDiff
    do { result = try LogDiff(a.log, b.log, timelines: timelines) } catch { throw .replay(error) }
    if wantsJSON {
      output.writeLine(Self.json(result).jsonText)
    } else {
      printDiff(result, knowsApp: timelines != nil, missing: a.timeline == nil ? a : b)
    }
    return result.isEquivalent ? ExitStatus.success : ExitStatus.different
  }

  private func printDiff(_ result: LogDiff, knowsApp: Bool, missing: OpenedLog) {
    func count(_ n: Int) -> String { n == 1 ? "1 action" : "\(n) actions" }
    output.writeLine("A: \(inert(result.a.path)) (\(count(result.a.actionCount)))")
    output.writeLine("B: \(inert(result.b.path)) (\(count(result.b.actionCount)))")
    if !knowsApp {
      output.writeLine(
        "note: actions only — this replay binary cannot rebuild states of app "
          + "\"\(inert(result.a.header.app))\"; see docs/embedding.md")
    }
    for (side, crash) in [("A", result.crashA), ("B", result.crashB)] {
      guard let crash else { continue }
      output.writeLine(
        "\(side): \(crash.headline); \(side)'s states are compared up to position "
          + "\(crash.lastGood.map(String.init) ?? "?"), the last good one")
    }
    guard let first = result.firstDivergence else {
      output.writeLine("the action sequences are identical")
      if let initial = result.initialChanges {
        output.writeLine("but the initial states (the headers' states) differ (A → B):")
        writeIndented(initial)
      }
      if let final = result.finalChanges {
        output.writeLine("but the final states differ (A → B):")
        writeIndented(final)
      } else if knowsApp {
        output.writeLine("the final states are equal: the sessions are equivalent")
      }
      return
    }
    output.writeLine("first divergence: A seq \(first.a), B seq \(first.b)")
    let onlyA = result.hunks.compactMap(\.seqsInA).reduce(0) { $0 + $1.count }
    let onlyB = result.hunks.compactMap(\.seqsInB).reduce(0) { $0 + $1.count }
    output.writeLine(
      "\(result.hunks.count) differing stretch\(result.hunks.count == 1 ? "" : "es"): "
        + "\(onlyA) action\(onlyA == 1 ? "" : "s") only in A, \(onlyB) only in B")
    for hunk in result.hunks.prefix(20) {
      output.writeLine(
        "@@ A \(rangeText(hunk.seqsInA, before: hunk.beforeA)) | B \(rangeText(hunk.seqsInB, before: hunk.beforeB)) @@"
      )
      printSide(hunk.seqsInA, of: result.a, sign: "-")
      printSide(hunk.seqsInB, of: result.b, sign: "+")
    }
    if result.hunks.count > 20 { output.writeLine("… \(result.hunks.count - 20) more stretches") }
    if knowsApp {
      if let positions = result.divergencePositions {
        output.writeLine(
          "state after the first differing stretch (A at \(positions.a) → B at "
            + "\(positions.b)):")
      } else {
        output.writeLine("state after the first differing stretch (A → B):")
      }
      writeIndented(result.divergenceChanges)
      output.writeLine("final state (A → B):")
      writeIndented(result.finalChanges)
    }
  }

  private func rangeText(_ range: ClosedRange<Int>?, before: Int) -> String {
    guard let range else { return "(none, before seq \(before))" }
    return range.count == 1
      ? "seq \(range.lowerBound)" : "seq \(range.lowerBound)…\(range.upperBound)"
  }

  private func printSide(_ range: ClosedRange<Int>?, of log: ReplayLog, sign: String) {
    guard let range else { return }
    for seq in range.prefix(5) {
      if let action = try? log.action(at: seq) {
        output.writeLine(ActionFormatter.line(action, marker: sign))
      }
    }
    if range.count > 5 { output.writeLine("\(sign)   … \(range.count - 5) more") }
  }

  /// Writes `changes` a line each, indented (``JSONDiff/render(_:maxValueWidth:)``'s lines), as
  /// they are found: a diff of a large state can run to millions of lines, never all held.
  private func writeIndented(_ changes: StateChanges?) {
    guard let changes else {
      output.writeLine("  \(JSONDiff.render(nil))")
      return
    }
    changes.forEachChange { change in output.writeLine("  " + inert(change.description)) }
  }

  static func json(_ result: LogDiff) -> JSONValue {
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    func patch(_ changes: StateChanges?) -> JSONValue {
      (changes.map { JSONPatch(changes: $0) } ?? JSONPatch()).jsonValue
    }
    func range(_ r: ClosedRange<Int>?) -> JSONValue {
      r.map { .array([number($0.lowerBound), number($0.upperBound)]) } ?? .null
    }
    var members: [JSONMember] = [
      JSONMember("a", .string(result.a.path)),
      JSONMember("b", .string(result.b.path)),
      JSONMember("equivalent", .bool(result.isEquivalent)),
      JSONMember("comparedStates", .bool(result.comparedStates)),
      JSONMember("initialStatesDiffer", .bool(result.initialStatesDiffer)),
      JSONMember("crashA", result.crashA?.json ?? .null),
      JSONMember("crashB", result.crashB?.json ?? .null),
    ]
    if let first = result.firstDivergence {
      members.append(
        JSONMember(
          "firstDivergence",
          .object([JSONMember("a", number(first.a)), JSONMember("b", number(first.b))])))
    } else {
      members.append(JSONMember("firstDivergence", .null))
    }
    members.append(
      JSONMember(
        "hunks",
        .array(
          result.hunks.map {
            .object([
              JSONMember("onlyInA", range($0.seqsInA)), JSONMember("onlyInB", range($0.seqsInB)),
            ])
          })))
    if result.comparedStates {
      members.append(
        JSONMember(
          "divergenceStatePositions",
          result.divergencePositions.map {
            .object([JSONMember("a", number($0.a)), JSONMember("b", number($0.b))])
          } ?? .null))
      members.append(
        JSONMember(
          "divergenceStatePatch", patch(result.divergenceChanges)))
      members.append(
        JSONMember("finalStatePatch", patch(result.finalChanges)))
    }
    return .object(members)
  }
}

import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay diff A B [--json]`.
  func runDiff() throws(CommandFailure) -> Int32 {
    let (a, b) = try openLogPair()
    reportFaults(a.log)
    reportFaults(b)
    let response: CompareResponse
    do { response = try ReplayService(opened: a).perform(CompareRequest(with: b)) } catch {
      guard case .usage(let message) = error else { throw a.commandFailure(error) }
      // The one usage failure: logs of two apps.
      throw .diagnostic(
        Diagnostic.error(
          inert(message), hints: ["replay diff compares two recordings of the same app"]))
    }
    let result = response.diff
    if wantsJSON {
      output.writeLine(response.jsonValue.jsonText)
    } else {
      printDiff(result, knowsApp: response.comparesStates)
    }
    return result.isEquivalent ? ExitStatus.success : ExitStatus.different
  }

  private func printDiff(_ result: LogDiff, knowsApp: Bool) {
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
}

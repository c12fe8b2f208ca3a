import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay shrink LOG --until COND [-o OUT] [--max-replays N]`.
  func runShrink() throws(CommandFailure) -> Int32 {
    let opened = try openLog(needsInitialState: true)
    let log = opened.log
    let out = arguments.string("output") ?? Self.defaultShrinkOutput(log.path)
    // The default name is shrink's own: what is there is an earlier result, replaced.
    let replacesLogs = arguments.flag("overwrite") || arguments.string("output") == nil
    try OutputFile.check(out, inputs: [log.path], replacesLogs: replacesLogs)
    reportFaults(log)
    guard let local = opened.localTimeline else {
      throw .diagnostic(opened.missingAppDiagnostic)
    }
    let condition: ShrinkCondition
    do throws(BreakpointParseError) {
      condition = try ShrinkCondition.parse(arguments.string("until") ?? "crash")
    } catch {
      throw .diagnostic(Diagnostic.error("invalid --until: \(error.description)"))
    }
    let budget: Int
    do throws(UsageError) { budget = try arguments.int("max-replays") ?? 2000 } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    let (seqs, result) = try minimize(log, local, until: condition, maxReplays: budget)
    var composer = LogComposer(
      header: LogComposer.Header(
        app: log.header.app, actionType: log.header.actionType, stateType: log.header.stateType,
        stateJSON: Self.headerStateJSON(log)))
    var kept: [RecordedAction] = []
    for seq in result.items {
      guard let action = try? log.action(at: seq), let payload = action.payload else { continue }
      composer.appendAction(payload, time: action.time)
      kept.append(action)
    }
    try OutputFile.write(
      (consume composer).finished(), to: out, inputs: [log.path], replacesLogs: replacesLogs)
    let replays = result.tests + 1
    output.writeLine(
      "shrunk \(seqs.count) → \(kept.count) action\(kept.count == 1 ? "" : "s") in \(replays) "
        + "replays (until \(inert(condition.description)))"
        + (result.budgetExhausted
          ? "; the --max-replays budget ran out, so it may shrink further" : ""))
    for action in kept { output.writeLine(ActionFormatter.line(action)) }
    output.writeLine("wrote \(inert(out))")
    return ExitStatus.success
  }

  /// The recorded actions of `log`, and the fewest of them that still reach `condition`, each
  /// candidate replayed in a worker — which is gone when this returns, with the state it last
  /// sent (as large as the app's state), before the shrunk log is written.
  private func minimize(
    _ log: ReplayLog, _ local: any ReplayTimeline, until condition: ShrinkCondition,
    maxReplays budget: Int
  ) throws(CommandFailure) -> (seqs: [Int], result: DeltaDebugging.Result<Int>) {
    let isolated = IsolatedTimeline(local: local, recovery: log.recovery, reportsFrames: false)
    var seqs: [Int] = []
    if log.actionCount > 0 {
      for seq in log.firstSeq...log.lastSeq
      where (try? log.action(at: seq))?.status == .recorded { seqs.append(seq) }
    }
    func test(_ candidate: [Int]) -> Bool {
      let outcome: Result<[UInt8], ReplayError>
      do { outcome = .success(try isolated.stateJSONText(runningOnly: candidate)) } catch {
        outcome = .failure(error)
      }
      return condition.isSatisfied(by: outcome)
    }
    guard test(seqs) else {
      throw .diagnostic(
        Diagnostic.error(
          "the whole log does not reach the condition '\(inert(condition.description))'",
          at: Diagnostic.Location(file: log.path),
          hints: [
            Diagnostic.Hint("check the condition: replay \(log.path) -c 'goto last' -c 'print'")
          ]))
    }
    let progress = ProgressLine.isAvailable ? ProgressLine(output: output, label: "shrinking") : nil
    let result = DeltaDebugging.minimize(seqs, maxTests: max(1, budget - 1)) { size, runs in
      progress?.update(seqs.count - size, seqs.count)
    } test: {
      test($0)
    }
    progress?.update(seqs.count, seqs.count)
    return (seqs, result)
  }

  /// The JSON text of `log`'s initial state for a new log's header: as the file holds it when it
  /// can go into one line as it is (no tree of it is built), else written again compactly (a
  /// state put together from parts may hold line breaks between its tokens).
  static func headerStateJSON(_ log: ReplayLog) -> [UInt8] {
    if let recorded = log.header.withStateText({ Array($0) }),
      !recorded.contains(0x0A), !recorded.contains(0x0D)
    {
      return recorded
    }
    return log.header.state.serializedBytes
  }

  static func defaultShrinkOutput(_ path: String) -> String {
    let base = path.hasSuffix(".jsonl") ? String(path.dropLast(6)) : path
    return base + ".shrunk.jsonl"
  }
}

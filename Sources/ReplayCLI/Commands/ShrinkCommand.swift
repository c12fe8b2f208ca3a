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
    let service = ReplayService(opened: opened)
    let progress = ProgressLine.isAvailable ? ProgressLine(output: output, label: "shrinking") : nil
    service.onProgress = progress.map { line in line.update }
    let response: ShrinkResponse
    do { response = try service.perform(ShrinkRequest(until: condition, maxReplays: budget)) } catch
    {
      guard case .usage(let message) = error else { throw opened.commandFailure(error) }
      // The one usage failure: a log that does not reach the condition.
      throw .diagnostic(
        Diagnostic.error(
          inert(message), at: Diagnostic.Location(file: log.path),
          hints: [
            Diagnostic.Hint("check the condition: replay \(log.path) -c 'goto last' -c 'print'")
          ]))
    }
    try OutputFile.write(response.log, to: out, inputs: [log.path], replacesLogs: replacesLogs)
    for line in response.textLines { output.writeLine(line) }
    output.writeLine("wrote \(inert(out))")
    return ExitStatus.success
  }

  static func defaultShrinkOutput(_ path: String) -> String {
    let base = path.hasSuffix(".jsonl") ? String(path.dropLast(6)) : path
    return base + ".shrunk.jsonl"
  }
}

import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay triage PATH… [--json | --records FILE|-] [--shrink] [--jobs N] [--time-limit S]
  /// [--memory-limit MB]`.
  func runTriage() throws(CommandFailure) -> Int32 {
    let targets: [LogTarget]
    do { targets = try LogSearch.targets(arguments.positionals("PATH")) } catch {
      throw .diagnostic(
        .error(
          inert(error.message),
          hints: [Diagnostic.Hint("replay triage FOLDER", comment: "every .jsonl log under it")]))
    }
    guard !targets.isEmpty else {
      throw .diagnostic(
        .error(
          "no logs to triage: the folders given hold no .jsonl files",
          hints: [Diagnostic.Hint("replay triage FILE.jsonl…", comment: "names logs one by one")]))
    }
    let records = arguments.string("records")
    if records == "-" && wantsJSON {
      throw .diagnostic(
        .error(
          "--records - and --json both want standard output",
          hints: [Diagnostic.Hint("replay triage PATH --json --records records.jsonl")]))
    }
    if let records, records != "-" {
      try OutputFile.check(records, inputs: targets.flatMap(\.files), replacesLogs: false)
    }
    let limits: TriageLimits
    do throws(UsageError) {
      let defaults = TriageLimits()
      limits = TriageLimits(
        jobs: try arguments.int("jobs") ?? defaults.jobs,
        timeLimitSeconds: try arguments.int("time-limit") ?? defaults.timeLimitSeconds,
        memoryLimitBytes: (try arguments.int("memory-limit")).map { $0 << 20 }
          ?? defaults.memoryLimitBytes)
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    let progress =
      ProgressLine.isAvailable ? Locked(ProgressLine(output: output, label: "triage")) : nil
    var response = TriageResponse(
      records: TriageWorkers.triage(targets, recovery: recovery, limits: limits) { done, total in
        progress?.withLock { $0.update(done, total) }
      })
    if arguments.flag("shrink") { shrinkRepresentatives(of: &response, targets: targets) }
    if let records {
      let lines = response.records.map { $0.jsonValue.jsonText + "\n" }.joined()
      if records == "-" {
        output.write(lines, to: .standardOutput)
      } else {
        try OutputFile.write(
          Array(lines.utf8), to: records, inputs: targets.flatMap(\.files), replacesLogs: false)
      }
    }
    if wantsJSON {
      output.writeLine(response.jsonValue.jsonText)
    } else if records != "-" {
      for line in response.textLines(workers: min(limits.jobs, targets.count)) {
        output.writeLine(line)
      }
    }
    return response.hasFindings ? ExitStatus.different : ExitStatus.success
  }

  /// `--shrink`: for each crash bucket, shrinks its representative until the reducer crashes on
  /// the same action type, and writes the result beside it (`NAME.shrunk.jsonl`, as
  /// `replay shrink` names it). A shrink that fails is a warning; the others go on.
  private func shrinkRepresentatives(of response: inout TriageResponse, targets: [LogTarget]) {
    for index in response.buckets.indices where response.buckets[index].ending == .crashed {
      let representative = response.buckets[index].representative
      guard let target = targets.first(where: { $0.path == representative.path }) else { continue }
      let temporary =
        NSTemporaryDirectory()
        + "replay-triage-shrink-\(ProcessInfo.processInfo.processIdentifier)-"
        + "\(index).jsonl"
      defer { Platform.removeFile(temporary) }
      let out = Self.defaultShrinkOutput(representative.path)
      do {
        let file = try target.singleFile { temporary }
        let opened: OpenedLog
        do throws(ReplayError) {
          opened = try OpenedLog(
            path: file, recovery: recovery, apps: apps, isolation: .worker(interactive: false))
        } catch {
          throw CommandFailure.replay(error)
        }
        let condition: ShrinkCondition =
          representative.crashActionType.map { .crashIn(type: $0) } ?? .crash
        let shrunk: ShrinkResponse
        do {
          shrunk = try ReplayService(opened: opened).perform(
            ShrinkRequest(until: condition, maxReplays: 500))
        } catch {
          throw opened.commandFailure(error)
        }
        try OutputFile.write(shrunk.log, to: out, inputs: target.files, replacesLogs: true)
        response.buckets[index].shrunk = out
        response.buckets[index].shrunkActions = shrunk.kept.count
      } catch let failure as CommandFailure {
        var warning = failure.diagnostic
        warning.severity = .warning
        warning.message = "could not shrink \(inert(representative.path)): \(warning.message)"
        output.emit(warning)
      } catch {
        output.emit(
          Diagnostic(
            .warning, at: nil,
            "could not shrink \(inert(representative.path)): \(error.localizedDescription)"))
      }
    }
  }
}

extension TriageResponse {
  /// The table: a summary line, then per bucket its count and key, the dates and builds, and the
  /// representative log (with the shrunk reproduction, or why it is unreadable).
  func textLines(workers: Int) -> [String] {
    let joined = records.filter { $0.segments > 1 }
    var summary =
      "triaged \(records.count) log\(records.count == 1 ? "" : "s") with \(workers) "
      + "worker\(workers == 1 ? "" : "s")"
    if !joined.isEmpty {
      summary +=
        " (\(joined.count) rotated session\(joined.count == 1 ? "" : "s") joined: "
        + "\(joined.reduce(0) { $0 + $1.segments }) files)"
    }
    let counts = TriageRecord.Ending.allCases.compactMap { ending -> String? in
      let count = count(ending)
      return count == 0 ? nil : "\(count) \(ending.rawValue)"
    }
    var lines = [summary + ": " + counts.joined(separator: ", "), ""]
    let width = max(5, buckets.map { String($0.count).count }.max() ?? 0)
    lines.append(String(repeating: " ", count: width - 5) + "COUNT  BUCKET")
    let indent = String(repeating: " ", count: width + 2)
    for bucket in buckets {
      let count = String(bucket.count)
      lines.append(
        String(repeating: " ", count: width - count.count) + count + "  " + inert(bucket.key))
      var facts: [String] = []
      if let first = bucket.firstRecorded, let last = bucket.lastRecorded {
        facts.append(first == last ? "recorded \(first)" : "recorded \(first) … \(last)")
      }
      if !bucket.builds.isEmpty {
        facts.append(
          "build\(bucket.builds.count == 1 ? "" : "s") "
            + bucket.builds.map { inert($0) }.joined(separator: "; "))
      }
      if !facts.isEmpty { lines.append(indent + facts.joined(separator: " · ")) }
      let representative = bucket.representative
      var example = indent + "e.g. " + inert(representative.path)
      if representative.segments > 1 { example += " (\(representative.segments) files)" }
      if bucket.ending != .unreadable && bucket.ending != .unknownApp {
        example += ", \(representative.actions) action\(representative.actions == 1 ? "" : "s")"
      }
      lines.append(example)
      if let reason = representative.reason, bucket.ending == .unreadable {
        lines.append(indent + "  " + inert(reason))
      }
      if let shrunk = bucket.shrunk {
        let kept = bucket.shrunkActions.map { ", \($0) action\($0 == 1 ? "" : "s")" } ?? ""
        lines.append(indent + "shrunk: " + inert(shrunk) + kept)
      }
    }
    return lines
  }
}

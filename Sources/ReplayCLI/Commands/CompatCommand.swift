import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay compat LOG… [--json] [--no-migrations]`.
  func runCompat() throws(CommandFailure) -> Int32 {
    var targets: [CompatTarget] = []
    for argument in arguments.positionals("LOG") {
      targets += try Self.compatTargets(argument)
    }
    let migrates = !arguments.flag("no-migrations")
    var results: [CompatResponse] = []
    for target in targets {
      results.append(check(target, migrates: migrates))
    }
    if wantsJSON {
      output.writeLine(
        JSONValue.object([
          JSONMember("compatible", .bool(results.allSatisfy(\.isCompatible))),
          JSONMember("logs", .array(results.map(\.jsonValue))),
        ]).jsonText)
    } else {
      for result in results where result.report != nil || results.count > 1 {
        output.writeLine(result.text)
      }
      if results.count > 1 { output.writeLine(CompatResponse.byBuild(results)) }
    }
    if results.contains(where: { $0.report == nil }) { return ExitStatus.trouble }
    return results.allSatisfy(\.isCompatible)
      ? ExitStatus.success : ExitStatus.different
  }

  /// What a `LOG` argument names: itself; for a folder, every log under it as triage finds
  /// them (``LogSearch/folder(_:)``: `.jsonl` files searched recursively, a recorded session's
  /// rotated files as one log), a recorded session named by its session (`DIR/STEM`, with
  /// ` (N rotated files)` for several).
  /// - Throws: For a folder that holds no log.
  static func compatTargets(_ path: String) throws(CommandFailure) -> [CompatTarget] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return [CompatTarget(name: path, log: LogTarget(file: path))] }
    let logs = LogSearch.folder(path)
    guard !logs.isEmpty else {
      throw .diagnostic(
        .error(
          "\(path) is a folder with no logs in it: no recorded sessions and no .jsonl files",
          hints: [Diagnostic.Hint("replay compat FILE.jsonl", comment: "checks one log")]))
    }
    // The sessions of each folder the logs are in, to name a session's only file by its session.
    var sessionIDs: [String: Set<String>] = [:]
    return logs.map { log in
      let directory = (log.path as NSString).deletingLastPathComponent
      if let session = log.session {
        return CompatTarget(
          name: "\(directory)/\(session.id) (\(log.files.count) rotated files)", log: log)
      }
      if sessionIDs[directory] == nil {
        sessionIDs[directory] = Set(
          RecordingsFolder(path: directory.isEmpty ? "." : directory).sessions().map(\.id))
      }
      let stem = String((log.path as NSString).lastPathComponent.dropLast(".jsonl".count))
      let isSession = sessionIDs[directory]?.contains(stem) == true
      return CompatTarget(name: isSession ? "\(directory)/\(stem)" : log.path, log: log)
    }
  }

  private func check(_ target: CompatTarget, migrates: Bool) -> CompatResponse {
    // A session of several rotated files is checked as one log, joined into a bundle; the
    // bundle is kept (and named) only when something in it is reported, since its line numbers
    // are the ones the report gives.
    var bundle: String?
    let file: String
    do {
      file = try target.log.singleFile {
        let path =
          NSTemporaryDirectory() + "replay-compat-\(target.log.session?.id ?? "session").jsonl"
        bundle = path
        return path
      }
    } catch {
      bundle = nil
      file = target.log.path
      output.emit(
        Diagnostic(
          .note, at: nil,
          "\(target.name): its rotated files could not be joined; checked its newest file only"))
    }
    var namedBundle = false
    func nameBundle() {
      guard let bundle, !namedBundle else { return }
      namedBundle = true
      output.emit(
        Diagnostic(
          .note, at: nil,
          "\(target.name): its rotated files are joined in \(bundle), whose lines the report "
            + "counts"))
    }
    // Opened without checking each line's JSON, which the check does itself as it decodes
    // (``CompatibilityReport/hasUncheckedInvalidLine``); opened again with it when a line is
    // not JSON, or the open fails: the checked open's report of that line is the one to give.
    var unchecked = ReaderLimits.default
    unchecked.checksJSONAtOpen = false
    var opened = try? ReplayLog(path: file, recovery: recovery, limits: unchecked)
    var response = opened.map { check($0, migrates: migrates) }
    if response?.report?.hasUncheckedInvalidLine != false {
      // (The first open's memory goes before the second's is taken.)
      (opened, response) = (nil, nil)
      do {
        opened = try ReplayLog(path: file, recovery: recovery)
      } catch {
        nameBundle()
        output.emit(error.diagnostic)
        return CompatResponse(path: target.name, log: nil, report: nil, problem: error.message)
      }
      response = opened.map { check($0, migrates: migrates) }
    }
    guard let log = opened, var result = response else {
      return CompatResponse(
        path: target.name, log: nil, report: nil, problem: "\(file) could not be opened")
    }
    if !log.faults.isEmpty { nameBundle() }
    reportFaults(log)
    notePlan(of: log)
    if let problem = result.problem {
      output.emit(.error(problem, at: Diagnostic.Location(file: file, line: 1)))
    }
    result.path = target.name
    if !result.isCompatible || !log.faults.isEmpty {
      nameBundle()
    } else if let bundle {
      try? FileManager.default.removeItem(atPath: bundle)
    }
    return result
  }

  /// Checks `log` with its app: a ``CompatRequest`` to its service.
  private func check(_ log: ReplayLog, migrates: Bool) -> CompatResponse {
    let service = ReplayService(opened: OpenedLog(log: log, apps: apps))
    do { return try service.perform(CompatRequest(migrates: migrates)) } catch {
      return CompatResponse(path: log.path, log: log, report: nil, problem: error.message)
    }
  }

  /// Says when the app reads `log` as recorded although its schema differs.
  private func notePlan(of log: ReplayLog) {
    guard let app = ReplayApp.recording(log.header, among: apps) else { return }
    switch app.migrationPlan(for: log) {
    case .logIsNewer, .missing:
      if var note = BuildComparison.note(log: log, app: app) {
        // Its hint to run `replay compat` is what this is.
        note.hints.removeAll { $0.text.hasPrefix("replay compat") }
        output.emit(note)
      }
    case .none, .migrate: break
    }
  }
}

/// A log `replay compat` checks: what to call it, and where it is.
struct CompatTarget {
  /// The name the report gives it.
  var name: String
  /// Its file, or a recorded session's rotated files.
  var log: LogTarget
}

/// One log's lines of `replay compat`, and the summary by build of many.
extension CompatResponse: TextRenderedResponse {
  /// The build that recorded the log, for the summary by build.
  private var build: String {
    log.flatMap(\.recordedBy) ?? "no build stamp"
  }

  private var recordedBy: String {
    log.flatMap(\.recordedBy).map { "recorded by \($0)" } ?? "no build stamp"
  }

  private var readAs: String {
    switch plan {
    case .migrate(let chain):
      return migrates
        ? "read through the migrations \(chain.description)"
        : "read as recorded (--no-migrations; the migrations \(chain.description) are off)"
    case .missing(_, _, let gap):
      return "read as recorded (no migration from schema \(gap))"
    case .logIsNewer(let log, let app):
      return "read as recorded (its schema \(log) is newer than this replay's \(app))"
    case .none:
      return "read as recorded"
    }
  }

  /// The lines the recovery mode did not read or skipped, said once.
  private var unread: String? {
    guard let log, let fault = log.faults.first else { return nil }
    switch log.recovery {
    case .prefix:
      return "the lines from \(fault.line) on were not read (--recovery prefix)"
    case .salvage:
      let count = log.faults.count
      return "\(count) bad line\(count == 1 ? " was" : "s were") skipped (--recovery salvage)"
    case .tail:
      return "the last line, cut off mid-write, was not read"
    case .strict:
      return nil
    }
  }

  /// `count` and `noun`, with the noun's plural when needed.
  private static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  func textLines(in service: ReplayService) -> [ResponseLine] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map {
      ResponseLine(text: String($0))
    }
  }

  /// The lines as one text.
  var text: String {
    guard let report else { return "\(inert(path)): not checked: \(inert(problem ?? "?"))" }
    var lines = ["\(inert(path)): \(inert(recordedBy)); \(readAs)"]
    if !report.failingTypes.isEmpty {
      var rows = [["type", "lines", "first seq", "line", "path", "reason"]]
      for failing in report.failingTypes {
        rows.append([
          failing.type, String(failing.count), String(failing.firstSeq), String(failing.line),
          failing.codingPath.isEmpty ? "-" : failing.codingPath, failing.reason,
        ])
      }
      lines += TextTable.lines(rows).map { "  " + inert($0) }
    }
    for state in report.failingStates {
      let path = state.codingPath.isEmpty ? "" : "\(state.codingPath): "
      lines.append(
        "  the \(state.what) (line \(state.line)) does not decode: \(inert(path + state.reason))")
    }
    let actions: String
    switch (report.actionsChecked, report.failingActions) {
    case (0, _): actions = "no actions"
    case (1, 0): actions = "the 1 action decodes"
    case (let checked, 0): actions = "all \(checked) actions decode"
    case (let checked, let failing):
      actions = "\(failing) of \(Self.counted(checked, "action")) do not decode"
    }
    let states: String
    switch (report.statesChecked, report.failingStates.count) {
    case (1, 0): states = "the 1 state decodes"
    case (let checked, 0): states = "all \(checked) states decode"
    case (let checked, let failing):
      states = "\(failing) of \(Self.counted(checked, "state")) do not"
    }
    lines.append("  \(actions); \(states)" + (unread.map { "; \($0)" } ?? ""))
    return lines.joined(separator: "\n")
  }

  /// Which builds' logs decode: one line per build stamp.
  static func byBuild(_ results: [CompatResponse]) -> String {
    var order: [String] = []
    var counts: [String: (logs: Int, readable: Int, unchecked: Int)] = [:]
    for result in results {
      let build = result.log == nil ? "not readable" : result.build
      if counts[build] == nil { order.append(build) }
      var count = counts[build, default: (0, 0, 0)]
      count.logs += 1
      if result.report == nil {
        count.unchecked += 1
      } else if result.report?.isCompatible == true {
        count.readable += 1
      }
      counts[build] = count
    }
    var lines = ["by build:"]
    for build in order {
      let count = counts[build, default: (0, 0, 0)]
      let failing = count.logs - count.readable - count.unchecked
      var verdicts: [String] = []
      if count.readable > 0 {
        verdicts.append(count.readable == count.logs ? "all decode" : "\(count.readable) decode")
      }
      if failing > 0 { verdicts.append("\(failing) do not decode") }
      if count.unchecked > 0 { verdicts.append("\(count.unchecked) not checked") }
      lines.append(
        "  \(inert(build)): \(counted(count.logs, "log")), \(verdicts.joined(separator: ", "))")
    }
    return lines.joined(separator: "\n")
  }
}

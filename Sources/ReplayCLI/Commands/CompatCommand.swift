import Foundation
import Rewind
import RewindJSON
import RewindReplay

extension CommandContext {
  /// `replay compat LOG… [--json] [--no-migrations]`.
  func runCompat() throws(CommandFailure) -> Int32 {
    let paths = arguments.positionals("LOG").flatMap(Self.logFiles(in:))
    let migrates = !arguments.flag("no-migrations")
    var results: [CompatResult] = []
    for path in paths {
      results.append(check(path, migrates: migrates))
    }
    if wantsJSON {
      output.writeLine(
        JSONValue.object([
          JSONMember("compatible", .bool(results.allSatisfy { $0.report?.isCompatible == true })),
          JSONMember("logs", .array(results.map(\.json))),
        ]).jsonText)
    } else {
      for result in results { output.writeLine(result.text) }
      if results.count > 1 { output.writeLine(CompatResult.byBuild(results)) }
    }
    if results.contains(where: { $0.report == nil }) { return ExitStatus.trouble }
    return results.allSatisfy { $0.report?.isCompatible == true }
      ? ExitStatus.success : ExitStatus.different
  }

  /// The log files a `LOG` argument names: itself, or every `.jsonl` file in a folder, sorted.
  static func logFiles(in path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return [path] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    let base = path.hasSuffix("/") ? path : path + "/"
    return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { base + $0 }
  }

  private func check(_ path: String, migrates: Bool) -> CompatResult {
    let log: ReplayLog
    do {
      log = try ReplayLog(path: path, recovery: recovery)
    } catch {
      return CompatResult(path: path, log: nil, report: nil, problem: error.message)
    }
    guard let app = apps.first(where: { $0.name == log.header.app }) else {
      return CompatResult(
        path: path, log: log, report: nil,
        problem: "this replay binary does not know the app \"\(log.header.app)\"; check it with "
          + "a replay binary that registers it (docs/embedding.md)")
    }
    var read = log
    if migrates {
      do { read = try app.prepared(log) } catch {
        return CompatResult(path: path, log: log, report: nil, problem: error.message)
      }
    }
    let note = migrates ? nil : app.migrationPlan(for: log)
    return CompatResult(
      path: path, log: read, report: app.compatibility(of: read), problem: nil,
      skippedMigrations: note)
  }
}

/// One log's line of `replay compat`.
struct CompatResult {
  var path: String
  var log: ReplayLog?
  /// `nil` when the log could not be checked (``problem`` says why).
  var report: CompatibilityReport?
  var problem: String?
  /// With `--no-migrations`: the migrations that were not applied.
  var skippedMigrations: MigrationChain.Plan?

  private var recordedBy: String {
    log.flatMap(BuildComparison.recordedBy) ?? "no build stamp"
  }

  private var readAs: String {
    if let migration = log?.migration {
      return "read through the migrations \(migration.description)"
    }
    if case .migrate(let chain)? = skippedMigrations {
      return "read as recorded (--no-migrations; the migrations \(chain.description) are off)"
    }
    return "read as recorded"
  }

  var text: String {
    guard let report else { return "\(inert(path)): cannot check: \(inert(problem ?? "?"))" }
    var lines = ["\(inert(path)): recorded by \(inert(recordedBy)); \(readAs)"]
    if !report.failingTypes.isEmpty {
      var rows = [["type", "lines", "first seq", "line", "path", "reason"]]
      for failing in report.failingTypes {
        rows.append([
          failing.type, String(failing.count), String(failing.firstSeq), String(failing.line),
          failing.codingPath.isEmpty ? "-" : failing.codingPath, failing.reason,
        ])
      }
      lines += Self.table(rows).map { "  " + inert($0) }
    }
    for state in report.failingStates {
      let path = state.codingPath.isEmpty ? "" : "\(state.codingPath): "
      lines.append(
        "  the \(state.what) (line \(state.line)) does not decode: \(inert(path + state.reason))")
    }
    let actions =
      report.failingActions == 0
      ? "all \(report.actionsChecked) actions decode"
      : "\(report.failingActions) of \(report.actionsChecked) actions do not decode"
    let states =
      report.failingStates.isEmpty
      ? "all \(report.statesChecked) states decode"
      : "\(report.failingStates.count) of \(report.statesChecked) states do not"
    lines.append("  \(actions); \(states)")
    return lines.joined(separator: "\n")
  }

  var json: JSONValue {
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    var members: [JSONMember] = [
      JSONMember("path", .string(path)),
      JSONMember("app", log.map { .string($0.header.app) } ?? .null),
      JSONMember("build", log?.header.build?.json ?? .null),
      JSONMember("migratedFrom", log?.migration.map { number($0.from) } ?? .null),
    ]
    guard let report else {
      members.append(JSONMember("compatible", .bool(false)))
      members.append(JSONMember("error", .string(problem ?? "")))
      return .object(members)
    }
    members += [
      JSONMember("compatible", .bool(report.isCompatible)),
      JSONMember("actions", number(report.actionsChecked)),
      JSONMember("failingActions", number(report.failingActions)),
      JSONMember(
        "failing",
        .array(
          report.failingTypes.map { failing in
            .object([
              JSONMember("type", .string(failing.type)),
              JSONMember("count", number(failing.count)),
              JSONMember("firstSeq", number(failing.firstSeq)),
              JSONMember("line", number(failing.line)),
              JSONMember("path", .string(failing.codingPath)),
              JSONMember("reason", .string(failing.reason)),
            ])
          })),
      JSONMember("states", number(report.statesChecked)),
      JSONMember(
        "failingStates",
        .array(
          report.failingStates.map { state in
            .object([
              JSONMember("what", .string(state.what)),
              JSONMember("line", number(state.line)),
              JSONMember("path", .string(state.codingPath)),
              JSONMember("reason", .string(state.reason)),
            ])
          })),
    ]
    return .object(members)
  }

  /// Which builds' logs decode: one line per build stamp.
  static func byBuild(_ results: [CompatResult]) -> String {
    var order: [String] = []
    var counts: [String: (logs: Int, readable: Int)] = [:]
    for result in results {
      let build = result.recordedBy
      if counts[build] == nil { order.append(build) }
      var count = counts[build, default: (0, 0)]
      count.logs += 1
      if result.report?.isCompatible == true { count.readable += 1 }
      counts[build] = count
    }
    var lines = ["by build:"]
    for build in order {
      let count = counts[build, default: (0, 0)]
      let verdict =
        count.readable == count.logs
        ? "all decode" : "\(count.logs - count.readable) do not decode"
      lines.append(
        "  \(inert(build)): \(count.logs) log\(count.logs == 1 ? "" : "s"), \(verdict)")
    }
    return lines.joined(separator: "\n")
  }

  /// Rows as columns two spaces apart (the last column unpadded).
  private static func table(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? displayWidth(of: $0[column]) : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.enumerated().map { index, cell in
        index == row.count - 1
          ? cell : cell + String(repeating: " ", count: widths[index] - displayWidth(of: cell))
      }.joined(separator: "  ")
    }
  }
}

import RewindJSON
import RewindReplay

/// Decodes every recorded action and state of the service's log with its app's types, through
/// the app's migrations unless they are off, without running the reducer (`replay compat`, and
/// `compat` in a session). Answered with a ``CompatResponse``: a log this binary cannot check (an
/// unknown app, a migration that throws) is answered too, with the reason, so that a report of
/// many logs has a line for each.
package struct CompatRequest: ReplayRequest, Equatable {
  /// Whether the app's migrations are applied (`false` for `--no-migrations`).
  package var migrates: Bool

  /// A check through the migrations, or (`migrates: false`) of the log as recorded.
  package init(migrates: Bool = true) {
    self.migrates = migrates
  }

  /// Never fails: a log it cannot check is answered with the reason.
  package func run(on service: ReplayService) -> CompatResponse {
    let opened = service.opened
    let recorded = opened.recordedLog
    guard let app = opened.app else {
      return CompatResponse(
        path: recorded.path, log: recorded, report: nil,
        problem: "this replay binary does not know the app \"\(recorded.header.app)\"; check "
          + "it with a replay binary that registers it (docs/embedding.md)")
    }
    var read = recorded
    if migrates {
      // The log as opened is read through the migrations already; preparing it again gives the
      // error of a migration that failed.
      do { read = try app.prepared(opened.log) } catch {
        return CompatResponse(
          path: recorded.path, log: recorded, report: nil, problem: error.message)
      }
    }
    return CompatResponse(
      path: recorded.path, log: read, report: app.compatibility(of: read), problem: nil,
      plan: app.migrationPlan(for: recorded), migrates: migrates)
  }

  /// `compat [--no-migrations]`.
  static let command = ReplayCommand(
    name: "compat", alias: "co", usage: "compat [--no-migrations]",
    summary: "check that every recorded action and state still decodes",
    details: "Decodes every action and state of the log with this binary's types (through the "
      + "app's migrations, unless --no-migrations) without running the reducer, and names each "
      + "type that no longer decodes with its first seq, line and coding path. As 'replay "
      + "compat LOG'."
  ) { words, _ throws(ReplayFailure) in
    switch words {
    case []: return CompatRequest()
    case ["--no-migrations"]: return CompatRequest(migrates: false)
    default: throw .usage("usage: compat [--no-migrations]")
    }
  }
}

/// What `compat` found for one log.
package struct CompatResponse: ReplayResponse {
  /// The name the report gives the log: its path, or a session of rotated files.
  package var path: String
  /// The log as checked (through the migrations when they ran), or `nil` when it could not be
  /// read.
  package var log: ReplayLog?
  /// What decodes, or `nil` when the log could not be checked (``problem`` says why).
  package var report: CompatibilityReport?
  /// Why the log could not be checked.
  package var problem: String?
  /// How the app reads the log's schema.
  package var plan: MigrationChain.Plan
  /// Whether migrations were applied (not `--no-migrations`).
  package var migrates: Bool

  /// The report of a log: checked (`report`), or not (`problem`).
  package init(
    path: String, log: ReplayLog?, report: CompatibilityReport?, problem: String?,
    plan: MigrationChain.Plan = .none, migrates: Bool = true
  ) {
    self.path = path
    self.log = log
    self.report = report
    self.problem = problem
    self.plan = plan
    self.migrates = migrates
  }

  /// Whether the log was checked and everything in it decodes.
  package var isCompatible: Bool { report?.isCompatible == true }

  /// `{"path", "app", "build", "migratedFrom", "newerThanReplay", "unreadLines", "compatible",
  /// "actions", "failingActions", "failing", "states", "failingStates"}`, or for a log that
  /// could not be checked `{…, "compatible": false, "error"}`.
  package var jsonValue: JSONValue {
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    var members: [JSONMember] = [
      JSONMember("path", .string(path)),
      JSONMember("app", log.map { .string($0.header.app) } ?? .null),
      JSONMember("build", log?.header.build?.json ?? .null),
      JSONMember("migratedFrom", log?.migration.map { number($0.from) } ?? .null),
      JSONMember(
        "newerThanReplay", .bool({ if case .logIsNewer = plan { true } else { false } }())),
      JSONMember(
        "unreadLines",
        .array(
          (log?.faults ?? []).map { fault in
            .object([
              JSONMember("line", number(fault.line)),
              JSONMember("reason", .string(fault.reason.summary)),
            ])
          })),
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
}

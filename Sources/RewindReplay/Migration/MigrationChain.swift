import Rewind
import RewindJSON

/// The migrations that take a log recorded with one schema version to the replay app's: the
/// app's ``SchemaMigration``s from the log's version up, in order.
public struct MigrationChain: Sendable {
  /// The log's schema version.
  public let from: Int
  /// The app's schema version.
  public let to: Int
  private let migrations: [SchemaMigration]

  /// What reading a log of one schema with an app of another takes.
  public enum Plan: Sendable {
    /// Nothing: the same schema, or one side has none (a log from before stamps).
    case none
    /// These migrations, in order.
    case migrate(MigrationChain)
    /// The app declares no migration from schema `gap` (to `gap + 1`): the log is read as it
    /// is, and lines that changed shape will not decode.
    case missing(from: Int, to: Int, gap: Int)
    /// The log is newer than the app: a newer replay binary is needed for what changed.
    case logIsNewer(log: Int, app: Int)
  }

  /// How a log of schema `log` is read by an app of schema `app` with `migrations`.
  public static func plan(log: Int?, app: Int?, migrations: [SchemaMigration]) -> Plan {
    guard let log, let app, log != app else { return .none }
    guard log < app else { return .logIsNewer(log: log, app: app) }
    var chain: [SchemaMigration] = []
    for version in log..<app {
      guard let step = migrations.first(where: { $0.from == version }) else {
        return .missing(from: log, to: app, gap: version)
      }
      chain.append(step)
    }
    return .migrate(MigrationChain(from: log, to: app, migrations: chain))
  }

  /// `1 → 2 → 3`.
  public var description: String {
    (from...to).map(String.init).joined(separator: " → ")
  }

  /// Migrates an action's JSON.
  /// - Throws: ``MigrationFailure`` naming the step that threw.
  func migrateAction(_ value: inout JSONValue) throws(MigrationFailure) {
    for migration in migrations {
      try Self.run(migration.actions, from: migration.from, on: &value)
    }
  }

  /// Migrates a state's JSON.
  /// - Throws: ``MigrationFailure`` naming the step that threw.
  func migrateState(_ value: inout JSONValue) throws(MigrationFailure) {
    for migration in migrations {
      try Self.run(migration.states, from: migration.from, on: &value)
    }
  }

  /// `action` after the chain: its payload migrated and, when a step changed it, marked
  /// ``RecordedAction/isMigrated`` and its type named anew from the payload.
  /// - Throws: `ReplayError.migrationFailed` naming the step, the log `path` and the line.
  public func migrated(_ action: RecordedAction, in path: String) throws(ReplayError)
    -> RecordedAction
  {
    guard var payload = action.payload else { return action }
    do {
      try migrateAction(&payload)
    } catch {
      throw .migrationFailed(
        path: path, line: action.line, what: "action \(action.seq)", failure: error)
    }
    // Marked only when a step changed it: an action the migrations left alone is what the app
    // wrote.
    guard payload != action.payload else { return action }
    var action = action
    action.payload = payload
    action.isMigrated = true
    switch payload {
    case .object(let members) where members.count == 1: action.type = members[0].key
    case .string(let text): action.type = text
    default: break
    }
    return action
  }

  /// `state` after the chain.
  /// - Throws: `ReplayError.migrationFailed` naming the step, `what` state and where it is.
  public func migratedState(_ state: JSONValue, in path: String, line: Int, what: String)
    throws(ReplayError) -> JSONValue
  {
    var migrated = state
    do {
      try migrateState(&migrated)
    } catch {
      throw .migrationFailed(path: path, line: line, what: what, failure: error)
    }
    return migrated
  }

  private static func run(
    _ steps: [MigrationStep], from version: Int, on value: inout JSONValue
  ) throws(MigrationFailure) {
    for step in steps {
      do {
        try step.apply(to: &value)
      } catch {
        throw MigrationFailure(step: step.name, from: version, reason: "\(error)")
      }
    }
  }
}

/// A migration step that threw: which step, of the migration from which schema, and why.
public struct MigrationFailure: Error, Sendable, Equatable, Codable {
  /// The step's name (`rename key text → title in add`, or a custom step's own).
  public var step: String
  /// The schema version the migration goes from.
  public var from: Int
  /// What the step threw.
  public var reason: String
}

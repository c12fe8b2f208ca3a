import Rewind
import RewindJSON

/// An app that a replay binary knows: its name (the log header's `app`) and how to build a
/// timeline with its reducer.
///
/// ```swift
/// let todo = ReplayApp(name: "todo", reducer: todoReducer)
/// ```
public struct ReplayApp: Sendable {
  /// The app's name, as the recorder wrote it in the header's `app`.
  public let name: String
  /// The name of the app's `Action` type.
  public let actionType: String
  /// The name of the app's `State` type.
  public let stateType: String
  /// The build this replay binary has of the app: its version and schema version, compared with
  /// a log's stamp to say when the log comes from another build.
  public let build: BuildStamp?
  /// The app's schema migrations (``SchemaMigration``), applied to logs of older schemas.
  public let migrations: [SchemaMigration]
  /// The app's initial state, as JSON, when the registration gives one: where `replay import`
  /// starts a Redux DevTools actions export that has no `preloadedState`. Encoded when asked, so
  /// that registering an app costs a `replay` process's start no encoding.
  public var defaultState: JSONValue? { encodeDefaultState() }
  private let encodeDefaultState: @Sendable () -> JSONValue?
  private let make: @Sendable (ReplayLog, Bool, LogCoder) -> any ReplayTimeline
  /// A result rather than a typed-throws function: the runtime metadata of a function type with
  /// typed throws needs macOS 15.
  private let check: @Sendable (ReplayLog) -> CompatibilityReport
  private let makeFollower: @Sendable (JSONValue) -> Result<any StateFollower, ReplayError>

  /// Registers an app by name with its reducer; optionally its initial state (where an import
  /// without one starts), and the build it is (its version and schema version) with the
  /// migrations from older schemas (docs/replay.md, "A log from an older build").
  public init<State: Codable & Sendable, Action: Codable & Sendable>(
    name: String, reducer: Reducer<State, Action>, initialState: State? = nil,
    build: BuildStamp? = nil, migrations: [SchemaMigration] = []
  ) {
    self.name = name
    self.encodeDefaultState = { initialState.flatMap { try? RewindJSONEncoder().encodeValue($0) } }
    self.build = build
    self.migrations = migrations
    self.check = { log in CompatibilityChecker<State, Action>().check(log) }
    self.actionType = LogTypeName.of(Action.self)
    self.stateType = LogTypeName.of(State.self)
    self.make = { log, usesCheckpoints, coder in
      Timeline(log: log, reducer: reducer, usesCheckpoints: usesCheckpoints, coder: coder)
    }
    self.makeFollower = { state in
      Result { () throws(ReplayError) -> any StateFollower in
        try TypedStateFollower(reducer: reducer, initialState: state)
      }
    }
  }

  /// The app among `apps` that recorded a log with `header`: the one with its app name, and
  /// where several apps share that name (a binary that registers two features called
  /// `"counter"`), the one whose action and state type names are the log's too. `nil` when no
  /// app has the name; the first of the name when none has its types, so that opening the log
  /// says which types it wanted.
  public static func recording(_ header: LogHeader, among apps: [ReplayApp]) -> ReplayApp? {
    recording(
      app: header.app, actionType: header.actionType, stateType: header.stateType, among: apps)
  }

  /// The app among `apps` named `app` whose type names are `actionType` and `stateType`, as
  /// ``recording(_:among:)`` finds it for a header with them.
  public static func recording(
    app: String, actionType: String, stateType: String, among apps: [ReplayApp]
  ) -> ReplayApp? {
    let named = apps.filter { $0.name == app }
    guard named.count > 1 else { return named.first }
    return named.first { $0.actionType == actionType && $0.stateType == stateType } ?? named.first
  }

  /// A follower that applies actions as they arrive, starting from `initialState`.
  /// - Throws: `ReplayError.stateDecodingFailed` when the state does not decode.
  public func follower(initialState: JSONValue) throws(ReplayError) -> any StateFollower {
    try makeFollower(initialState).get()
  }

  /// How a log of this app is read: as it is, through migrations, or with a schema the app
  /// cannot migrate from (docs/replay.md, "A log from an older build").
  public func migrationPlan(for log: ReplayLog) -> MigrationChain.Plan {
    migrationPlan(for: log.header)
  }

  /// How a log with `header` is read by this app (a file being followed, before any index).
  public func migrationPlan(for header: LogHeader) -> MigrationChain.Plan {
    MigrationChain.plan(log: header.build?.schema, app: build?.schema, migrations: migrations)
  }

  /// `log` as this app reads it: through its migrations when the log's schema is older.
  /// - Throws: `ReplayError.migrationFailed` when a step throws on the header's state.
  public func prepared(_ log: ReplayLog) throws(ReplayError) -> ReplayLog {
    guard log.migration == nil, case .migrate(let chain) = migrationPlan(for: log) else {
      return log
    }
    return try log.migrated(by: chain)
  }

  /// Decodes every action and state of `log` with the app's types, without running the reducer
  /// (`replay compat`). `log` is read as given: pass ``prepared(_:)``'s result to check it
  /// through the migrations.
  public func compatibility(of log: ReplayLog) -> CompatibilityReport {
    check(log)
  }

  /// A timeline over `log` with this app's reducer.
  ///
  /// - Parameter usesCheckpoints: Start rebuilding from recorded checkpoints (`true`), or from
  ///   the header only (`false`: every state comes from the reducer, as `verify` needs).
  /// - Parameter coder: The JSON coder for actions and checkpoints (see ``Timeline``).
  /// The log is read through the app's migrations when its schema is older (``prepared(_:)``).
  /// - Throws: `ReplayError.appMismatch` when the log's header names another app or other types;
  ///   `.migrationFailed` when a migration step throws on the header's state.
  public func timeline(
    for log: ReplayLog, usesCheckpoints: Bool = true, coder: LogCoder = .rewind
  ) throws(ReplayError) -> any ReplayTimeline {
    guard log.header.app == name, log.header.actionType == actionType,
      log.header.stateType == stateType
    else {
      throw .appMismatch(
        path: log.path, logApp: log.header.app,
        logTypes: "\(log.header.stateType), \(log.header.actionType)", expected: name,
        expectedTypes: "\(stateType), \(actionType)")
    }
    return make(try prepared(log), usesCheckpoints, coder)
  }
}

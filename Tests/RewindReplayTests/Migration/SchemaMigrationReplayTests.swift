import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// Logs from other builds: a chain of migrations across three schemas, a step that throws, a log
/// newer than the app, unstamped logs read as before, the worked todo example, and
/// `compatibility(of:)`.
@Suite struct SchemaMigrationReplayTests {
  /// A list app over three schemas: an item's name was `label` (1), then `text` (2), now `name`.
  enum V1 {
    struct Item: Codable, Sendable { var label: String }
    struct State: Codable, Sendable { var items: [Item] = [] }
    enum Action: Codable, Sendable { case add(label: String) }
    static let reducer = Reducer<State, Action> { state, action in
      if case .add(let label) = action { state.items.append(Item(label: label)) }
    }
  }

  enum Today {
    struct Item: Codable, Sendable, Equatable { var name: String }
    struct State: Codable, Sendable, Equatable { var items: [Item] = [] }
    enum Action: Codable, Sendable { case add(name: String) }
    static let reducer = Reducer<State, Action> { state, action in
      if case .add(let name) = action { state.items.append(Item(name: name)) }
    }
  }

  static let migrations = [
    SchemaMigration(
      from: 1, actions: [.renameKey("label", to: "text", in: "add")],
      states: [.renameKey("label", to: "text", in: "items[]")]),
    SchemaMigration(
      from: 2, actions: [.renameKey("text", to: "name", in: "add")],
      states: [.renameKey("text", to: "name", in: "items[]")]),
  ]

  static func app(schema: Int = 3, migrations: [SchemaMigration] = migrations) -> ReplayApp {
    ReplayApp(
      name: "list", reducer: Today.reducer, build: BuildStamp(version: "3.0", schema: schema),
      migrations: migrations)
  }

  /// Records a schema-1 session of `count` adds, a checkpoint every 2.
  static func recordV1(to path: String, count: Int = 5, schema: Int? = 1) throws {
    let store = Store(initialState: V1.State(), reducer: V1.reducer)
    let recorder = try store.startRecording(
      to: path, app: "list",
      options: RecordingOptions(
        checkpointInterval: 2, build: BuildStamp(version: "1.0", schema: schema)))
    for n in 1...count { store.dispatch(.add(label: "item \(n)")) }
    recorder.close()
  }

  @Test func aLogOfSchemaOneReplaysThroughTwoMigrations() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("v1.jsonl").path
      try Self.recordV1(to: path)
      let log = try ReplayLog(path: path)
      #expect(log.header.build == BuildStamp(version: "1.0", schema: 1))
      guard case .migrate(let chain) = Self.app().migrationPlan(for: log) else {
        Issue.record("no migration planned")
        return
      }
      #expect(chain.description == "1 → 2 → 3")
      let timeline = try Self.app().timeline(for: log)
      let last = try #require(try timeline.stateJSON(at: 5)["items"])
      #expect(last == .array((1...5).map { .object([JSONMember("name", .string("item \($0)"))]) }))
      // Every checkpoint, migrated, matches the state the reducer rebuilds.
      let verify = try Verifier.verify(Self.app().timeline(for: log, usesCheckpoints: false))
      #expect(verify.isReproduced)
      #expect(verify.checkpointsCompared == 3)
      // Actions read through the migrations are marked.
      let migrated = try Self.app().prepared(log)
      let action = try migrated.action(at: 1)
      #expect(action.isMigrated)
      #expect(
        action.payload
          == .object([JSONMember("add", .object([JSONMember("name", .string("item 1"))]))]))
      #expect(try !log.action(at: 1).isMigrated)
    }
  }

  struct Refused: Error, CustomStringConvertible {
    var description: String { "no label" }
  }

  @Test func aStepThatThrowsGivesAPositionedErrorNamingIt() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("v1.jsonl").path
      try Self.recordV1(to: path)
      let throwing = [
        SchemaMigration(
          from: 1,
          actions: [
            MigrationStep("check the label") { value in
              if value["add"]?["label"]?.stringValue == "item 3" { throw Refused() }
            }
          ] + Self.migrations[0].actions, states: Self.migrations[0].states),
        Self.migrations[1],
      ]
      let timeline = try Self.app(migrations: throwing).timeline(for: ReplayLog(path: path))
      #expect(throws: Never.self) { try timeline.stateJSON(at: 2) }
      do throws(ReplayError) {
        _ = try timeline.stateJSON(at: 3)
        Issue.record("the step did not throw")
      } catch {
        guard case .migrationFailed(let file, let line, let what, let failure) = error else {
          Issue.record("unexpected \(error)")
          return
        }
        #expect(file == path)
        let expectedLine = try ReplayLog(path: path).entry(seq: 3)?.line
        #expect(line == expectedLine)
        #expect(what == "action 3")
        #expect(failure == MigrationFailure(step: "check the label", from: 1, reason: "no label"))
        #expect(
          error.message
            == "the migration from schema 1 failed on the action 3: step \"check the label\" "
            + "threw: no label")
      }
    }
  }

  @Test func plansForNewerLogsMissingStepsAndUnstampedLogs() throws {
    try withScratchDirectory { directory in
      let newer = directory.appendingPathComponent("v4.jsonl").path
      try Self.recordV1(to: newer, schema: 4)
      guard case .logIsNewer(4, 3) = Self.app().migrationPlan(for: try ReplayLog(path: newer))
      else {
        Issue.record("a newer log is not recognised")
        return
      }
      let old = directory.appendingPathComponent("v1.jsonl").path
      try Self.recordV1(to: old)
      guard
        case .missing(1, 3, 2) = Self.app(migrations: [Self.migrations[0]])
          .migrationPlan(for: try ReplayLog(path: old))
      else {
        Issue.record("a missing step is not recognised")
        return
      }
      // No stamp: read as before, untouched.
      let unstamped = directory.appendingPathComponent("unstamped.jsonl").path
      try Self.recordV1(to: unstamped, schema: nil)
      let log = try ReplayLog(path: unstamped)
      #expect(log.header.build == BuildStamp(version: "1.0"))
      guard case .none = Self.app().migrationPlan(for: log) else {
        Issue.record("an unstamped log is migrated")
        return
      }
      #expect(try Self.app().prepared(log) === log)
      let fixture = try ReplayLog(path: LogFixture.path("todo-session.jsonl"))
      #expect(fixture.header.build == nil)
    }
  }

  @Test func theTodoLogOfSchemaOneReachesTheStateOfTheSameSessionToday() throws {
    let app = ReplayApp(
      name: "todo", reducer: todoReducer, build: BuildStamp(schema: todoSchema),
      migrations: todoMigrations)
    let log = try ReplayLog(path: LogFixture.path("todo-v1.jsonl"))
    #expect(log.header.build?.schema == 1)
    let replayed = try app.timeline(for: log).stateJSON(at: log.lastSeq)
    var today = TodoState()
    for action in TodoSchemaV1.session { todoReducer.reduce(&today, TodoSchemaV1.today(action)) }
    #expect(replayed == (try RewindJSONEncoder().encodeValue(today)))
    #expect(log.lastSeq == TodoSchemaV1.session.count)
  }

  @Test func compatibilityNamesEachFailingTypeWithItsFirstSeqPathAndReason() throws {
    let app = ReplayApp(
      name: "todo", reducer: todoReducer, build: BuildStamp(schema: todoSchema),
      migrations: todoMigrations)
    let log = try ReplayLog(path: LogFixture.path("todo-v1.jsonl"))
    let raw = app.compatibility(of: log)
    #expect(!raw.isCompatible)
    #expect(raw.actionsChecked == 13)
    #expect(
      raw.failingTypes == [
        .init(
          type: "add", count: 6, firstSeq: 1, line: 2, codingPath: "add.title",
          reason: "key not found"),
        .init(
          type: "archive", count: 2, firstSeq: 6, line: 7 + 1, codingPath: "",
          reason: "TodoAction has no case 'archive' (renamed or removed?)"),
      ])
    #expect(raw.statesChecked == 4)
    #expect(
      raw.failingStates.map(\.what) == [
        "checkpoint at seq 5", "checkpoint at seq 10", "checkpoint at seq 13",
      ])
    #expect(raw.failingStates.first?.codingPath == "todos[0].title")
    let migrated = app.compatibility(of: try app.prepared(log))
    #expect(migrated.isCompatible)
    #expect(migrated.actionsChecked == 13)
    // A sound log of today's schema, large enough to be checked on every core.
    let session = app.compatibility(of: try ReplayLog(path: LogFixture.path("todo-session.jsonl")))
    #expect(session.isCompatible)
    #expect(session.actionsChecked == 340)
  }
}

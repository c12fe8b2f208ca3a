import Foundation
import Observation
import Rewind
import RewindExamples
import RewindReplay
import StoreRecipes
import Testing

/// The recipes for a TCA-style reducer, an `@Observable` store of the app's own, and an app
/// with several stores: each records through the recipe and replays with `assertReplays`.
@Suite struct OtherStoreRecipeTests {
  @Test func aTCAStyleFeatureRecordsEveryActionItsEffectsSendAndReplaysWithoutThem() throws {
    let path = RecipeLog.temporaryPath("tca")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, recorder) = try makeRecordedCounterFeatureStore(path: path)
    store.send(.increment)
    store.send(.increment)
    store.send(.factButtonTapped)
    store.send(.decrement)
    recorder.close(finalState: store.state)

    #expect(store.state.fact == "2 is a good number")
    #expect(
      try RecipeLog.actionTypes(path) == [
        "increment", "increment", "factButtonTapped", "factResponse", "decrement",
      ])
    // Had the replay reducer run the effect too, `factResponse` would be applied twice and the
    // final checkpoint would not match.
    try assertReplays(
      path, app: "tca-counter", reducer: counterFeatureReplayReducer, finalState: store.state)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
  @Test func anObservableStoreOfTheAppsOwnRecordsAndStillNotifiesItsViews() throws {
    let path = RecipeLog.temporaryPath("observable")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try ObservableTodoStore(recordingTo: path)
    let changes = Counter()
    withObservationTracking {
      _ = store.state
    } onChange: {
      changes.add()
    }
    let first = #line + 1
    store.dispatch(.add(title: "milk"))
    store.dispatch(.add(title: "eggs"))
    store.dispatch(.toggle(id: 1))
    store.stopRecording()

    #expect(changes.value == 1)
    #expect(try RecipeLog.actionTypes(path) == ["add", "add", "toggle"])
    // Each line says where the test dispatched it.
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in first...(first + 2) {
      #expect(text.contains(#""site":"StoreRecipesTests/OtherStoreRecipeTests.swift:\#(line)""#))
    }
    try assertReplays(path, app: "todo", reducer: todoReducer, finalState: store.state)
  }

  @Test func severalStoresRecordOneLogEachThatReplaysWithItsOwnReducer() throws {
    let folder = NSTemporaryDirectory() + "rewind-recipe-stores-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let app = try TwoStoreApp(recordingIn: folder)
    app.todos.dispatch(.add(title: "milk"))
    app.counter.dispatch(.increment)
    app.todos.dispatch(.toggle(id: 1))
    app.counter.dispatch(.add(5))
    app.stopRecording()

    #expect(try RecipeLog.actionTypes(folder + "/todo.jsonl") == ["add", "toggle"])
    #expect(try RecipeLog.actionTypes(folder + "/counter.jsonl") == ["increment", "add"])
    try assertReplays(
      folder + "/todo.jsonl", app: "todo", reducer: todoReducer, finalState: app.todos.state)
    try assertReplays(
      folder + "/counter.jsonl", app: "counter", reducer: counterReducer,
      finalState: app.counter.state)
    // The two logs name their own stores; replay refuses to mix them up.
    let log = try ReplayLog(path: folder + "/counter.jsonl")
    #expect(throws: ReplayError.self) {
      try ReplayApp(name: "todo", reducer: todoReducer).timeline(for: log)
    }
  }
}

/// A count that an observation callback raises.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// docs/apple.md's launch-time check: the previous launch's log when it ended badly, one file.
@Suite struct LastCrashRecipeTests {
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
  @Test func theLogOfALaunchThatEndedBadlyIsOfferedAndACleanOneIsNot() throws {
    let path = NSTemporaryDirectory() + "rewind-recipe-folder-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let folder = RecordingsFolder(path: path)
    // A launch that closed cleanly: nothing to offer.
    let clean = try ObservableTodoStore(recordingIn: folder)
    clean.dispatch(.add(title: "milk"))
    clean.stopRecording()
    #expect(logOfLastCrash(in: folder, app: "todo") == nil, "this launch's own session")

    // Another launch's session, cut off (as a kill leaves it): written by hand, with an older
    // name, so that it is not this process's.
    let crashed = path + "/2026-01-01T00-00-00-000Z-todo-0001.jsonl"
    let recorder = try Recorder<TodoState, TodoAction>(
      path: crashed, app: "todo", initialState: TodoState())
    recorder.willReduce(.add(title: "eggs"))
    let text = try String(contentsOfFile: crashed, encoding: .utf8)
    recorder.close()
    try text.write(toFile: crashed, atomically: true, encoding: .utf8)  // no end record
    let url = try #require(logOfLastCrash(in: folder, app: "todo"))
    #expect(url.lastPathComponent == "2026-01-01T00-00-00-000Z-todo-0001.jsonl")
    let log = try ReplayLog(path: url.path)
    #expect(log.lastSeq == 1)
    #expect(!log.hasEndRecord)
  }
}

/// docs/apple.md shows `logOfLastCrash(in:app:)` word for word as the compiled recipe has it.
@Suite struct AppleDocTests {
  @Test func theCrashHelperInTheDocsIsTheCompiledOne() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let doc = try String(
      contentsOf: root.appendingPathComponent("docs/apple.md"), encoding: .utf8)
    let source = try String(
      contentsOf: root.appendingPathComponent("Sources/StoreRecipes/LastCrash.swift"),
      encoding: .utf8)
    func function(in text: String) -> String? {
      guard let start = text.range(of: "func logOfLastCrash(") else { return nil }
      guard let end = text[start.lowerBound...].range(of: "\n}\n") else { return nil }
      return String(text[start.lowerBound..<end.upperBound])
    }
    let documented = try #require(function(in: doc))
    #expect(documented == function(in: source))
  }
}

import Foundation
import ReSwiftStandIn
import Rewind
import RewindJSON
import RewindReplay
import StoreRecipes
import Testing

/// The ReSwift recipe: protocol-typed actions recorded through an ``ActionCatalog`` with the
/// reducer wrapped, nested dispatches from a subscriber in the order the reducer saw them, an
/// unlisted action type reported and marked, and the log replayed with the app's reducer.
@Suite struct ReSwiftRecipeTests {
  @Test func aReSwiftAppRecordsAndReplaysThroughTheRecipe() throws {
    let path = RecipeLog.temporaryPath("reswift")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, recorder) = try makeRecordedReSwiftStore(path: path)
    let counter = CompletionCounter(store: store)
    store.subscribe(counter)
    for title in ["milk", "eggs", "bread"] { store.dispatch(AddTodo(title: title)) }
    store.dispatch(ToggleTodo(id: 1))
    store.dispatch(RemoveTodo(id: 2))
    store.dispatch(ToggleTodo(id: 3))
    let finalState = try #require(store.state)
    recorder.close(finalState: finalState)

    #expect(finalState.completedCount == 2)
    #expect(
      try RecipeLog.actionTypes(path) == [
        "AddTodo", "AddTodo", "AddTodo", "ToggleTodo", "ItemCompleted", "RemoveTodo",
        "ToggleTodo", "ItemCompleted",
      ])
    let add = try #require(RecipeLog.records(path).first { $0["kind"] as? String == "action" })
    #expect((add["action"] as? [String: Any])?["AddTodo"] as? [String: String] == ["title": "milk"])
    let report = try assertReplays(
      path, app: "reswift-todo", reducer: reSwiftTodoReplayReducer, finalState: finalState)
    #expect(report.checkpointsCompared == 1)
  }

  @Test func everyCheckpointHoldsTheStateOfItsOwnActionThoughSubscribersDispatch() throws {
    let path = RecipeLog.temporaryPath("reswift-interval")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder(
      path: path, app: "reswift-todo", initialState: ReSwiftTodoState(),
      actions: RecordedActions.self, options: RecordingOptions(checkpointInterval: 1))
    let store = ReSwiftStandIn.Store(reducer: recorder.recording(reSwiftTodoReducer), state: nil)
    let counter = CompletionCounter(store: store)
    store.subscribe(counter)
    for id in 1...4 { store.dispatch(AddTodo(title: "item \(id)")) }
    for id in 1...4 { store.dispatch(ToggleTodo(id: id)) }
    recorder.close()

    #expect(try RecipeLog.checkpointSeqs(path) == Array(1...12))
    #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("state-skipped"))
    // verify compares all 12 checkpoints with the states the reducer rebuilds.
    let report = try assertReplays(path, reducer: reSwiftTodoReplayReducer)
    #expect(report.checkpointsCompared == 12)
  }

  /// An action type missing from the catalog.
  struct Unlisted: Action, Codable, Sendable {
    var note: String
  }

  @Test func anActionTypeMissingFromTheCatalogIsMarkedAndReportedOnce() throws {
    let path = RecipeLog.temporaryPath("reswift-unlisted")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let errors = ErrorList()
    let (store, recorder) = try makeRecordedReSwiftStore(path: path, onError: errors.append)
    store.dispatch(AddTodo(title: "milk"))
    store.dispatch(Unlisted(note: "one"))
    store.dispatch(Unlisted(note: "two"))
    store.dispatch(AddTodo(title: "eggs"))
    recorder.close()

    let reported = errors.all
    #expect(reported.count == 1)
    let error = try #require(reported.first)
    #expect(
      error.reason
        == .actionTypeNotRecordable(
          seq: 2, type: "Unlisted", catalog: "RecordedActions", sharesName: false))
    #expect(!error.stopsRecording)
    #expect(
      error.description.hasPrefix(
        "Rewind recorder: action 2 has type Unlisted, which is not in RecordedActions.types"))
    #expect(
      error.description.contains("declare Unlisted Codable and Sendable (both) in the target"))
    let skipped = try RecipeLog.records(path).filter { $0["kind"] as? String == "skipped" }
    #expect(skipped.map { $0["seq"] as? Int } == [2, 3])
    #expect(skipped.allSatisfy { $0["reason"] as? String == "unregistered" })
    #expect(try RecipeLog.actionTypes(path) == ["AddTodo", "Unlisted", "Unlisted", "AddTodo"])
    // The log stays readable; replay knows actions 2 and 3 are missing.
    let log = try ReplayLog(path: path)
    #expect(log.lastSeq == 4)
    let state = try ReplayApp(name: "reswift-todo", reducer: reSwiftTodoReplayReducer)
      .timeline(for: log).stateJSON(at: 4)
    #expect(state.description.contains("eggs"))
  }

  enum Shopping {
    struct Add: Action, Codable, Sendable { var item: String }
  }
  enum Chores {
    struct Add: Action, Codable, Sendable { var chore: String }
  }
  enum ClashingActions: ActionCatalog {
    typealias Base = any Action
    static let types: [any (Codable & Sendable).Type] = [Shopping.Add.self, Chores.Add.self]
  }

  @Test func twoTypesOfOneNameAreRefusedRatherThanMixedUp() throws {
    #expect(CatalogAction<ClashingActions>(Shopping.Add(item: "milk")) == nil)
    let path = RecipeLog.temporaryPath("reswift-clash")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let errors = ErrorList()
    let recorder = try Recorder(
      path: path, app: "clash", initialState: 0, actions: ClashingActions.self,
      onError: errors.append)
    recorder.willReduce(Chores.Add(chore: "dishes"))
    recorder.close()
    #expect(
      errors.all.map(\.reason) == [
        .actionTypeNotRecordable(seq: 1, type: "Add", catalog: "ClashingActions", sharesName: true)
      ])
    let skipped = try RecipeLog.records(path).first { $0["kind"] as? String == "skipped" }
    #expect(skipped?["reason"] as? String == "sharedName")
  }

  @Test func recordedActionsReadBackAsTheirOwnTypesAndNameWhatDoesNotDecode() throws {
    let decoder = RewindJSONDecoder()
    let toggle = try decoder.decode(
      CatalogAction<RecordedActions>.self, from: Array(#"{"ToggleTodo":{"id":7}}"#.utf8))
    #expect((toggle.action as? ToggleTodo)?.id == 7)
    #expect(
      try RewindJSONEncoder().encode(toggle) == Array(#"{"ToggleTodo":{"id":7}}"#.utf8))

    let unknown = #expect(throws: DecodingError.self) {
      try decoder.decode(
        CatalogAction<RecordedActions>.self, from: Array(#"{"ArchiveTodo":{"id":7}}"#.utf8))
    }
    #expect(
      "\(String(describing: unknown))".contains(
        "unknown action type 'ArchiveTodo': it is not in RecordedActions.types "
          + "(AddTodo, ToggleTodo, RemoveTodo, ItemCompleted)"))
    let twoKeys = #expect(throws: DecodingError.self) {
      try decoder.decode(
        CatalogAction<RecordedActions>.self,
        from: Array(#"{"AddTodo":{},"ToggleTodo":{}}"#.utf8))
    }
    #expect("\(String(describing: twoKeys))".contains("found 2 keys"))
    let badField = #expect(throws: DecodingError.self) {
      try decoder.decode(
        CatalogAction<RecordedActions>.self, from: Array(#"{"ToggleTodo":{"id":"7"}}"#.utf8))
    }
    #expect("\(String(describing: badField))".contains("ToggleTodo"))
  }
}

/// Errors reported by a recorder, collected across threads.
final class ErrorList: Sendable {
  private let errors = Locked<[RecorderError]>([])
  func append(_ error: RecorderError) { errors.withLock { $0.append(error) } }
  var all: [RecorderError] { errors.withLock { $0 } }
}

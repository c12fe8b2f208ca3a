import Foundation
import Rewind
import RewindJSON
import RewindReplay
import SwiduxRecipe
import SwiduxStandIn
import Testing

/// The Swidux recipe: enum actions of several types recorded through the generated
/// ``RecordedActions`` catalog by two reducers combined around the app's, the action a
/// middleware dispatches in the order the reducer saw it, an unlisted action type marked and
/// reported, and the log replayed with the app's reducer and no middleware.
@Suite struct SwiduxRecipeTests {
  @Test func aSwiduxAppRecordsAndReplaysThroughTheRecipe() throws {
    let path = RecipeLog.temporaryPath("swidux")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (store, recorder) = try makeRecordedSwiduxStore(path: path)
    var counts: [Int] = []
    var token: StoreSubscriptionToken? = store.subscribe(\.completedCount) { counts.append($0) }
    for title in ["milk", "eggs", "bread"] { store.dispatch(SwiduxTodoAction.add(title: title)) }
    store.dispatch(SwiduxTodoAction.toggle(id: 1))
    store.dispatch(SwiduxTodoAction.remove(id: 2))
    store.dispatch(SwiduxTodoAction.toggle(id: 1))
    store.dispatch(SwiduxTodoAction.toggle(id: 3))
    // Releasing the token ends the subscription.
    #expect(counts == [0, 1, 2])
    token = nil
    store.dispatch(SwiduxTodoAction.toggle(id: 1))
    #expect(counts == [0, 1, 2])
    #expect(token == nil)
    let finalState = store.getState()
    recorder.close(finalState: finalState)

    #expect(finalState.completedCount == 3)
    #expect(finalState.list.items.map(\.title) == ["milk", "bread"])
    // A catalog's enum is recorded by its type's name; the middleware's action comes right
    // after the toggle that caused it.
    #expect(
      try RecipeLog.actionTypes(path) == [
        "SwiduxTodoAction", "SwiduxTodoAction", "SwiduxTodoAction", "SwiduxTodoAction",
        "SwiduxStatsAction", "SwiduxTodoAction", "SwiduxTodoAction", "SwiduxTodoAction",
        "SwiduxStatsAction", "SwiduxTodoAction", "SwiduxStatsAction",
      ])
    let actions = try RecipeLog.records(path).compactMap { $0["action"] as? [String: Any] }
    #expect(
      (actions.first?["SwiduxTodoAction"] as? [String: Any])?["add"] as? [String: String]
        == ["title": "milk"])
    #expect(
      (actions[4]["SwiduxStatsAction"] as? [String: Any])?["completed"] as? [String: Int]
        == ["id": 1])
    // Filters by type take the enum's name or its case name.
    let log = try ReplayLog(path: path)
    #expect(try log.action(at: 4, isOfType: "SwiduxTodoAction"))
    #expect(try log.action(at: 4, isOfType: "toggle"))
    #expect(try !log.action(at: 4, isOfType: "add"))
    // Had the replay run the middleware too, each `completed` would be counted twice.
    let report = try assertReplays(
      path, app: "swidux-todo", reducer: swiduxTodoReplayReducer, finalState: finalState)
    #expect(report.checkpointsCompared == 1)
  }

  @Test func everyCheckpointHoldsTheStateOfItsOwnActionThoughMiddlewaresDispatch() throws {
    let path = RecipeLog.temporaryPath("swidux-interval")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder(
      path: path, app: "swidux-todo", initialState: SwiduxTodoState(),
      actions: RecordedActions.self, options: RecordingOptions(checkpointInterval: 1))
    let store = SwiduxStandIn.Store(
      initialState: SwiduxTodoState(),
      reducer: .combine(reducers: [
        .init { _, action in recorder.willReduce(action) },
        swiduxTodoReducer,
        .init { state, _ in recorder.didReduce(state) },
      ]),
      middlewares: [swiduxCompletionMiddleware])
    for id in 1...3 { store.dispatch(SwiduxTodoAction.add(title: "item \(id)")) }
    for id in 1...3 { store.dispatch(SwiduxTodoAction.toggle(id: id)) }
    recorder.close(finalState: store.getState())

    #expect(try RecipeLog.checkpointSeqs(path) == Array(1...9))
    #expect(try !String(contentsOfFile: path, encoding: .utf8).contains("state-skipped"))
    let report = try assertReplays(path, reducer: swiduxTodoReplayReducer)
    #expect(report.checkpointsCompared == 9)
  }

  /// An action type the recipe's target does not declare, so not in its catalog.
  enum Unlisted: SwiduxStandIn.Action, Codable, Sendable {
    case note(String)
  }

  @Test func anActionTypeMissingFromTheCatalogIsMarkedAndReportedOnce() throws {
    let path = RecipeLog.temporaryPath("swidux-unlisted")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let errors = ErrorList()
    let (store, recorder) = try makeRecordedSwiduxStore(path: path, onError: errors.append)
    store.dispatch(SwiduxTodoAction.add(title: "milk"))
    store.dispatch(Unlisted.note("one"))
    store.dispatch(Unlisted.note("two"))
    store.dispatch(SwiduxTodoAction.add(title: "eggs"))
    recorder.close()

    #expect(
      errors.all.map(\.reason) == [
        .actionTypeNotRecordable(
          seq: 2, type: "Unlisted", catalog: "RecordedActions", sharesName: false)
      ])
    let skipped = try RecipeLog.records(path).filter { $0["kind"] as? String == "skipped" }
    #expect(skipped.map { $0["seq"] as? Int } == [2, 3])
    let state = try ReplayApp(name: "swidux-todo", reducer: swiduxTodoReplayReducer)
      .timeline(for: ReplayLog(path: path)).stateJSON(at: 4)
    #expect(state.description.contains("eggs"))
  }

  @Test func theGeneratedCatalogListsTheTargetsActionTypes() throws {
    #expect(RecordedActions.types.map { "\($0)" } == ["SwiduxTodoAction", "SwiduxStatsAction"])
    let decoded = try RewindJSONDecoder().decode(
      CatalogAction<RecordedActions>.self,
      from: Array(#"{"SwiduxTodoAction":{"toggle":{"id":7}}}"#.utf8))
    guard case SwiduxTodoAction.toggle(let id) = decoded.action else {
      Issue.record("decoded \(decoded.action)")
      return
    }
    #expect(id == 7)
  }
}

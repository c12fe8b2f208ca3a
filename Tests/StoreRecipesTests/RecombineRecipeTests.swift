import Foundation
import RecombineStandIn
import Rewind
import RewindReplay
import StoreRecipes
import Testing

/// The Recombine recipe: the refined actions the reducer sees are recorded in its order — those
/// dispatched directly and those a raw action's side effect sent, at once or later — raw actions
/// are not, and the log replays with the reducer alone.
@Suite struct RecombineRecipeTests {
  @Test func aRecombineAppRecordsWhatItsReducerSeesAndReplaysWithoutSideEffects() throws {
    let path = RecipeLog.temporaryPath("recombine")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let facts = RecombineFactClient()
    let (store, recorder) = try makeRecordedRecombineStore(path: path, facts: facts)
    store.dispatch(refined: .increment, .increment)
    store.dispatch(raw: .fetchFact)
    // The fact has not arrived: the side effect has sent one action so far.
    #expect(store.state.isLoading)
    #expect(store.state.fact == nil)
    store.dispatch(refined: .decrement)
    facts.deliverAll()
    #expect(store.state.fact == "2 is a good number")
    store.dispatch(refined: .increment)
    store.dispatch(raw: .reset)
    store.dispatch(refined: .increment)
    recorder.close(finalState: store.state)

    #expect(store.state.count == 1)
    #expect(store.state.fact == nil)
    // The reducer's order: the late `factLoaded` after the `decrement` dispatched before it
    // arrived; no raw action.
    #expect(
      try RecipeLog.actionTypes(path) == [
        "increment", "increment", "factRequested", "decrement", "factLoaded", "increment", "set",
        "factCleared", "increment",
      ])
    let loaded = try RecipeLog.records(path).first { $0["type"] as? String == "factLoaded" }
    #expect(
      (loaded?["action"] as? [String: Any])?["factLoaded"] as? [String: String]
        == ["_0": "2 is a good number"])
    // Had the replay reducer run the side effects too, `factLoaded` would be applied twice and
    // the final checkpoint would not match.
    let report = try assertReplays(
      path, app: "recombine-counter", reducer: recombineCounterReplayReducer,
      finalState: store.state)
    #expect(report.checkpointsCompared == 1)
  }

  @Test func everyCheckpointHoldsTheStateOfItsOwnActionThoughSideEffectsSendLater() throws {
    let path = RecipeLog.temporaryPath("recombine-interval")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try Recorder<RecombineCounterState, RecombineCounterAction.Refined>(
      path: path, app: "recombine-counter", initialState: RecombineCounterState(),
      options: RecordingOptions(checkpointInterval: 1))
    let facts = RecombineFactClient()
    let store = RecombineStandIn.Store(
      state: RecombineCounterState(),
      reducer: MutatingReducer { state, action in
        recorder.reduce(&state, action, with: recombineCounterReducer.transform)
      },
      middleware: recombineCounterMiddleware(facts: facts))
    store.dispatch(raw: .fetchFact)
    store.dispatch(refined: .increment)
    store.dispatch(raw: .fetchFact)
    facts.deliverAll()
    recorder.close(finalState: store.state)

    #expect(
      try RecipeLog.actionTypes(path) == [
        "factRequested", "increment", "factRequested", "factLoaded", "factLoaded",
      ])
    // Each fact is about the count when its raw action was handled.
    #expect(store.state.fact == "1 is a good number")
    #expect(try RecipeLog.checkpointSeqs(path) == Array(1...5))
    let report = try assertReplays(path, reducer: recombineCounterReplayReducer)
    #expect(report.checkpointsCompared == 5)
  }

  @Test func aRawActionNeverReachesTheReducerSoReplayNeedsNone() throws {
    let reduced = Locked<[RecombineCounterAction.Refined]>([])
    let store = RecombineStandIn.Store(
      state: RecombineCounterState(),
      reducer: MutatingReducer { state, action in
        reduced.withLock { $0.append(action) }
        recombineCounterReducer(state: &state, action: action)
      },
      middleware: recombineCounterMiddleware(facts: RecombineFactClient()))
    store.dispatch(raw: .reset, .fetchFact)
    #expect(reduced.withLock { $0 } == [.set(0), .factCleared, .factRequested])
  }
}

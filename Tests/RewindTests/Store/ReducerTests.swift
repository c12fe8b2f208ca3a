import Rewind
import RewindExamples
import Testing

private struct Trace: Equatable {
  var steps: [String] = []
}

private struct AppState: Equatable {
  var counter = CounterState()
  var title = "untouched"
}

private enum AppAction: Equatable {
  case counter(CounterAction)
  case rename(String)
}

private func appending(_ step: String) -> Reducer<Trace, Int> {
  Reducer { state, action in state.steps.append("\(step)\(action)") }
}

private let extractCounterAction: @Sendable (AppAction) -> CounterAction? = { action in
  if case .counter(let inner) = action { return inner } else { return nil }
}

@Suite struct ReducerTests {
  @Test func reduceMutatesTheStateInPlace() {
    var state = CounterState(count: 1)
    counterReducer.reduce(&state, .add(41))
    #expect(state == CounterState(count: 42))
  }

  @Test func reducedReturnsANewStateAndLeavesTheArgumentUnchanged() {
    let original = CounterState(count: 1)
    let result = counterReducer.reduced(original, .increment)
    #expect(result == CounterState(count: 2))
    #expect(original == CounterState(count: 1))
  }

  @Test func reducedCopiesValuesThatShareStorage() {
    let original = Trace(steps: ["before"])
    let result = appending("a").reduced(original, 1)
    #expect(result.steps == ["before", "a1"])
    #expect(original.steps == ["before"])
  }

  @Test func combineRunsReducersInTheOrderGiven() {
    let combined = Reducer.combine(appending("a"), appending("b"), appending("c"))
    var state = Trace()
    combined.reduce(&state, 1)
    combined.reduce(&state, 2)
    #expect(state.steps == ["a1", "b1", "c1", "a2", "b2", "c2"])
  }

  @Test func combineOfAnArrayRunsReducersInArrayOrder() {
    let combined = Reducer.combine([appending("z"), appending("y")])
    #expect(combined.reduced(Trace(), 7).steps == ["z7", "y7"])
  }

  @Test func combineOfNoReducersLeavesTheStateUnchanged() {
    let combined = Reducer<Trace, Int>.combine([])
    #expect(combined.reduced(Trace(steps: ["x"]), 1) == Trace(steps: ["x"]))
  }

  @Test func combineSeesTheChangesOfEarlierReducers() {
    let double = Reducer<CounterState, CounterAction> { state, _ in state.count *= 2 }
    let combined = Reducer.combine(counterReducer, double)
    #expect(combined.reduced(CounterState(count: 1), .increment).count == 4)
  }

  @Test func liftMutatesOnlyTheSubStateAtTheKeyPath() {
    let lifted: Reducer<AppState, CounterAction> = counterReducer.lift(\AppState.counter)
    var state = AppState(counter: CounterState(count: 3), title: "untouched")
    lifted.reduce(&state, .add(4))
    #expect(state == AppState(counter: CounterState(count: 7), title: "untouched"))
  }

  @Test func scopeAppliesActionsThatTheExtractorMaps() {
    let scoped: Reducer<CounterState, AppAction> = counterReducer.scope(extractCounterAction)
    #expect(scoped.reduced(CounterState(count: 1), .counter(.decrement)) == CounterState())
  }

  @Test func scopeIgnoresActionsThatMapToNil() {
    let extracted = StoreTestLog<AppAction>()
    let scoped: Reducer<CounterState, AppAction> = counterReducer.scope { action in
      extracted.append(action)
      return extractCounterAction(action)
    }
    let before = CounterState(count: 5)
    #expect(scoped.reduced(before, .rename("ignored")) == before)
    #expect(extracted.elements == [.rename("ignored")])
  }

  @Test func liftWithActionScopesAndLiftsInOneStep() {
    let lifted: Reducer<AppState, AppAction> = counterReducer.lift(
      \AppState.counter, action: extractCounterAction)
    var state = AppState()
    lifted.reduce(&state, .counter(.add(10)))
    lifted.reduce(&state, .rename("ignored"))
    lifted.reduce(&state, .counter(.decrement))
    #expect(state == AppState(counter: CounterState(count: 9), title: "untouched"))
  }

  @Test func liftedReducersCombineOnTheSameParent() {
    let renamer = Reducer<String, AppAction> { title, action in
      if case .rename(let newTitle) = action { title = newTitle }
    }
    let app = Reducer.combine(
      counterReducer.lift(\AppState.counter, action: extractCounterAction),
      renamer.lift(\AppState.title))
    var state = AppState()
    app.reduce(&state, .counter(.increment))
    app.reduce(&state, .rename("renamed"))
    #expect(state == AppState(counter: CounterState(count: 1), title: "renamed"))
  }
}

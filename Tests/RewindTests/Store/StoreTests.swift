import Observation
import Rewind
import RewindExamples
import Testing

@Suite struct StoreTests {
  @Test func newStoreHoldsTheInitialStateAndHasReducedNothing() {
    let store = Store(initialState: CounterState(count: 7), reducer: counterReducer)
    #expect(store.state == CounterState(count: 7))
    #expect(store.reducedCount == 0)
  }

  @Test func dispatchReducesTheActionBeforeReturning() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    store.dispatch(.increment)
    #expect(store.state.count == 1)
    store.dispatch(.add(10))
    store.dispatch(.decrement)
    #expect(store.state.count == 10)
  }

  @Test func reducedCountCountsActionsThatChangeNothing() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    store.dispatch(.add(0))
    store.dispatch(.add(0))
    #expect(store.state.count == 0)
    #expect(store.reducedCount == 2)
  }

  @Test func readReturnsAPartOfTheCurrentState() {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    store.dispatch(.add(title: "Buy milk"))
    #expect(store.read { $0.todos.map(\.title) } == ["Buy milk"])
    #expect(store.read { $0.nextID } == 2)
  }

  @Test func readRethrowsTheErrorOfItsBody() {
    struct Refused: Error {}
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    #expect(throws: Refused.self) {
      try store.read { _ -> Int in throw Refused() }
    }
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func observationTrackingOfStateFiresWhenAnActionIsDispatched() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let changes = Locked(0)
    let observed = withObservationTracking {
      store.state.count
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    #expect(observed == 0)
    #expect(changes.withLock { $0 } == 0)
    store.dispatch(.increment)
    #expect(changes.withLock { $0 } == 1)
    // Tracking is one-shot: later actions need a new `withObservationTracking`.
    store.dispatch(.increment)
    #expect(changes.withLock { $0 } == 1)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func observationTrackingOfReadFiresWhenAnActionIsDispatched() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let changes = Locked(0)
    withObservationTracking {
      _ = store.read { $0.count }
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    store.dispatch(.add(3))
    #expect(changes.withLock { $0 } == 1)
  }

  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @Test func observationTrackingDoesNotFireForAnActionThatMiddlewareDrops() {
    let dropAll = Middleware<CounterState, CounterAction>(name: "drop all") { _, _ in nil }
    let store = Store(
      initialState: CounterState(), reducer: counterReducer, middleware: [dropAll])
    let changes = Locked(0)
    withObservationTracking {
      _ = store.state
    } onChange: {
      changes.withLock { $0 += 1 }
    }
    store.dispatch(.increment)
    #expect(changes.withLock { $0 } == 0)
    #expect(store.state.count == 0)
  }

  @Test func storeIsReleasedWhileSubscriptionsAndMiddlewareContextsRemain() throws {
    weak var released: Store<CounterState, CounterAction>?
    let contexts = StoreTestLog<MiddlewareContext<CounterState, CounterAction>>()
    let keepContext = Middleware<CounterState, CounterAction>(name: "keep") { action, context in
      contexts.append(context)
      return action
    }
    var subscription: Subscription?
    do {
      let store = Store(
        initialState: CounterState(), reducer: counterReducer, middleware: [keepContext])
      subscription = store.subscribe { _ in }
      store.dispatch(.increment)
      released = store
    }
    #expect(released == nil)
    // A context that outlived its store still reads the last state; its dispatch does nothing.
    let context = try #require(contexts.elements.first)
    #expect(context.state.count == 1)
    context.dispatch(.increment)
    subscription?.cancel()
    #expect(subscription?.isCancelled == true)
  }
}

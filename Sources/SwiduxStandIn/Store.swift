/// Swidux's store: each action goes through the middlewares, then the reducer; each
/// subscription is told when the value at its key path changes.
///
/// Swidux runs actions one at a time on a serial queue and tells subscribers on the main queue.
/// The stand-in runs them on the dispatching thread in the same order: an action dispatched
/// while another is being handled (by a middleware or a subscriber) runs when that one is done,
/// and subscribers are told after each action.
public final class Store<AppState> {
  private var state: AppState
  private let reducer: Reducer<AppState>
  private let middlewares: [Middleware<AppState>]
  private var pending: [Action] = []
  private var isDispatching = false
  /// Each subscription, in the order they were made, by a number of its own: how to tell it a
  /// new state (it remembers its key path's value in the last state it was told).
  private var subscriptions: [(id: Int, notify: (AppState) -> Void)] = []
  private var nextSubscription = 0

  /// Creates a store with `initialState`, `reducer` and `middlewares` (outermost first).
  public init(
    initialState: AppState,
    reducer: Reducer<AppState> = .init { _, _ in },
    middlewares: [Middleware<AppState>] = []
  ) {
    self.state = initialState
    self.reducer = reducer
    self.middlewares = middlewares
  }

  /// The current state.
  public func getState() -> AppState {
    state
  }

  /// Calls `onNext` with the value at `keyPath` now, and again each time an action changes it,
  /// for as long as the returned token is kept.
  public func subscribe<Value: Equatable>(
    _ keyPath: KeyPath<AppState, Value>,
    onNext: @escaping (Value) -> Void
  ) -> StoreSubscriptionToken {
    var last = state[keyPath: keyPath]
    onNext(last)
    let id = nextSubscription
    nextSubscription += 1
    subscriptions.append(
      (
        id,
        { state in
          let value = state[keyPath: keyPath]
          guard value != last else { return }
          last = value
          onNext(value)
        }
      ))
    return StoreSubscriptionToken { [weak self] in self?.subscriptions.removeAll { $0.id == id } }
  }

  /// Dispatches `action` through the middlewares to the reducer; an action dispatched while
  /// another is being handled runs after it.
  public func dispatch(_ action: Action) {
    pending.append(action)
    guard !isDispatching else { return }
    isDispatching = true
    defer { isDispatching = false }
    // Made for each outermost dispatch, not kept: the middlewares hold the store.
    let dispatch = makeDispatchFunction()
    while !pending.isEmpty {
      dispatch(pending.removeFirst())
    }
  }

  private func makeDispatchFunction() -> (Action) -> Void {
    let reduce: (Action) -> Void = { [unowned self] action in
      self.reducer.reduce(&self.state, action)
      for subscription in self.subscriptions { subscription.notify(self.state) }
    }
    return middlewares.reversed().reduce(reduce) { next, middleware in middleware.run(self)(next) }
  }
}

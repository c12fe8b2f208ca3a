/// A pure state transition: applies an action to the state, mutating it in place.
///
/// A reducer is a value wrapping `(inout State, Action) -> Void`. It must depend only on the
/// state and the action it is given — no clocks, random numbers or environment — so that
/// replaying the same actions rebuilds the same states (see `docs/determinism.md`).
///
/// ```swift
/// let counter = Reducer<CounterState, CounterAction> { state, action in
///   switch action {
///   case .increment: state.count += 1
///   case .decrement: state.count -= 1
///   case .add(let n): state.count += n
///   }
/// }
/// ```
public struct Reducer<State, Action>: Sendable {
  private let body: @Sendable (inout State, Action) -> Void

  /// Creates a reducer from a closure that mutates the state in place.
  public init(_ reduce: @escaping @Sendable (inout State, Action) -> Void) {
    self.body = reduce
  }

  /// Applies `action` to `state` in place.
  @inlinable
  public func reduce(_ state: inout State, _ action: Action) {
    run(&state, action)
  }

  /// Returns the state that results from applying `action` to a copy of `state`.
  public func reduced(_ state: State, _ action: Action) -> State {
    var copy = state
    body(&copy, action)
    return copy
  }

  @usableFromInline
  func run(_ state: inout State, _ action: Action) {
    body(&state, action)
  }
}

extension Reducer {
  /// A reducer that runs each of `reducers` in order on the same state and action.
  public static func combine(_ reducers: Reducer...) -> Reducer {
    combine(reducers)
  }

  /// A reducer that runs each of `reducers` in order on the same state and action.
  public static func combine(_ reducers: [Reducer]) -> Reducer {
    Reducer { state, action in
      for reducer in reducers { reducer.run(&state, action) }
    }
  }

  /// Lifts this reducer on a sub-state to a reducer on a parent state, reaching the sub-state
  /// through `keyPath` and mutating it in place.
  ///
  /// ```swift
  /// let app = Reducer.combine(
  ///   todoReducer.lift(\AppState.todos),
  ///   settingsReducer.lift(\AppState.settings))
  /// ```
  public func lift<Parent>(
    _ keyPath: WritableKeyPath<Parent, State> & Sendable
  ) -> Reducer<Parent, Action> {
    Reducer<Parent, Action> { parent, action in
      self.run(&parent[keyPath: keyPath], action)
    }
  }

  /// Scopes this reducer to the parent actions that `extract` maps to one of its own actions;
  /// other actions leave the state untouched.
  ///
  /// ```swift
  /// let todos = todoReducer.scope { (action: AppAction) in
  ///   if case .todo(let inner) = action { return inner } else { return nil }
  /// }
  /// ```
  public func scope<ParentAction>(
    _ extract: @escaping @Sendable (ParentAction) -> Action?
  ) -> Reducer<State, ParentAction> {
    Reducer<State, ParentAction> { state, parentAction in
      guard let action = extract(parentAction) else { return }
      self.run(&state, action)
    }
  }

  /// Lifts this reducer to a parent state through `keyPath` and to parent actions through
  /// `extract` in one step.
  public func lift<Parent, ParentAction>(
    _ keyPath: WritableKeyPath<Parent, State> & Sendable,
    action extract: @escaping @Sendable (ParentAction) -> Action?
  ) -> Reducer<Parent, ParentAction> {
    scope(extract).lift(keyPath)
  }
}

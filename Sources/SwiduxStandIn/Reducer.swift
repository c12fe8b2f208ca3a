/// Applies an action to a state in place. Its function is not public, as in Swidux: a store
/// runs it, and reducers are composed with ``combine(reducers:)`` and ``lift(_:)``.
///
/// ```swift
/// let counterReducer = Reducer<Int> { state, action in
///   switch action {
///   case CounterAction.increment: state += 1
///   default: break
///   }
/// }
/// let appReducer = counterReducer.lift(\AppState.count)
/// ```
public struct Reducer<State> {
  let reduce: (inout State, Action) -> Void

  /// A reducer of `reduce`.
  public init(reduce: @escaping (inout State, Action) -> Void) {
    self.reduce = reduce
  }
}

extension Reducer {
  /// The reducers, each in turn, on the same state.
  public static func combine(reducers: [Reducer<State>]) -> Reducer<State> {
    Reducer { state, action in
      for reducer in reducers { reducer.reduce(&state, action) }
    }
  }

  /// This reducer applied to the part of a larger state at the key path `kp`.
  public func lift<T>(_ kp: WritableKeyPath<T, State>) -> Reducer<T> {
    Reducer<T> { state, action in self.reduce(&state[keyPath: kp], action) }
  }
}

/// Recombine's store: raw actions go through the middleware, whose side effects send refined
/// actions; refined actions (sent by a side effect or dispatched directly) reach the reducer, in
/// the order they are sent. On Apple platforms it is an `ObservableObject`
/// (Platform+Combine.swift), injected into SwiftUI with `environmentObject`.
///
/// Recombine reduces in a Combine pipeline and publishes each state on the scheduler given as
/// `publishOn:`; the stand-in reduces on the sending thread and publishes each state at once.
public class Store<State, RawAction, RefinedAction> {
  /// The current state.
  public private(set) var state: State {
    willSet { stateWillChange() }
  }
  private let reduce: (State, RefinedAction) -> State
  private let middleware: Middleware<State, RawAction, RefinedAction>
  /// What running side effects need kept alive (Combine subscriptions).
  private var sideEffects: [AnyObject] = []

  /// Creates a store with `state`, reducing refined actions with `reducer`.
  public required init<R: Reducer>(
    state: State,
    reducer: R,
    middleware: Middleware<State, RawAction, RefinedAction>
  ) where R.State == State, R.Action == RefinedAction {
    self.state = state
    self.reduce = reducer.reduce(state:action:)
    self.middleware = middleware
  }

  /// Sends refined actions to the reducer, bypassing the middleware.
  open func dispatch(refined actions: RefinedAction...) {
    dispatch(refined: actions)
  }

  /// Sends refined actions to the reducer, bypassing the middleware.
  open func dispatch<S: Sequence>(refined actions: S) where S.Element == RefinedAction {
    for action in actions { state = reduce(state, action) }
  }

  /// Sends raw actions through the middleware, whose side effects send refined ones.
  open func dispatch(raw actions: RawAction...) {
    dispatch(raw: actions)
  }

  /// Sends raw actions through the middleware, whose side effects send refined ones.
  open func dispatch<S: Sequence>(raw actions: S) where S.Element == RawAction {
    for action in actions {
      let kept = middleware.start(
        { [unowned self] in self.state }, action,
        { [weak self] in self?.dispatch(refined: $0) })
      if let kept { sideEffects.append(kept) }
    }
  }
}

// A stand-in for ReSwift (github.com/ReSwift/ReSwift) with the shape of its public API — the
// protocol `Action`, `Reducer`, `Middleware`, `DispatchFunction`, `StoreSubscriber` and a
// `Store` class — and its dispatch semantics, so that `StoreRecipes` compiles the ReSwift recipe
// against the names an app sees with both ReSwift and Rewind imported. No ReSwift code is in it;
// the package depends on nothing.

/// An action: any type that conforms (ReSwift's actions are separate types, not one enum).
public protocol Action {}

/// The action a store dispatches to itself when it is created without a state.
public struct ReSwiftInit: Action {
  /// Creates the action.
  public init() {}
}

/// Sends an action into the store.
public typealias DispatchFunction = (Action) -> Void

/// Returns the state after `action`; `state` is `nil` only for the store's first action.
public typealias Reducer<ReducerStateType> =
  (_ action: Action, _ state: ReducerStateType?) -> ReducerStateType

/// Wraps the next dispatch function: `(dispatch, getState) -> (next) -> dispatch`.
public typealias Middleware<State> =
  (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) ->
  DispatchFunction

/// A subscriber of any state type, as a store holds it.
public protocol AnyStoreSubscriber: AnyObject {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Called with each new state, type-erased.
  func _newState(state: Any)
}

/// An object told about every new state.
public protocol StoreSubscriber: AnyStoreSubscriber {
  /// The state type it takes.
  associatedtype StoreSubscriberStateType
  /// Called with each new state, and once when subscribing.
  func newState(state: StoreSubscriberStateType)
}

extension StoreSubscriber {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Passes a state of the subscriber's type on to ``newState(state:)``.
  public func _newState(state: Any) {
    if let typed = state as? StoreSubscriberStateType { newState(state: typed) }
  }
}

/// ReSwift's store: middleware, then the reducer, then every subscriber, synchronously. A
/// subscriber that dispatches runs the new action at once, inside the current dispatch; a
/// reducer that dispatches stops the program.
open class Store<State> {
  /// The current state.
  public private(set) var state: State! {
    didSet { for subscription in subscriptions { subscription.notify(state) } }
  }
  private let reducer: Reducer<State>
  /// Each subscriber, by identity (held weakly, as ReSwift does), and how to tell it.
  private var subscriptions: [(id: ObjectIdentifier, notify: (State) -> Void)] = []
  private var isDispatching = false
  private var dispatchFunction: DispatchFunction = { _ in }

  /// Creates a store; without a state, it dispatches ``ReSwiftInit`` to get one from `reducer`.
  /// (`automaticallySkipsRepeats` is ReSwift's; the stand-in notifies every state.)
  public required init(
    reducer: @escaping Reducer<State>,
    state: State?,
    middleware: [Middleware<State>] = [],
    automaticallySkipsRepeats: Bool = true
  ) {
    self.reducer = reducer
    dispatchFunction = middleware.reversed().reduce(
      { [unowned self] action in self.defaultDispatch(action) },
      { next, middleware in
        middleware({ [weak self] in self?.dispatch($0) }, { [weak self] in self?.state })(next)
      })
    if let state {
      self.state = state
    } else {
      dispatch(ReSwiftInit())
    }
  }

  /// Dispatches `action` through the middleware to the reducer.
  open func dispatch(_ action: Action) {
    dispatchFunction(action)
  }

  /// Calls `subscriber` with the current state now and with every new one.
  open func subscribe<S: StoreSubscriber>(_ subscriber: S)
  where S.StoreSubscriberStateType == State {
    subscriptions.append(
      (ObjectIdentifier(subscriber), { [weak subscriber] in subscriber?.newState(state: $0) }))
    if let state { subscriber.newState(state: state) }
  }

  /// Stops telling `subscriber` about new states.
  open func unsubscribe(_ subscriber: AnyStoreSubscriber) {
    subscriptions.removeAll { $0.id == ObjectIdentifier(subscriber) }
  }

  private func defaultDispatch(_ action: Action) {
    guard !isDispatching else {
      fatalError("ReSwift: action dispatched while a previous action is being reduced")
    }
    isDispatching = true
    let newState = reducer(action, state)
    isDispatching = false
    state = newState
  }
}

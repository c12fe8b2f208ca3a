// A stand-in for Recombine (github.com/ReSwift/Recombine, the releases whose store is
// `Store<State, RawAction, RefinedAction>`) with the shape of its public API, so that
// `StoreRecipes` compiles the Recombine recipe against the names an app sees with both Recombine
// and Rewind imported. No Recombine code is in it; the package depends on nothing. Combine is
// not on Linux: the side effects of middleware are plain closures here, and on Apple platforms
// Combine publishers as well (Platform+Combine.swift).

/// A reducer of refined actions: a named transform, composable with ``concat(_:)``.
public protocol Reducer {
  /// The state it reduces.
  associatedtype State
  /// The actions it takes (the store's refined actions).
  associatedtype Action
  /// Its function: `(State, Action) -> State` or `(inout State, Action) -> Void`.
  associatedtype Transform

  /// The function.
  var transform: Transform { get }
  /// A reducer that changes nothing.
  init()
  /// A reducer of `transform`.
  init(_ transform: Transform)
  /// Returns the state after `action`.
  func reduce(state: State, action: Action) -> State
  /// This reducer, then `other`.
  func concat<R: Reducer>(_ other: R) -> Self where R.Transform == Transform
}

extension Reducer {
  /// The reducers, one after the other.
  public init(_ reducers: Self...) {
    self = .init(reducers)
  }

  /// The reducers, one after the other.
  public init<S: Sequence>(_ reducers: S)
  where S.Element: Reducer, S.Element.Transform == Transform {
    self = reducers.reduce(Self.init()) { $0.concat($1) }
  }
}

/// A reducer that returns a new state.
public struct PureReducer<State, Action>: Reducer {
  /// Returns the state after `action`.
  public typealias Transform = (_ state: State, _ action: Action) -> State
  /// The function.
  public let transform: Transform

  /// A reducer that changes nothing.
  public init() {
    self.transform = { state, _ in state }
  }

  /// A reducer of `transform`.
  public init(_ transform: @escaping Transform) {
    self.transform = transform
  }

  /// Returns the state after `action`.
  public func callAsFunction(state: State, action: Action) -> State {
    transform(state, action)
  }

  /// This reducer, then `other`.
  public func concat<R: Reducer>(_ other: R) -> Self where R.Transform == Transform {
    Self { state, action in other.transform(self.transform(state, action), action) }
  }

  /// Returns the state after `action`.
  public func reduce(state: State, action: Action) -> State {
    transform(state, action)
  }
}

/// A reducer that mutates the state in place.
public struct MutatingReducer<State, Action>: Reducer {
  /// Applies `action` to `state`.
  public typealias Transform = (_ state: inout State, _ action: Action) -> Void
  /// The function.
  public let transform: Transform

  /// A reducer that changes nothing.
  public init() {
    self.transform = { _, _ in }
  }

  /// A reducer of `transform`.
  public init(_ transform: @escaping Transform) {
    self.transform = transform
  }

  /// Applies `action` to `state`.
  public func callAsFunction(state: inout State, action: Action) {
    transform(&state, action)
  }

  /// This reducer, then `other`.
  public func concat<R: Reducer>(_ other: R) -> Self where R.Transform == Transform {
    Self { state, action in
      self.transform(&state, action)
      other.transform(&state, action)
    }
  }

  /// Returns the state after `action`, applied to a copy of `state`.
  public func reduce(state: State, action: Action) -> State {
    var copy = state
    transform(&copy, action)
    return copy
  }
}

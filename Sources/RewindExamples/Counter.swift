import Rewind

/// The state of the "counter" example app.
public struct CounterState: Codable, Equatable, Sendable {
  /// The current count.
  public var count = 0

  /// Creates a counter state.
  public init(count: Int = 0) { self.count = count }
}

/// The actions of the "counter" example app.
public enum CounterAction: Codable, Equatable, Sendable {
  /// Adds 1.
  case increment
  /// Subtracts 1.
  case decrement
  /// Adds a number (which may be negative).
  case add(Int)
}

/// The reducer of the "counter" example app. Arithmetic wraps around instead of trapping.
public let counterReducer = Reducer<CounterState, CounterAction> { state, action in
  switch action {
  case .increment: state.count &+= 1
  case .decrement: state.count &-= 1
  case .add(let amount): state.count &+= amount
  }
}

// The TCA recipe (docs/recipes/tca.md): a feature whose reducer mutates
// the state in place and returns effects, and a small store that runs them the way TCA's does —
// an effect's actions come back into the store as actions of their own. TCA is not a
// dependency: `Effect` and `EffectStore` stand in for its types.
import Rewind

/// What a reducer asks the store to do next.
public enum Effect<Action: Sendable>: Sendable {
  /// Nothing.
  case none
  /// Send these actions back into the store, in order.
  case send([Action])
}

/// A counter feature in TCA's shape.
public struct CounterFeature: Sendable {
  /// The feature's state.
  public struct State: Codable, Equatable, Sendable {
    /// The count.
    public var count = 0
    /// The last fact fetched about the count.
    public var fact: String?
    /// Whether a fact is being fetched.
    public var isLoading = false
    /// Zero, no fact.
    public init() {}
  }

  /// The feature's actions.
  public enum Action: Codable, Equatable, Sendable {
    /// Adds one.
    case increment
    /// Takes one away.
    case decrement
    /// Asks for a fact about the count: the effect answers with ``factResponse(_:)``.
    case factButtonTapped
    /// The fact, as the effect delivered it.
    case factResponse(String)
  }

  /// Creates the feature.
  public init() {}

  /// Reduces `action` into `state` and returns the effect to run.
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .increment:
      state.count += 1
      return .none
    case .decrement:
      state.count -= 1
      return .none
    case .factButtonTapped:
      state.isLoading = true
      // Side effects live here, outside the state: on replay they do not run.
      return .send([.factResponse("\(state.count) is a good number")])
    case .factResponse(let fact):
      state.isLoading = false
      state.fact = fact
      return .none
    }
  }
}

/// A store that runs a TCA-style reducer and feeds its effects back in.
public final class EffectStore<State: Sendable, Action: Sendable> {
  /// The current state.
  public private(set) var state: State
  private let reducer: (inout State, Action) -> Effect<Action>

  /// Creates a store with `reducer`.
  public init(initialState: State, reducer: @escaping (inout State, Action) -> Effect<Action>) {
    self.state = initialState
    self.reducer = reducer
  }

  /// Reduces `action`, then sends the actions its effect asks for.
  public func send(_ action: Action) {
    let effect = reducer(&state, action)
    if case .send(let actions) = effect { actions.forEach(send) }
  }
}

/// The counter feature's store, recorded: the recorder goes around the reducer.
public func makeRecordedCounterFeatureStore(
  path: String
) throws -> (
  EffectStore<CounterFeature.State, CounterFeature.Action>,
  Recorder<CounterFeature.State, CounterFeature.Action>
) {
  let feature = CounterFeature()
  // glue
  let recorder = try Recorder<CounterFeature.State, CounterFeature.Action>(
    path: path, app: "tca-counter", initialState: CounterFeature.State())
  let store = EffectStore<CounterFeature.State, CounterFeature.Action>(
    initialState: CounterFeature.State()
  ) { state, action in
    // glue
    recorder.reduce(&state, action, with: feature.reduce(into:action:))
  }
  return (store, recorder)
}

// glue
/// The reducer a replay target registers: the feature's, with its effects dropped. Each action
/// an effect sent was recorded as a line of its own when it reached the reducer, so running
/// effects on replay would apply them twice.
public let counterFeatureReplayReducer = Reducer<CounterFeature.State, CounterFeature.Action> {
  state, action in _ = CounterFeature().reduce(into: &state, action: action)
}

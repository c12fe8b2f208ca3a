import RecombineStandIn

// The app side of the Recombine recipe, as a Recombine app has it: raw actions go through a
// middleware whose side effects send refined actions, and a `MutatingReducer` reduces the refined
// ones. It imports only Recombine (here its stand-in) — and Combine, where there is Combine, for
// the middleware's publishers; the recording glue is in RecombineCounter+Recording.swift.
#if canImport(Combine)
  import Combine
#endif

/// The state of the Recombine counter app.
public struct RecombineCounterState: Codable, Equatable, Sendable {
  /// The count.
  public var count = 0
  /// The last fact fetched about the count.
  public var fact: String?
  /// Whether a fact is being fetched.
  public var isLoading = false

  /// Zero, no fact.
  public init() {}
}

/// The actions of the Recombine counter app, in Recombine's two kinds.
public enum RecombineCounterAction {
  /// What views dispatch for work with side effects; the middleware turns each into refined
  /// actions. Never recorded: the reducer never sees one.
  public enum Raw: Sendable {
    /// Fetch a fact about the count: ``Refined/factRequested`` at once, then
    /// ``Refined/factLoaded(_:)`` when the fact arrives.
    case fetchFact
    /// Back to zero and no fact: ``Refined/set(_:)`` and ``Refined/factCleared``.
    case reset
  }

  /// What the reducer takes: dispatched directly, or sent by a side effect of a raw action.
  public enum Refined: Codable, Equatable, Sendable {
    /// Adds one.
    case increment
    /// Takes one away.
    case decrement
    /// Sets the count.
    case set(Int)
    /// A fact was asked for.
    case factRequested
    /// The fact arrived.
    case factLoaded(String)
    /// The fact was cleared.
    case factCleared
  }
}

/// The app's reducer. (A computed property: a Recombine reducer holds a closure, so it is not
/// `Sendable` and cannot be a global `let` in Swift 6.)
public var recombineCounterReducer:
  MutatingReducer<RecombineCounterState, RecombineCounterAction.Refined>
{
  MutatingReducer { state, action in
    switch action {
    case .increment: state.count += 1
    case .decrement: state.count -= 1
    case .set(let count): state.count = count
    case .factRequested: state.isLoading = true
    case .factLoaded(let fact):
      state.isLoading = false
      state.fact = fact
    case .factCleared: state.fact = nil
    }
  }
}

/// Where facts come from: the app's network, which answers later. This one answers when told
/// to (``deliverAll()``), so that a test decides when the side effect finishes.
public final class RecombineFactClient {
  private var waiting: [(count: Int, answer: (String) -> Void)] = []

  /// A client with no request waiting.
  public init() {}

  /// Asks for a fact about `count`; `answer` is called with it later.
  public func fetch(_ count: Int, answer: @escaping (String) -> Void) {
    waiting.append((count, answer))
  }

  /// Answers every request waiting, in the order they were made.
  public func deliverAll() {
    let answering = waiting
    waiting = []
    for request in answering { request.answer("\(request.count) is a good number") }
  }
}

#if canImport(Combine)
  extension RecombineFactClient {
    /// The fact about `count`, as a publisher that sends it when it arrives.
    public func fact(about count: Int) -> AnyPublisher<String, Never> {
      let fact = PassthroughSubject<String, Never>()
      fetch(count) { fact.send($0) }
      return fact.prefix(1).eraseToAnyPublisher()
    }
  }

  /// The app's middleware, in Recombine's form: each raw action becomes a publisher of refined
  /// actions.
  public func recombineCounterMiddleware(
    facts: RecombineFactClient
  ) -> Middleware<RecombineCounterState, RecombineCounterAction.Raw, RecombineCounterAction.Refined>
  {
    Middleware { state, action -> AnyPublisher<RecombineCounterAction.Refined, Never> in
      switch action {
      case .fetchFact:
        return state.flatMap { facts.fact(about: $0.count) }
          .map { RecombineCounterAction.Refined.factLoaded($0) }
          .prepend(RecombineCounterAction.Refined.factRequested)
          .eraseToAnyPublisher()
      case .reset:
        return [RecombineCounterAction.Refined.set(0), .factCleared].publisher
          .eraseToAnyPublisher()
      }
    }
  }
#else
  /// The app's middleware, its side effects as closures (Combine is not on this platform): each
  /// raw action's side effect sends refined actions when it has them.
  public func recombineCounterMiddleware(
    facts: RecombineFactClient
  ) -> Middleware<RecombineCounterState, RecombineCounterAction.Raw, RecombineCounterAction.Refined>
  {
    Middleware { state, action in
      switch action {
      case .fetchFact:
        return { send in
          send(.factRequested)
          facts.fetch(state().count) { send(.factLoaded($0)) }
        }
      case .reset:
        return { send in
          send(.set(0))
          send(.factCleared)
        }
      }
    }
  }
#endif

/// Turns each raw action into the refined actions its side effect sends, now or later: the only
/// way a raw action reaches the reducer. In Recombine a middleware's transform returns a
/// publisher (`AnyPublisher<Output, Never>`); here it returns a ``SideEffect``, a closure given
/// the function that sends each refined action into the store. On Apple platforms a transform
/// may return a Combine publisher too (Platform+Combine.swift).
///
/// ```swift
/// let middleware = Middleware<AppState, Raw, Refined> { state, action in
///   switch action {
///   case .reset: return { send in send(.set(0)) }
///   case .fetch: return { send in api.fetch(state().count) { send(.loaded($0)) } }
///   }
/// }
/// ```
public struct Middleware<State, Input, Output> {
  /// Reads the store's current state (Recombine gives a publisher of it).
  public typealias StateReader = () -> State
  /// Sends one refined action into the store, to the reducer.
  public typealias Send = (Output) -> Void
  /// A side effect: started with ``Send``, it sends its actions when it has them.
  public typealias SideEffect = (@escaping Send) -> Void

  /// Starts the side effect of an input; returns what must live as long as it runs (a Combine
  /// subscription), if anything.
  let start: (_ state: @escaping StateReader, _ input: Input, _ send: @escaping Send) -> AnyObject?

  /// A middleware that sends each action on unchanged.
  public init() where Input == Output {
    start = { _, input, send in
      send(input)
      return nil
    }
  }

  /// A middleware whose `transform` returns the side effect of each input.
  public init(_ transform: @escaping (_ state: @escaping StateReader, _ input: Input) -> SideEffect)
  {
    start = { state, input, send in
      transform(state, input)(send)
      return nil
    }
  }

  /// A middleware of the function that starts each input's side effect.
  init(
    start:
      @escaping (_ state: @escaping StateReader, _ input: Input, _ send: @escaping Send) ->
      AnyObject?
  ) {
    self.start = start
  }
}

// Where Combine is: the store is an `ObservableObject`, and a middleware's transform may return
// a publisher, as in Recombine. Elsewhere (Linux) side effects are closures only.
#if canImport(Combine)
  import Combine

  extension Store: ObservableObject {
    /// Tells SwiftUI that the state is about to change.
    func stateWillChange() {
      objectWillChange.send()
    }
  }

  extension Middleware {
    /// The store's current state, as a publisher that sends it once (Recombine's is
    /// `Publishers.First<Published<State>.Publisher>`).
    public typealias StatePublisher = Just<State>

    /// A middleware whose `transform` returns a publisher of each input's refined actions.
    public init<P: Publisher>(_ transform: @escaping (StatePublisher, Input) -> P)
    where P.Output == Output, P.Failure == Never {
      self.init(start: { state, input, send in
        transform(Just(state()), input).sink(receiveValue: send)
      })
    }
  }
#else
  extension Store {
    /// Nothing observes the store without Combine.
    func stateWillChange() {}
  }
#endif

/// Wraps the store's dispatch function: given the store (to read its state and dispatch) and
/// the next dispatch function, it returns the one actions go through first. Middlewares run in
/// the order given to the store; the last one's `next` runs the reducer.
///
/// ```swift
/// let logger = Middleware<AppState>(run: { store in { next in { action in
///   next(action)
///   print(action, store.getState())
/// } } })
/// ```
public struct Middleware<AppState> {
  /// Makes the wrapped dispatch function.
  public let run: (Store<AppState>) -> (@escaping (Action) -> Void) -> (Action) -> Void

  /// A middleware of `run`.
  public init(run: @escaping (Store<AppState>) -> (@escaping (Action) -> Void) -> (Action) -> Void)
  {
    self.run = run
  }
}

/// A step that every dispatched action passes through, in order, before it reaches the reducer.
///
/// A middleware sees the action and a ``MiddlewareContext`` (the current state and a way to
/// dispatch more actions) and decides what reaches the next middleware and finally the reducer:
/// - return the action unchanged to pass it on,
/// - return `nil` to drop it,
/// - return another action to replace it,
/// - call `context.dispatch(_:)` to dispatch new actions; they are queued and run after the
///   current action has been reduced and every subscriber has seen it.
///
/// Middleware run in the order given to the ``Store`` (then in the order added later with
/// ``Store/addMiddleware(_:)``). They run one action at a time, in the store's single order.
///
/// ```swift
/// let logger = Middleware<CounterState, CounterAction>(name: "logger") { action, context in
///   print("before \(action): \(context.state)")
///   return action
/// }
/// ```
public struct Middleware<State: Sendable, Action: Sendable>: Sendable {
  /// A name for messages and debugging.
  public var name: String
  private let body: @Sendable (Action, MiddlewareContext<State, Action>) -> Action?

  /// Creates a middleware.
  ///
  /// - Parameters:
  ///   - name: A name for messages and debugging.
  ///   - handle: Called with each action; returns the action to pass on, a replacement, or `nil`
  ///     to drop it.
  public init(
    name: String,
    _ handle:
      @escaping @Sendable (_ action: Action, _ context: MiddlewareContext<State, Action>) ->
      Action?
  ) {
    self.name = name
    self.body = handle
  }

  /// Runs the middleware on `action`.
  public func handle(_ action: Action, context: MiddlewareContext<State, Action>) -> Action? {
    body(action, context)
  }
}

/// What a ``Middleware`` can see and do while it handles an action.
public struct MiddlewareContext<State: Sendable, Action: Sendable>: Sendable {
  private let readState: @Sendable () -> State
  private let enqueue: @Sendable (Action, StaticString, UInt) -> Void
  private let readCause: @Sendable () -> ActionCause

  /// Creates a context from a state reader and a dispatcher (for testing a middleware alone).
  public init(
    state: @escaping @Sendable () -> State,
    dispatch: @escaping @Sendable (Action) -> Void
  ) {
    self.readState = state
    self.enqueue = { action, _, _ in dispatch(action) }
    self.readCause = { ActionCause() }
  }

  /// The store's context: its dispatch keeps the call site, and the current action's cause.
  init(
    state: @escaping @Sendable () -> State,
    dispatch: @escaping @Sendable (Action, StaticString, UInt) -> Void,
    cause: @escaping @Sendable () -> ActionCause
  ) {
    self.readState = state
    self.enqueue = dispatch
    self.readCause = cause
  }

  /// The state before the current action is reduced.
  public var state: State { readState() }

  /// The action being handled, as the cause of actions dispatched later: an effect that
  /// finishes after the middleware returned keeps it and dispatches with
  /// ``Store/dispatch(_:causedBy:file:line:)``. Read it while the middleware handles the action.
  public var cause: ActionCause { readCause() }

  /// Dispatches a new action; it runs after the current one has been reduced, and its cause is
  /// the current one.
  public func dispatch(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
    enqueue(action, file, line)
  }
}

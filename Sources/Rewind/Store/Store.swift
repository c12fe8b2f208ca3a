import Foundation
import Observation

/// The single source of truth of an app: holds the whole state and changes it only by running
/// dispatched actions through middleware and the reducer.
///
/// - `dispatch(_:)` may be called from any thread. Dispatches are serialised: every action is
///   reduced exactly once, in one total order that middleware and subscribers all observe.
///   When `dispatch(_:)` returns, the action (and every action dispatched while handling it) has
///   been reduced and every subscriber has been called.
/// - A dispatch from inside a middleware or a subscriber is queued and runs after the current
///   action. A dispatch from inside the reducer is a programmer error and stops the program with
///   a message that says so.
/// - The store is `Observable` (macOS 14, iOS 17, tvOS 17, watchOS 10 and later): a SwiftUI view
///   that reads `store.state` updates when it changes (dispatch from the main actor when SwiftUI
///   observes the store). Below those versions it works the same, unobserved.
/// - Middleware, subscribers and observation callbacks run while the store holds its dispatch
///   lock. A subscriber that waits for another thread which itself dispatches to this store
///   deadlocks; so does reading `store.state` from inside the reducer or a ``read(_:)`` body.
///
/// ```swift
/// let store = Store(initialState: CounterState(), reducer: counterReducer)
/// let token = store.subscribe(\.count) { print("count is now \($0)") }
/// store.dispatch(.increment)
/// ```
public final class Store<State: Sendable, Action: Sendable>: @unchecked Sendable {
  // Why `@unchecked Sendable` is sound: `stateBox` is a `Locked`; every other mutable stored
  // property (`pipeline`) is only read or written while `processLock` is held, and
  // `processLock` (an `NSRecursiveLock`) is itself thread-safe. The registrar is `Sendable`.
  private let stateBox: StateCell<State>
  private let processLock = NSRecursiveLock()
  private var pipeline: Pipeline
  /// The ``ObservationRegistrar``'s box where Observation exists (`nil` before macOS 14,
  /// iOS 17, tvOS 17, watchOS 10): a stored property cannot have a newer type than the class.
  private let observation: AnyObject?
  /// `\.state`, made once: a key path literal of a generic class is instantiated at run time on
  /// every evaluation, which cost about half of a dispatch.
  private let stateKeyPath: KeyPath<Store, State>

  /// An action waiting in the dispatch queue, with where it came from.
  private struct Dispatched {
    var action: Action
    var file: StaticString
    var line: UInt
    var cause: ActionCause?
    /// The live viewer's request, for an action it sent.
    var viewerRequest: Int? = nil
  }

  /// Everything the dispatch loop owns; guarded by `processLock`.
  private struct Pipeline {
    var reducer: Reducer<State, Action>
    var middleware: [Middleware<State, Action>]
    var subscribers: [(id: UInt64, notify: @Sendable (State) -> Void)] = []
    var nextSubscriberID: UInt64 = 0
    var queue: [Dispatched] = []
    var queueHead = 0
    /// The cause token of the action being handled, made when something it causes is
    /// dispatched (``currentCause()``).
    var currentCause: ActionCause?
    /// The `seq` the recorder gave the action being handled; 0 before it is recorded.
    var currentSeq = 0
    var isDraining = false
    var isReducing = false
    var reducedCount = 0
    var hooks: [(id: UInt64, hooks: ReduceHooks<State, Action>)] = []
    var nextHookID: UInt64 = 0
  }

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state before any action.
  ///   - reducer: The reducer every action runs through.
  ///   - middleware: Middleware every action passes through first, in this order. A recorder
  ///     goes last, so that it records exactly the actions the reducer sees.
  public init(
    initialState: State,
    reducer: Reducer<State, Action>,
    middleware: [Middleware<State, Action>] = []
  ) {
    self.stateBox = StateCell(initialState)
    self.stateKeyPath = \Store.state
    self.pipeline = Pipeline(reducer: reducer, middleware: middleware)
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      observation = ObservationBox()
    } else {
      observation = nil
    }
  }

  /// The current state.
  ///
  /// Reading it from a SwiftUI view (or inside `withObservationTracking`) tracks it.
  public var state: State {
    observeAccess()
    return stateBox.mutex.withLock { $0 }
  }

  /// Reads a part of the current state without copying the rest of it.
  public func read<Value>(_ body: (borrowing State) throws -> Value) rethrows -> Value {
    observeAccess()
    return try stateBox.mutex.withLock { state in try body(state) }
  }

  /// The number of actions reduced so far.
  public var reducedCount: Int {
    processLock.lock()
    defer { processLock.unlock() }
    return pipeline.reducedCount
  }

  /// Appends a middleware after the existing ones. It sees the next action dispatched.
  public func addMiddleware(_ middleware: Middleware<State, Action>) {
    processLock.lock()
    defer { processLock.unlock() }
    pipeline.middleware.append(middleware)
  }

  /// Dispatches an action: it passes through the middleware, then the reducer, then every
  /// subscriber is called with the new state.
  ///
  /// Safe to call from any thread. From inside a middleware or subscriber, the action is queued
  /// and runs after the current one, and its cause is the current one; from inside the reducer
  /// it is a programmer error. `file` and `line` are the call site a recorder that records
  /// origins writes (``RecordingOptions/recordsOrigins``); leave them to their defaults.
  public func dispatch(_ action: Action, file: StaticString = #fileID, line: UInt = #line) {
    enqueue(action, file: file, line: line, cause: nil)
  }

  /// Dispatches an action caused by another one that was handled earlier: an effect that
  /// finishes later keeps the ``MiddlewareContext/cause`` of the action that started it and
  /// passes it here, so that the log links the two (`replay`'s `action N`, `list --tree`).
  public func dispatch(
    _ action: Action, causedBy cause: ActionCause?, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    enqueue(action, file: file, line: line, cause: cause)
  }

  /// Dispatches an action whose origin is known already: the live viewer's actions
  /// (``Recorder/onViewerAction(on:_:)``), or a bridge from another dispatch path that kept the
  /// call site and cause.
  public func dispatch(_ action: Action, origin: ActionOrigin) {
    enqueue(
      action, file: origin.file, line: origin.line, cause: origin.cause.map(ActionCause.init(seq:)),
      viewerRequest: origin.viewerRequest)
  }

  /// Queues `action` and, unless this thread is already draining the queue, runs the queue. An
  /// action dispatched while another is handled (from a middleware, a subscriber or an
  /// observation callback) is caused by it, unless a cause is given.
  private func enqueue(
    _ action: Action, file: StaticString, line: UInt, cause: ActionCause?,
    viewerRequest: Int? = nil
  ) {
    processLock.lock()
    defer { processLock.unlock() }
    if pipeline.isReducing {
      StoreDiagnostics.report(
        "Rewind: dispatch(\(String(describing: action))) was called from inside a reducer of "
          + "Store<\(State.self), \(Action.self)>. A reducer must be a pure function of the state "
          + "and the action. To fix, dispatch follow-up actions from a middleware or a subscriber "
          + "(they are queued after the current action).")
      return
    }
    let cause = cause ?? (pipeline.isDraining ? currentCause() : nil)
    pipeline.queue.append(
      Dispatched(
        action: action, file: file, line: line, cause: cause, viewerRequest: viewerRequest))
    guard !pipeline.isDraining else { return }
    pipeline.isDraining = true
    defer {
      pipeline.isDraining = false
      pipeline.queue.removeAll(keepingCapacity: true)
      pipeline.queueHead = 0
      pipeline.currentCause = nil
    }
    while pipeline.queueHead < pipeline.queue.count {
      let next = pipeline.queue[pipeline.queueHead]
      pipeline.queueHead += 1
      process(next)
    }
  }

  /// The cause token of the action being handled (made on first use, under `processLock`).
  private func currentCause() -> ActionCause {
    if let cause = pipeline.currentCause { return cause }
    let cause = ActionCause()
    cause.resolve(pipeline.currentSeq)
    pipeline.currentCause = cause
    return cause
  }

  private func process(_ dispatched: Dispatched) {
    pipeline.currentCause = nil
    pipeline.currentSeq = 0
    let context = MiddlewareContext<State, Action>(
      state: { [stateBox] in stateBox.mutex.withLock { $0 } },
      dispatch: { [weak self] action, file, line in
        self?.enqueue(action, file: file, line: line, cause: nil)
      },
      cause: { [weak self] in self?.currentCauseLocked() ?? ActionCause() })
    var current = dispatched.action
    for middleware in pipeline.middleware {
      guard let passed = middleware.handle(current, context: context) else { return }
      current = passed
    }
    let reducer = pipeline.reducer
    if !pipeline.hooks.isEmpty {
      var origin = ActionOrigin(
        file: dispatched.file, line: dispatched.line, cause: dispatched.cause?.seq)
      origin.viewerRequest = dispatched.viewerRequest
      for entry in pipeline.hooks {
        let seq = entry.hooks.willReduce(current, origin)
        if seq > 0 { pipeline.currentSeq = seq }
      }
      if pipeline.currentSeq > 0 { pipeline.currentCause?.resolve(pipeline.currentSeq) }
    }
    // Observation callbacks run inside willSet/didSet: outside the reducing flag, so that a
    // dispatch from one of them is queued like a dispatch from a subscriber.
    observeWillSet()
    pipeline.isReducing = true
    // A closure, not a key path: a key path into a generic type is instantiated at run time on
    // every evaluation unless the optimizer removes it, which it stopped doing here once.
    var check: (@Sendable (inout State, Action, (inout State) -> Void) -> Void)?
    for entry in pipeline.hooks where entry.hooks.reduce != nil {
      check = entry.hooks.reduce
      break
    }
    let newState = stateBox.mutex.withLock { state -> State in
      if let check {
        check(&state, current) { reducer.run(&$0, current) }
      } else {
        reducer.run(&state, current)
      }
      return state
    }
    pipeline.isReducing = false
    observeDidSet()
    pipeline.reducedCount += 1
    for entry in pipeline.hooks { entry.hooks.didReduce(newState) }
    for subscriber in pipeline.subscribers {
      subscriber.notify(newState)
    }
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Store: Observable {}

/// The store's observation registrar, boxed so that ``Store`` can hold it as an `AnyObject`
/// below the versions that have Observation.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private final class ObservationBox: Sendable {
  let registrar = ObservationRegistrar()
}

extension Store {
  /// The registrar, where Observation exists.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @inline(__always)
  private var registrar: ObservationRegistrar? {
    observation.map { unsafeDowncast($0, to: ObservationBox.self).registrar }
  }

  /// Tells observers that the state was read.
  @inline(__always)
  private func observeAccess() {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      registrar?.access(self, keyPath: stateKeyPath)
    }
  }

  /// Tells observers that the state is about to change.
  @inline(__always)
  private func observeWillSet() {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      registrar?.willSet(self, keyPath: stateKeyPath)
    }
  }

  /// Tells observers that the state changed.
  @inline(__always)
  private func observeDidSet() {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
      registrar?.didSet(self, keyPath: stateKeyPath)
    }
  }
}

extension Store {
  /// ``currentCause()`` with the lock taken (a middleware's context asks from the dispatching
  /// thread, which holds it already: the lock is recursive).
  fileprivate func currentCauseLocked() -> ActionCause {
    processLock.lock()
    defer { processLock.unlock() }
    return currentCause()
  }

  /// Installs hooks that run around the reducer, after every middleware: `make` gets the current
  /// state and runs under the dispatch lock, so no action runs between it and the first hook call.
  /// - Returns: What `make` returned, and an id for ``detachHooks(_:)``.
  package func attachHooks<Value, Failure: Error>(
    _ make: (State) throws(Failure) -> (Value, ReduceHooks<State, Action>)
  ) throws(Failure) -> (Value, UInt64) {
    processLock.lock()
    defer { processLock.unlock() }
    let (value, hooks) = try make(stateBox.mutex.withLock { $0 })
    let id = pipeline.nextHookID
    pipeline.nextHookID += 1
    pipeline.hooks.append((id: id, hooks: hooks))
    return (value, id)
  }

  /// Removes hooks installed by ``attachHooks(_:)``.
  /// - Returns: The state at that moment: the state after the last action the hooks saw (an
  ///   action and its hooks run under the same lock).
  @discardableResult
  package func detachHooks(_ id: UInt64) -> State {
    processLock.lock()
    defer { processLock.unlock() }
    pipeline.hooks.removeAll { $0.id == id }
    return stateBox.mutex.withLock { $0 }
  }

  /// Calls `handler` with the whole state after every action.
  ///
  /// Subscribers are called after the state changed, in subscription order. The handler is not
  /// called at subscription time; read ``state`` for the current value.
  /// - Returns: A token that ends the subscription when cancelled or released.
  public func subscribe(_ handler: @escaping @Sendable (State) -> Void) -> Subscription {
    addSubscriber(handler)
  }

  /// Calls `handler` with the value of `select(state)` after every action that changes it.
  ///
  /// Repeats are skipped: the handler runs only when the selected value differs from the last
  /// one it was called with (or, at first, from the value at subscription time).
  /// - Returns: A token that ends the subscription when cancelled or released.
  public func subscribe<Value: Equatable & Sendable>(
    select: @escaping @Sendable (State) -> Value,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    subscribe(select: select, skipRepeats: true, handler)
  }

  /// Calls `handler` with `select(state)` after every action; with `skipRepeats`, only when
  /// the value changed since the last call.
  /// - Returns: A token that ends the subscription when cancelled or released.
  public func subscribe<Value: Equatable & Sendable>(
    select: @escaping @Sendable (State) -> Value,
    skipRepeats: Bool,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    guard skipRepeats else { return addSubscriber { state in handler(select(state)) } }
    let last = Locked<Value>(select(state))
    return addSubscriber { state in
      let value = select(state)
      let changed = last.withLock { previous -> Bool in
        guard previous != value else { return false }
        previous = value
        return true
      }
      if changed { handler(value) }
    }
  }

  /// Calls `handler` with `select(state)` after every action (the value is not `Equatable`,
  /// so repeats cannot be skipped).
  /// - Returns: A token that ends the subscription when cancelled or released.
  public func subscribe<Value: Sendable>(
    select: @escaping @Sendable (State) -> Value,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    addSubscriber { state in handler(select(state)) }
  }

  /// Calls `handler` with the value at `keyPath` after every action that changes it.
  /// - Returns: A token that ends the subscription when cancelled or released.
  public func subscribe<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    subscribe(select: { $0[keyPath: keyPath] }, skipRepeats: true, handler)
  }

  /// Calls `handler` with the value at `keyPath` after every action.
  /// - Returns: A token that ends the subscription when cancelled or released.
  public func subscribe<Value: Sendable>(
    _ keyPath: KeyPath<State, Value> & Sendable,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> Subscription {
    subscribe(select: { $0[keyPath: keyPath] }, handler)
  }

  private func addSubscriber(_ notify: @escaping @Sendable (State) -> Void) -> Subscription {
    processLock.lock()
    defer { processLock.unlock() }
    let id = pipeline.nextSubscriberID
    pipeline.nextSubscriberID += 1
    pipeline.subscribers.append((id: id, notify: notify))
    return Subscription { [weak self] in self?.removeSubscriber(id) }
  }

  private func removeSubscriber(_ id: UInt64) {
    processLock.lock()
    defer { processLock.unlock() }
    pipeline.subscribers.removeAll { $0.id == id }
  }
}

/// A reference to the store's state, so the middleware context can read it without keeping the
/// store alive.
private final class StateCell<Value: Sendable>: Sendable {
  let mutex: Locked<Value>
  init(_ value: Value) { mutex = Locked(value) }
}

/// Calls around the reducer, for the recorder: `willReduce` with the action about to be reduced
/// (after every middleware), `didReduce` with the state after it, and `reduce`, when set, runs
/// the reducer itself (given as its last argument), to check it.
package struct ReduceHooks<State: Sendable, Action: Sendable>: Sendable {
  /// Records the action; returns the `seq` it was given (0 when none).
  package var willReduce: @Sendable (Action, ActionOrigin) -> Int
  package var didReduce: @Sendable (State) -> Void
  package var reduce: (@Sendable (inout State, Action, (inout State) -> Void) -> Void)?

  package init(
    willReduce: @escaping @Sendable (Action, ActionOrigin) -> Int,
    didReduce: @escaping @Sendable (State) -> Void,
    reduce: (@Sendable (inout State, Action, (inout State) -> Void) -> Void)? = nil
  ) {
    self.willReduce = willReduce
    self.didReduce = didReduce
    self.reduce = reduce
  }
}

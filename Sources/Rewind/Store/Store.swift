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
  /// Not checked for exclusive access at run time (three checks a dispatch): `processLock`
  /// guards every access.
  @exclusivity(unchecked) private var pipeline: Pipeline
  /// The ``ObservationRegistrar``'s box where Observation exists (`nil` before macOS 14,
  /// iOS 17, tvOS 17, watchOS 10): a stored property cannot have a newer type than the class.
  private let observation: AnyObject?

  /// An action waiting in the dispatch queue, with where it came from: one dispatched from inside
  /// a middleware, a subscriber or an observation callback, while another is handled.
  private struct Dispatched {
    var action: Action
    var file: StaticString
    var line: UInt
    var cause: ActionCause?
    /// The live viewer's request, for an action it sent.
    var viewerRequest: Int? = nil
  }

  /// Everything the dispatch loop owns; guarded by `processLock`.
  ///
  /// What every dispatch walks — middleware, hooks, subscribers — it walks as immutable linked
  /// lists of classes (``Link``, made again after a change, ``WalkedList``): walking an array
  /// or a tuple whose element type depends on `State` and `Action`, in this generic code that
  /// the app's module does not specialise, looks up the element's type metadata in the
  /// runtime's tables on every dispatch (about 40% of a dispatch), while a class's fields and a
  /// closure's call need none. A walk under way keeps the list it started with, so a subscriber
  /// that cancels itself or another, or subscribes another, changes the next action's walk.
  private struct Pipeline {
    var reducer: Reducer<State, Action>
    /// The middleware, in order (never removed: their ids are all 0).
    var middleware = WalkedList<Middleware<State, Action>>()
    /// The context every middleware gets, made on first use (it is the same for every action):
    /// a list of one, for the same reason.
    var middlewareContext: Link<MiddlewareContext<State, Action>>?
    var subscribers = WalkedList<@Sendable (State) -> Void>()
    var nextSubscriberID: UInt64 = 0
    /// Actions dispatched while another is handled, waiting for it to finish.
    var queue: [Dispatched] = []
    /// Whether `queue` holds any (checked instead of `queue.isEmpty`, which is generic code).
    var hasQueued = false
    /// The cause token of the action being handled, made when something it causes is
    /// dispatched (``currentCause()``).
    var currentCause: ActionCause?
    /// The `seq` the recorder gave the action being handled; 0 before it is recorded.
    var currentSeq = 0
    var isDraining = false
    var isReducing = false
    var reducedCount = 0
    var hooks = WalkedList<ReduceHooks<State, Action>>()
    /// The first hooks' `reduce`, which runs the reducer (found when hooks change).
    var reduceCheck: (@Sendable (inout State, Action, (inout State) -> Void) -> Void)?
    var nextHookID: UInt64 = 0
  }

  /// One element of an immutable list the dispatch loop walks (``Pipeline``), with an id to remove
  /// it by.
  private final class Link<Element>: @unchecked Sendable {
    // Why `@unchecked Sendable` is sound: every stored property is a `let`, and the elements
    // are the store's `Sendable` middleware, hooks and subscribers.
    let next: Link?
    let id: UInt64
    let element: Element

    init(_ element: Element, id: UInt64, next: Link?) {
      self.element = element
      self.id = id
      self.next = next
    }

    /// `entries` as a list, in the same order.
    static func list(_ entries: [(id: UInt64, element: Element)]) -> Link? {
      var list: Link?
      for entry in entries.reversed() { list = Link(entry.element, id: entry.id, next: list) }
      return list
    }
  }

  /// Middleware, hooks or subscribers: the ones added, in order, and the list a dispatch walks
  /// (``Pipeline``), made again at the first walk after a change — so that adding many
  /// subscribers one after the other costs each one an append, not a new list.
  private struct WalkedList<Element> {
    /// The elements in the order added, with the ids they are removed by.
    private var entries: [(id: UInt64, element: Element)] = []
    /// `entries` as a list to walk; `nil` when stale. A change lets the old list go at once: a
    /// removed subscriber that holds the store must not keep it alive until the next dispatch
    /// (a walk under way holds the list it walks itself).
    private var list: Link<Element>?
    private var isStale = false

    /// Adds `element` at the end.
    mutating func append(_ element: Element, id: UInt64) {
      entries.append((id, element))
      list = nil
      isStale = true
    }

    /// Removes the element added with `id`.
    mutating func remove(id: UInt64) {
      entries.removeAll { $0.id == id }
      list = nil
      isStale = true
    }

    /// The list to walk; `nil` when there is none.
    @inline(__always)
    mutating func walk() -> Link<Element>? {
      if isStale { remake() }
      return list
    }

    /// Makes the list again from `entries` (out of line: the common walk needs no metadata).
    @inline(never)
    private mutating func remake() {
      list = Link.list(entries)
      isStale = false
    }
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
    var pipeline = Pipeline(reducer: reducer)
    for element in middleware { pipeline.middleware.append(element, id: 0) }
    self.pipeline = pipeline
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
    pipeline.middleware.append(middleware, id: 0)
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

  /// Runs `action` or, when this thread is already handling one (a dispatch from a middleware, a
  /// subscriber or an observation callback), queues it to run next; such an action is caused by
  /// the one being handled, unless a cause is given. Then runs what was queued meanwhile.
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
    guard !pipeline.isDraining else {
      queue(action, file: file, line: line, cause: cause ?? currentCause(), viewerRequest)
      return
    }
    pipeline.isDraining = true
    defer {
      pipeline.isDraining = false
      pipeline.currentCause = nil
    }
    // The action itself is handled without going through the queue: most dispatches queue
    // nothing, and the queue's array is generic code that looks up type metadata (``Pipeline``).
    process(action, file: file, line: line, cause: cause, viewerRequest: viewerRequest)
    if pipeline.hasQueued { drainQueue() }
  }

  /// Queues an action dispatched while another is handled (under `processLock`).
  @inline(never)
  private func queue(
    _ action: Action, file: StaticString, line: UInt, cause: ActionCause, _ viewerRequest: Int?
  ) {
    pipeline.queue.append(
      Dispatched(
        action: action, file: file, line: line, cause: cause, viewerRequest: viewerRequest))
    pipeline.hasQueued = true
  }

  /// Handles the queued actions, and those they queue, in order (under `processLock`).
  @inline(never)
  private func drainQueue() {
    var head = 0
    while head < pipeline.queue.count {
      let next = pipeline.queue[head]
      head += 1
      process(
        next.action, file: next.file, line: next.line, cause: next.cause,
        viewerRequest: next.viewerRequest)
    }
    pipeline.queue.removeAll(keepingCapacity: true)
    pipeline.hasQueued = false
  }

  /// The cause token of the action being handled (made on first use, under `processLock`).
  private func currentCause() -> ActionCause {
    if let cause = pipeline.currentCause { return cause }
    let cause = ActionCause()
    cause.resolve(pipeline.currentSeq)
    pipeline.currentCause = cause
    return cause
  }

  /// The context every middleware gets (made once, under `processLock`).
  private func middlewareContext() -> MiddlewareContext<State, Action> {
    if let made = pipeline.middlewareContext { return made.element }
    let context = MiddlewareContext<State, Action>(
      state: { [stateBox] in stateBox.mutex.withLock { $0 } },
      dispatch: { [weak self] action, file, line in
        self?.enqueue(action, file: file, line: line, cause: nil)
      },
      cause: { [weak self] in self?.currentCauseLocked() ?? ActionCause() })
    pipeline.middlewareContext = Link(context, id: 0, next: nil)
    return context
  }

  /// Handles one action: middleware, hooks, the reducer, subscribers (under `processLock`).
  private func process(
    _ action: Action, file: StaticString, line: UInt, cause: ActionCause?, viewerRequest: Int?
  ) {
    pipeline.currentCause = nil
    pipeline.currentSeq = 0
    var current = action
    if let first = pipeline.middleware.walk() {
      let context = middlewareContext()
      var link: Link? = first
      while let middleware = link {
        guard let passed = middleware.element.handle(current, context: context) else { return }
        current = passed
        link = middleware.next
      }
    }
    let reducer = pipeline.reducer
    let hooks = pipeline.hooks.walk()
    if let first = hooks {
      var origin = ActionOrigin(file: file, line: line, cause: cause?.seq)
      origin.viewerRequest = viewerRequest
      var link: Link? = first
      while let entry = link {
        let seq = entry.element.willReduce(current, origin)
        if seq > 0 { pipeline.currentSeq = seq }
        link = entry.next
      }
      if pipeline.currentSeq > 0 { pipeline.currentCause?.resolve(pipeline.currentSeq) }
    }
    // Observation callbacks run inside willSet/didSet: outside the reducing flag, so that a
    // dispatch from one of them is queued like a dispatch from a subscriber.
    observeWillSet()
    pipeline.isReducing = true
    // The hooks' check of the reducer, found when hooks change (``noteHooksChanged()``).
    let check = pipeline.reduceCheck
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
    // The hooks again: an observation callback may have closed a recorder since `willReduce`.
    var link = pipeline.hooks.walk()
    while let entry = link {
      entry.element.didReduce(newState)
      link = entry.next
    }
    var subscriber = pipeline.subscribers.walk()
    while let entry = subscriber {
      entry.element(newState)
      subscriber = entry.next
    }
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Store: Observable {}

/// The store's observation registrar, boxed so that ``Store`` can hold it as an `AnyObject`
/// below the versions that have Observation.
///
/// The registrar's calls name this box and its `state` rather than the store and `\Store.state`:
/// an observer is told by the registrar and the key path, which are the same for every read and
/// change of the store's state, so tracking is unchanged; and the calls are not generic over
/// `Store<State, Action>`, each of which looked up the store's `Observable` conformance in the
/// runtime's tables (twice a dispatch).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private final class ObservationBox: Observable, Sendable {
  let registrar = ObservationRegistrar()
  /// `\.state`, made once.
  let stateKeyPath: KeyPath<ObservationBox, Void> & Sendable = \.state
  /// Stands for the store's state in the registrar's calls.
  var state: Void { () }
}

extension Store {
  /// The registrar's box, where Observation exists.
  @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
  @inline(__always)
  private var observationBox: ObservationBox? {
    observation.map { unsafeDowncast($0, to: ObservationBox.self) }
  }

  /// Tells observers that the state was read.
  @inline(__always)
  private func observeAccess() {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let box = observationBox {
      box.registrar.access(box, keyPath: box.stateKeyPath)
    }
  }

  /// Tells observers that the state is about to change.
  @inline(__always)
  private func observeWillSet() {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let box = observationBox {
      box.registrar.willSet(box, keyPath: box.stateKeyPath)
    }
  }

  /// Tells observers that the state changed.
  @inline(__always)
  private func observeDidSet() {
    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *), let box = observationBox {
      box.registrar.didSet(box, keyPath: box.stateKeyPath)
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
    pipeline.hooks.append(hooks, id: id)
    noteHooksChanged()
    return (value, id)
  }

  /// Removes hooks installed by ``attachHooks(_:)``.
  /// - Returns: The state at that moment: the state after the last action the hooks saw (an
  ///   action and its hooks run under the same lock).
  @discardableResult
  package func detachHooks(_ id: UInt64) -> State {
    processLock.lock()
    defer { processLock.unlock() }
    pipeline.hooks.remove(id: id)
    noteHooksChanged()
    return stateBox.mutex.withLock { $0 }
  }

  /// Finds the first hooks' `reduce` again (under `processLock`).
  private func noteHooksChanged() {
    pipeline.reduceCheck = nil
    var link = pipeline.hooks.walk()
    while let entry = link, pipeline.reduceCheck == nil {
      pipeline.reduceCheck = entry.element.reduce
      link = entry.next
    }
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
    pipeline.subscribers.append(notify, id: id)
    return Subscription { [weak self] in self?.removeSubscriber(id) }
  }

  private func removeSubscriber(_ id: UInt64) {
    processLock.lock()
    defer { processLock.unlock() }
    pipeline.subscribers.remove(id: id)
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

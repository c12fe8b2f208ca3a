import Foundation
import Rewind
import RewindExamples
import Testing

private struct Panel: Equatable, Sendable {
  var count = 0
  var label = ""
  var box = Box(value: 0)

  static func == (lhs: Panel, rhs: Panel) -> Bool {
    lhs.count == rhs.count && lhs.label == rhs.label && lhs.box.value == rhs.box.value
  }
}

/// A value that is deliberately not `Equatable`.
private struct Box: Sendable {
  var value: Int
}

private enum PanelAction: Sendable {
  case increment
  case setLabel(String)
}

private let panelReducer = Reducer<Panel, PanelAction> { state, action in
  switch action {
  case .increment:
    state.count += 1
    state.box.value += 1
  case .setLabel(let label):
    state.label = label
  }
}

private func makePanelStore(_ initialState: Panel = Panel()) -> Store<Panel, PanelAction> {
  Store(initialState: initialState, reducer: panelReducer)
}

@Suite struct SubscriptionTests {
  @Test func wholeStateSubscriberIsCalledAfterEveryActionButNotAtSubscribeTime() {
    let store = makePanelStore()
    let seen = StoreTestLog<Panel>()
    let subscription = store.subscribe { seen.append($0) }
    #expect(seen.elements.isEmpty)

    store.dispatch(.increment)
    store.dispatch(.setLabel(""))  // Changes nothing, still notified.
    store.dispatch(.setLabel("x"))
    #expect(
      seen.elements == [
        Panel(count: 1, label: "", box: Box(value: 1)),
        Panel(count: 1, label: "", box: Box(value: 1)),
        Panel(count: 1, label: "x", box: Box(value: 1)),
      ])
    _ = subscription
  }

  @Test func keyPathSubscriptionSkipsRepeatedEquatableValues() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    let subscription = store.subscribe(\.count) { seen.append($0) }
    store.dispatch(.setLabel("a"))
    store.dispatch(.increment)
    store.dispatch(.setLabel("b"))
    store.dispatch(.setLabel("c"))
    store.dispatch(.increment)
    #expect(seen.elements == [1, 2])
    _ = subscription
  }

  @Test func skippingRepeatsComparesWithTheValueAtSubscriptionTime() {
    let store = makePanelStore(Panel(count: 5))
    let seen = StoreTestLog<Int>()
    let subscription = store.subscribe(\.count) { seen.append($0) }
    store.dispatch(.setLabel("a"))
    #expect(seen.elements.isEmpty)
    store.dispatch(.increment)
    #expect(seen.elements == [6])
    _ = subscription
  }

  @Test func keyPathSubscriptionToANonEquatableValueIsCalledAfterEveryAction() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    let subscription = store.subscribe(\.box) { seen.append($0.value) }
    store.dispatch(.setLabel("a"))
    store.dispatch(.increment)
    store.dispatch(.setLabel("b"))
    #expect(seen.elements == [0, 1, 1])
    _ = subscription
  }

  @Test func selectorSubscriptionSkipsRepeatsByDefault() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    let half: @Sendable (Panel) -> Int = { $0.count / 2 }
    let subscription = store.subscribe(select: half) { seen.append($0) }
    for _ in 1...5 { store.dispatch(.increment) }  // count 1...5, half 0, 1, 1, 2, 2
    #expect(seen.elements == [1, 2])
    _ = subscription
  }

  @Test func selectorSubscriptionWithoutSkippingRepeatsIsCalledAfterEveryAction() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    let half: @Sendable (Panel) -> Int = { $0.count / 2 }
    let subscription = store.subscribe(select: half, skipRepeats: false) {
      seen.append($0)
    }
    for _ in 1...5 { store.dispatch(.increment) }
    #expect(seen.elements == [0, 1, 1, 2, 2])
    _ = subscription
  }

  @Test func selectorSubscriptionWithSkipRepeatsTrueSkipsRepeats() {
    let store = makePanelStore()
    let seen = StoreTestLog<String>()
    let label: @Sendable (Panel) -> String = { $0.label }
    let subscription = store.subscribe(select: label, skipRepeats: true) {
      seen.append($0)
    }
    for label in ["a", "a", "b", "b", "a"] { store.dispatch(.setLabel(label)) }
    #expect(seen.elements == ["a", "b", "a"])
    _ = subscription
  }

  @Test func selectorSubscriptionToANonEquatableValueIsCalledAfterEveryAction() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    let tenfold: @Sendable (Panel) -> Box = { Box(value: $0.count * 10) }
    let subscription = store.subscribe(select: tenfold) {
      seen.append($0.value)
    }
    store.dispatch(.setLabel("a"))
    store.dispatch(.increment)
    store.dispatch(.setLabel("a"))
    #expect(seen.elements == [0, 10, 10])
    _ = subscription
  }

  @Test func subscriberSeesTheNewStateWhenItReadsTheStore() {
    let store = makePanelStore()
    let seen = StoreTestLog<String>()
    let subscription = store.subscribe { [weak store] state in
      let current = store?.state.count ?? -1
      seen.append("given \(state.count), store has \(current)")
    }
    store.dispatch(.increment)
    store.dispatch(.increment)
    #expect(seen.elements == ["given 1, store has 1", "given 2, store has 2"])
    _ = subscription
  }

  @Test func subscribersAreCalledInSubscriptionOrder() {
    let store = makePanelStore()
    let seen = StoreTestLog<String>()
    let first = store.subscribe { seen.append("first \($0.count)") }
    let second = store.subscribe(\.count) { seen.append("second \($0)") }
    let third = store.subscribe { seen.append("third \($0.count)") }
    store.dispatch(.increment)
    store.dispatch(.increment)
    #expect(
      seen.elements == [
        "first 1", "second 1", "third 1",
        "first 2", "second 2", "third 2",
      ])
    _ = (first, second, third)
  }

  @Test func cancelEndsTheSubscriptionAndOnlyThatOne() {
    let store = makePanelStore()
    let seen = StoreTestLog<String>()
    let cancelled = store.subscribe { seen.append("cancelled \($0.count)") }
    let kept = store.subscribe { seen.append("kept \($0.count)") }
    store.dispatch(.increment)
    #expect(!cancelled.isCancelled)

    cancelled.cancel()
    #expect(cancelled.isCancelled)
    #expect(!kept.isCancelled)
    store.dispatch(.increment)
    cancelled.cancel()  // A second cancel does nothing.
    store.dispatch(.increment)
    #expect(seen.elements == ["cancelled 1", "kept 1", "kept 2", "kept 3"])
  }

  @Test func releasingTheTokenEndsTheSubscription() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    do {
      let token = store.subscribe { seen.append($0.count) }
      withExtendedLifetime(token) { store.dispatch(.increment) }
    }
    store.dispatch(.increment)

    var token: Subscription? = store.subscribe { seen.append($0.count * 100) }
    store.dispatch(.increment)
    #expect(token?.isCancelled == false)
    token = nil
    store.dispatch(.increment)
    #expect(seen.elements == [1, 300])
  }

  @Test func subscriberCanCancelItselfWhileBeingNotified() {
    let store = makePanelStore()
    let seen = StoreTestLog<Int>()
    let slot = StoreTestLog<Subscription>()
    let once = store.subscribe { state in
      seen.append(state.count)
      slot.elements.first?.cancel()
    }
    slot.append(once)
    store.dispatch(.increment)
    store.dispatch(.increment)
    #expect(seen.elements == [1])
    #expect(once.isCancelled)
  }

  @Test func subscriptionsChangedWhileNotifyingApplyFromTheNextAction() {
    // The round under way keeps the subscribers it started with: one cancelled by an earlier
    // subscriber is still called for this action, one added is not; both apply to the next.
    let store = makePanelStore()
    let seen = StoreTestLog<String>()
    let later = StoreTestLog<Subscription>()
    let added = StoreTestLog<Subscription>()
    let first = store.subscribe { [weak store] state in
      seen.append("first \(state.count)")
      guard state.count == 1, let store else { return }
      later.elements.first?.cancel()
      added.append(store.subscribe { seen.append("added \($0.count)") })
    }
    later.append(store.subscribe { seen.append("later \($0.count)") })
    store.dispatch(.increment)
    store.dispatch(.increment)
    #expect(seen.elements == ["first 1", "later 1", "first 2", "added 2"])
    #expect(later.elements.first?.isCancelled == true)
    _ = first
  }

  @Test func aCancelledSubscriberThatHoldsTheStoreNoLongerKeepsItAlive() {
    let seen = StoreTestLog<Int>()
    var store: Store<Panel, PanelAction>? = makePanelStore()
    weak var weakStore: Store<Panel, PanelAction>?
    weakStore = store
    if let strong = store {
      let token = strong.subscribe { state in
        seen.append(state.count)
        withExtendedLifetime(strong) {}  // Holds the store, as a subscriber that dispatches does.
      }
      strong.dispatch(.increment)
      token.cancel()
    }
    store = nil
    #expect(weakStore == nil)
    #expect(seen.elements == [1])
  }

  @Test func dispatchFromASubscriberRunsAfterEverySubscriberSawTheCurrentAction() {
    let store = makePanelStore()
    let seen = StoreTestLog<String>()
    let first = store.subscribe { [weak store] state in
      seen.append("first \(state.count)")
      if state.count == 1 { store?.dispatch(.increment) }
    }
    let second = store.subscribe { state in seen.append("second \(state.count)") }
    store.dispatch(.increment)
    // Both actions have run when the outer `dispatch` returns.
    #expect(seen.elements == ["first 1", "second 1", "first 2", "second 2"])
    #expect(store.reducedCount == 2)
    _ = (first, second)
  }

  @Test func tokenOutlivingTheStoreCancelsQuietly() {
    var store: Store<Panel, PanelAction>? = makePanelStore()
    let token = store?.subscribe { _ in }
    store = nil
    token?.cancel()
    #expect(token?.isCancelled == true)
  }

  @Test func tokenRunsItsCancelActionExactlyOnce() {
    let calls = StoreTestLog<String>()
    let cancelled = Subscription { calls.append("cancelled") }
    cancelled.cancel()
    cancelled.cancel()
    var released: Subscription? = Subscription { calls.append("released") }
    #expect(released?.isCancelled == false)
    released = nil
    #expect(calls.elements == ["cancelled", "released"])
  }

  @Test func aStoreWithAHundredThousandSubscribersIsReleasedOnASmallStack() {
    // The store walks its subscribers as a linked list, whose release must not recurse as deep
    // as the list: on a 512 KiB stack (a secondary thread's on Apple platforms) that would
    // overflow it. (Swift's release of a list's links does not recurse on Linux today.)
    let calls = Locked(0)
    let released = Locked(false)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var store: Store<Panel, PanelAction>? = makePanelStore()
      var tokens: [Subscription] = []
      for _ in 0..<100_000 {
        if let token = store?.subscribe({ _ in calls.withLock { $0 += 1 } }) {
          tokens.append(token)
        }
      }
      store?.dispatch(.increment)
      weak var weakStore: Store<Panel, PanelAction>?
      weakStore = store
      store = nil
      released.withLock { $0 = weakStore == nil }
      tokens.removeAll()
      done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    #expect(calls.withLock { $0 } == 100_000)
    #expect(released.withLock { $0 })
  }
}

import Foundation
import Rewind
import RewindExamples
import Testing

/// One action, named by the worker that dispatched it and its position in that worker's run.
private struct Tag: Equatable, Sendable {
  var worker: Int
  var index: Int
}

/// A counter that also remembers the last action it reduced.
private struct Tally: Sendable {
  var count = 0
  var last: Tag?
}

private let tallyReducer = Reducer<Tally, Tag> { state, action in
  state.count += 1
  state.last = action
}

private let workers = 8
private let dispatchesPerWorker = 10_000
private let totalDispatches = workers * dispatchesPerWorker

@Suite struct StoreConcurrencyTests {
  @Test func concurrentDispatchesAreEachReducedExactlyOnce() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let first = StoreTestLog<Int>()
    let second = StoreTestLog<Int>()
    let firstSubscription = store.subscribe { first.append($0.count) }
    let secondSubscription = store.subscribe(\.count) { second.append($0) }

    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      for _ in 0..<dispatchesPerWorker { store.dispatch(.increment) }
    }

    #expect(store.reducedCount == totalDispatches)
    #expect(store.state.count == totalDispatches)
    let expected = Array(1...totalDispatches)
    #expect(first.elements == expected)
    #expect(second.elements == expected)
    _ = (firstSubscription, secondSubscription)
  }

  @Test func middlewareAndSubscribersSeeConcurrentActionsInOneOrder() {
    let middlewareSaw = StoreTestLog<Tag>()
    let recorder = Middleware<Tally, Tag>(name: "recorder") { action, _ in
      middlewareSaw.append(action)
      return action
    }
    let store = Store(initialState: Tally(), reducer: tallyReducer, middleware: [recorder])
    let first = StoreTestLog<Tag?>()
    let second = StoreTestLog<Tag?>()
    let firstSubscription = store.subscribe { first.append($0.last) }
    let secondSubscription = store.subscribe(\.last) { second.append($0) }

    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in 0..<dispatchesPerWorker {
        store.dispatch(Tag(worker: worker, index: index))
      }
    }

    let order = middlewareSaw.elements
    #expect(order.count == totalDispatches)
    #expect(store.state.count == totalDispatches)
    #expect(first.elements == order)
    #expect(second.elements == order)
    // `dispatch` is synchronous, so each worker's actions keep that worker's order.
    var nextIndex = Array(repeating: 0, count: workers)
    var inWorkerOrder = true
    for tag in order {
      inWorkerOrder = inWorkerOrder && tag.index == nextIndex[tag.worker]
      nextIndex[tag.worker] += 1
    }
    #expect(inWorkerOrder)
    #expect(nextIndex == Array(repeating: dispatchesPerWorker, count: workers))
    _ = (firstSubscription, secondSubscription)
  }

  @Test func followUpActionRunsRightAfterItsTriggerUnderConcurrentDispatch() {
    let followUps = Middleware<Tally, Tag>(name: "follow-up") { action, context in
      if action.index >= 0 { context.dispatch(Tag(worker: action.worker, index: -action.index)) }
      return action
    }
    let store = Store(initialState: Tally(), reducer: tallyReducer, middleware: [followUps])
    let reduced = StoreTestLog<Tag?>()
    let subscription = store.subscribe { reduced.append($0.last) }
    let triggersPerWorker = 1_000

    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in 1...triggersPerWorker {
        store.dispatch(Tag(worker: worker, index: index))
      }
    }

    let order = reduced.elements.compactMap { $0 }
    #expect(order.count == workers * triggersPerWorker * 2)
    // Every trigger is immediately followed by its follow-up: no other thread's action slips in
    // between, because a dispatch drains its queue before any other dispatch starts.
    var pairsIntact = order.count.isMultiple(of: 2)
    for pairStart in stride(from: 0, to: order.count - 1, by: 2) {
      let trigger = order[pairStart]
      pairsIntact =
        pairsIntact && trigger.index > 0
        && order[pairStart + 1] == Tag(worker: trigger.worker, index: -trigger.index)
    }
    #expect(pairsIntact)
    _ = subscription
  }

  @Test func subscriptionMadeAndCancelledDuringDispatchSeesAnUnbrokenRun() {
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let isDone = AtomicWord(0)
    let dispatcher = DispatchGroup()
    DispatchQueue.global().async(group: dispatcher) {
      // Capped so that a broken store fails the test instead of hanging it.
      var remaining = 1_000_000
      while remaining > 0 && isDone.load() == 0 {
        store.dispatch(.increment)
        remaining -= 1
      }
    }
    while store.state.count < 1_000 { usleep(50) }

    let seen = StoreTestLog<Int>()
    let calls = Locked(0)
    let subscription = store.subscribe { state in
      seen.append(state.count)
      calls.withLock { $0 += 1 }
    }
    while calls.withLock({ $0 }) < 1_000 && dispatcher.wait(timeout: .now()) == .timedOut {
      usleep(50)
    }
    subscription.cancel()
    let seenWhenCancelled = seen.elements
    isDone.store(1)
    dispatcher.wait()

    // Cancelling waits for the action in progress, so nothing is delivered after it returns.
    #expect(seen.elements == seenWhenCancelled)
    #expect(seenWhenCancelled.count >= 1_000)
    let first = seenWhenCancelled.first ?? 0
    #expect(seenWhenCancelled == Array(first..<(first + seenWhenCancelled.count)))
  }
}

import Rewind
import RewindExamples

/// The order in which a counter store's reducer applied its actions, seen by a subscriber: when
/// every action adds a different amount, the change of the count names the action.
final class ReducerOrder: Sendable {
  /// The amounts added, in the reducer's order.
  let amounts = LockedArray<Int>()
  private let previous = Locked(0)
  private let subscription: Locked<Subscription?> = Locked(nil)

  /// Starts watching `store`, from its current count.
  init(of store: Store<CounterState, CounterAction>) {
    previous.withLock { $0 = store.state.count }
    let token = store.subscribe { [amounts, previous] state in
      let amount = previous.withLock { last in
        defer { last = state.count }
        return state.count - last
      }
      amounts.append(amount)
    }
    subscription.withLock { $0 = token }
  }

  /// Stops watching.
  func cancel() { subscription.withLock { $0?.cancel() } }
}

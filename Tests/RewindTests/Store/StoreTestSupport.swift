import Rewind

/// A thread-safe list that `@Sendable` closures (reducers, middleware, subscribers) append to,
/// so a test can check what happened and in which order.
final class StoreTestLog<Element: Sendable>: Sendable {
  private let storage = Locked<[Element]>([])

  /// Appends `element`.
  func append(_ element: Element) {
    storage.withLock { $0.append(element) }
  }

  /// Everything appended so far, in order.
  var elements: [Element] { storage.withLock { $0 } }
}

import Rewind

/// An array that `@Sendable` closures (subscribers, error handlers, worker threads) append to,
/// so a test can check afterwards what happened and in which order.
final class LockedArray<Element: Sendable>: Sendable {
  private let storage: Locked<[Element]>

  /// Creates the array with `elements`.
  init(_ elements: [Element] = []) { storage = Locked(elements) }

  /// Appends `element`.
  func append(_ element: Element) { storage.withLock { $0.append(element) } }

  /// Everything appended so far, in order.
  var elements: [Element] { storage.withLock { $0 } }

  /// The number of elements.
  var count: Int { storage.withLock { $0.count } }
}

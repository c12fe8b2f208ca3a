import Foundation

/// Counts the values that ``JSONStreamEncoder`` could not write in one pass and encoded a second
/// time in its buffered mode, while it is the task's ``current`` counter: for tests (a value that
/// must stay in one pass) and the benchmarks (how often real types fall back).
///
/// ```swift
/// let counter = JSONStreamFallbackCounter()
/// try JSONStreamFallbackCounter.$current.withValue(counter) { try record(actions) }
/// #expect(counter.total == 0)
/// ```
///
/// Reading the task-local costs nothing in one pass: it is read only when a value falls back.
package final class JSONStreamFallbackCounter: @unchecked Sendable {
  // `@unchecked Sendable`: its one variable is behind `lock`.

  /// The counter of the running task, if any.
  @TaskLocal package static var current: JSONStreamFallbackCounter?

  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  /// A counter at zero.
  package init() {}

  /// How many top-level values fell back, by their type's name.
  package var byType: [String: Int] { lock.withLock { counts } }

  /// How many top-level values fell back.
  package var total: Int { byType.values.reduce(0, +) }

  /// Notes that a value of type `type` fell back.
  func note(_ type: Any.Type) {
    let name = String(reflecting: type)
    lock.withLock { counts[name, default: 0] += 1 }
  }
}

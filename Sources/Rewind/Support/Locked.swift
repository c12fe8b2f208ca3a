import Foundation

/// A value that one thread at a time may read or change, behind a `pthread` mutex (`NSLock`).
///
/// Rewind's runtime uses it instead of `Synchronization.Mutex` so that apps which link Rewind can
/// run ThreadSanitizer: on Linux, `Mutex` hands a contended lock over with a raw `futex` call
/// inside the uninstrumented standard library, which ThreadSanitizer cannot see, so it reports
/// races between two accesses that are both inside `withLock`. `NSLock` is a `pthread_mutex_t`,
/// whose handover ThreadSanitizer understands.
///
/// Why `@unchecked Sendable` is sound: the value is only read or written inside `withLock`, with
/// `lock` held.
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  /// The value, behind a pointer rather than in a stored `var`: a stored property passed `inout`
  /// costs a dynamic exclusivity check on every call, which the lock makes redundant.
  private let value: UnsafeMutablePointer<Value>

  /// Wraps `value`.
  package init(_ value: Value) {
    self.value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    self.value.initialize(to: value)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with the lock held and the value passed `inout`; returns what `body` returns.
  /// `body` must not call `withLock` on the same instance (the lock is not recursive).
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value.pointee)
  }
}

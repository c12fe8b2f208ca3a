import Foundation

/// A value that one thread at a time may read or change, behind a `pthread` mutex.
///
/// Rewind's runtime uses it instead of `Synchronization.Mutex` so that apps which link Rewind can
/// run ThreadSanitizer: on Linux, `Mutex` hands a contended lock over with a raw `futex` call
/// inside the uninstrumented standard library, which ThreadSanitizer cannot see, so it reports
/// races between two accesses that are both inside `withLock`. A `pthread_mutex_t`'s handover is
/// one ThreadSanitizer understands. The mutex is called directly, not through `NSLock`, whose
/// class dispatch the recorder would pay on every action.
///
/// Why `@unchecked Sendable` is sound: the value is only read or written inside `withLock`, with
/// the mutex held.
package final class Locked<Value>: @unchecked Sendable {
  /// The mutex, at a fixed address (a `pthread_mutex_t` must not move once initialised).
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// The value, behind a pointer rather than in a stored `var`: a stored property passed `inout`
  /// costs a dynamic exclusivity check on every call, which the lock makes redundant.
  private let value: UnsafeMutablePointer<Value>

  /// Wraps `value`.
  package init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    self.value = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    self.value.initialize(to: value)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held and the value passed `inout`; returns what `body` returns.
  /// `body` must not call `withLock` on the same instance (the lock is not recursive).
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}

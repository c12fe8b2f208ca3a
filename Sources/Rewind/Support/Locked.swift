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

  /// As ``withLock(_:)``, except that a lock held by another thread is tried again, without
  /// sleeping, for up to `spin` nanoseconds before this thread sleeps on it.
  ///
  /// For a thread that must not stall on a lock held only briefly elsewhere: a thread that sleeps
  /// on a `pthread` mutex is woken when it is let go and must then be scheduled again, which on
  /// an idle core (a virtual machine's above all) can take hundreds of microseconds — many times
  /// the hold it waited for. Past `spin` (a holder that was preempted) it sleeps as usual. A
  /// `spin` of 0 is ``withLock(_:)``.
  package func withLock<Result, Failure: Error>(
    spinningFor spin: UInt64, _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if pthread_mutex_trylock(mutex) != 0 {
      var isHeld = false
      if spin > 0 {
        let start = Platform.monotonicNanoseconds()
        // The clock is read every 64 tries: a try is a few nanoseconds, a clock read more.
        repeat {
          for _ in 0..<64 where pthread_mutex_trylock(mutex) == 0 {
            isHeld = true
            break
          }
        } while !isHeld && Platform.monotonicNanoseconds() &- start < spin
      }
      if !isHeld { pthread_mutex_lock(mutex) }
    }
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
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

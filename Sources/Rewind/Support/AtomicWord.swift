import RewindCPU

/// One machine word that threads, and signal handlers, read and write atomically (acquire loads,
/// release stores), on every platform the app-linked modules support: `Synchronization.Atomic`
/// needs macOS 15 / iOS 18, which `Package.swift`'s platforms do not.
///
/// The word lives at a fixed address for the object's life; every access goes through
/// `RewindCPU`'s `__atomic` builtins, which are lock-free and async-signal-safe.
@usableFromInline package final class AtomicWord: @unchecked Sendable {
  // @unchecked: the pointer is set once and only read and written through the atomic calls.
  @usableFromInline let word: UnsafeMutablePointer<Int>

  /// A word holding `value`.
  package init(_ value: Int) {
    word = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    word.initialize(to: value)
  }

  deinit {
    word.deinitialize(count: 1)
    word.deallocate()
  }

  /// The value (acquire). Inlinable: the recorder's `didReduce` reads it in the app's code.
  @inlinable @inline(__always)
  package func load() -> Int { rewind_atomic_load(word) }

  /// Sets the value (release).
  @inline(__always)
  package func store(_ value: Int) { rewind_atomic_store(word, value) }

  /// Sets the value to `desired` if it is `expected`; whether it did.
  @inline(__always)
  package func compareExchange(expected: Int, desired: Int) -> Bool {
    rewind_atomic_compare_exchange(word, expected, desired) != 0
  }
}

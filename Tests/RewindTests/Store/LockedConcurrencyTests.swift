import Dispatch
import Testing

@testable import Rewind

/// `Locked`, the lock of Rewind's runtime: one thread at a time inside `withLock`, and what one
/// thread writes there the next one sees (ThreadSanitizer checks the second in
/// `Scripts/sanitizers.sh`).
@Suite struct LockedConcurrencyTests {
  @Test func incrementsFromFourThreadsAreNeverLost() {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<20_000 {
        counter.withLock { $0 += 1 }
      }
    }
    #expect(counter.withLock { $0 } == 80_000)
  }

  @Test func withLockReturnsTheBodysResultAndRethrowsItsError() {
    struct Refused: Error, Equatable {}
    let value = Locked([1, 2, 3])
    #expect(value.withLock { $0.removeLast() } == 3)
    #expect(throws: Refused()) {
      try value.withLock { (_: inout [Int]) throws(Refused) -> Void in throw Refused() }
    }
    #expect(value.withLock { $0 } == [1, 2])
  }
}

import Dispatch
import Foundation
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

  /// The app thread's way in (``Locked/withLock(spinningFor:_:)``) against the plain one, with
  /// spins that always, sometimes and never outlast the other thread's holds: still one thread
  /// at a time, nothing lost.
  @Test(arguments: [0, 2_000, 10_000_000] as [UInt64])
  func spinningAndSleepingWaitersLoseNoIncrement(spin: UInt64) {
    let counter = Locked(0)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for _ in 0..<10_000 {
        if thread % 2 == 0 {
          counter.withLock(spinningFor: spin) { $0 += 1 }
        } else {
          // Holds long enough for a spinning waiter to try many times.
          counter.withLock { value in
            let before = value
            for _ in 0..<50 { value = value &+ 1 }
            value = before + 1
          }
        }
      }
    }
    #expect(counter.withLock { $0 } == 40_000)
  }

  /// A waiter whose spin runs out sleeps on the lock and still gets it once it is let go.
  @Test func aWaiterPastItsSpinSleepsUntilTheLockIsLetGo() {
    let value = Locked(0)
    let holding = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      value.withLock { number in
        holding.signal()
        // Held for 50 ms, far past the waiter's 1 µs spin.
        usleep(50_000)
        number = 1
      }
    }
    holding.wait()
    DispatchQueue.global().async {
      value.withLock(spinningFor: 1_000) { $0 += 10 }
      done.signal()
    }
    done.wait()
    #expect(value.withLock { $0 } == 11)
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

import Testing

@testable import RewindReplay

/// The timeline's cache of states: every `stride`-th position, thinned when over capacity.
@Suite struct StateCacheTests {
  @Test func nearestIsTheCachedPositionAtOrBefore() {
    var cache = StateCache<String>(stride: 4, capacity: 100)
    cache.insert("zero", at: 0)
    cache.insert("eight", at: 8)
    cache.insert("twelve", at: 12)
    #expect(cache.nearest(atOrBefore: 0)?.state == "zero")
    #expect(cache.nearest(atOrBefore: 7)?.position == 0)
    #expect(cache.nearest(atOrBefore: 8)?.state == "eight")
    #expect(cache.nearest(atOrBefore: 11)?.position == 8)
    #expect(cache.nearest(atOrBefore: 1000)?.position == 12)
    #expect(cache.nearest(atOrBefore: -1) == nil)
  }

  @Test func wantsOnlyUncachedMultiplesOfTheStride() {
    var cache = StateCache<Int>(stride: 4, capacity: 100)
    #expect(cache.wants(8))
    #expect(!cache.wants(6))
    cache.insert(8, at: 8)
    #expect(!cache.wants(8))
  }

  @Test func aWindowKeepsOnlyStatesNearTheLastOneKept() {
    var cache = StateCache<Int>(stride: 1, capacity: 100, window: 10)
    for position in [0, 5, 10, 20] { cache.insert(position, at: position) }
    // 0 and 5 are more than 10 positions before 20.
    #expect(cache.count == 2)
    #expect(cache.nearest(atOrBefore: 9) == nil)
    #expect(cache.nearest(atOrBefore: 19)?.position == 10)
    // Back to 3: 20 is more than 10 after it, 10 is not.
    cache.insert(3, at: 3)
    #expect(cache.count == 2)
    #expect(cache.nearest(atOrBefore: 1000)?.position == 10)
    #expect(cache.nearest(atOrBefore: 9)?.position == 3)
    // Without a window, nothing is dropped.
    cache.window = Int.max
    for position in [500, 1_000] { cache.insert(position, at: position) }
    #expect(cache.count == 4)
  }

  @Test func removeAllAfterDropsOnlyLaterStates() {
    var cache = StateCache<Int>(stride: 1, capacity: 100)
    for position in 0...10 { cache.insert(position, at: position) }
    cache.removeAll(after: 4)
    #expect(cache.count == 5)
    #expect(cache.nearest(atOrBefore: 10)?.position == 4)
    cache.insert(7, at: 7)
    #expect(cache.nearest(atOrBefore: 10)?.position == 7)
  }

  @Test func overCapacityDoublesTheStrideAndKeepsTheFirstPosition() {
    var cache = StateCache<Int>(stride: 2, capacity: 4)
    for position in [1, 2, 4, 6] { cache.insert(position, at: position) }
    #expect(cache.stride == 2)
    cache.insert(8, at: 8)
    // Stride 4 keeps 4 and 8, and the first position, 1.
    #expect(cache.stride == 4)
    #expect(cache.count == 3)
    #expect(cache.nearest(atOrBefore: 3)?.position == 1)
    #expect(cache.nearest(atOrBefore: 7)?.position == 4)
  }

  @Test func strideStaysBoundedWhenCheckpointsKeepRefillingAFullCache() {
    // A timeline inserts the log's checkpoints whatever the stride. With a small budget, each
    // re-inserted checkpoint overfills the cache and doubles the stride again: after about 60
    // doublings `stride *= 2` overflows and the process traps (`Timeline.state(at:)` after a few
    // hundred random positions of todo-session.jsonl with `memoryBudget: 1`). The loop stops
    // long before that.
    var cache = StateCache<Int>(stride: 4, capacity: 4)
    cache.insert(0, at: 0)
    let checkpoints = [50, 100, 150, 200, 250, 300]
    rounds: for _ in 0..<200 {
      for checkpoint in checkpoints {
        cache.insert(checkpoint, at: checkpoint)
        if cache.stride > 1 << 20 { break rounds }
      }
    }
    // A stride past the last position keeps nothing but the first state.
    #expect(cache.stride <= 512)
  }

  /// A capacity of 0 (states too large for the budget to keep one) keeps nothing, not even the
  /// first state.
  @Test func aCapacityOfZeroKeepsNothing() {
    var cache = StateCache<Int>(stride: 1, capacity: 0)
    #expect(!cache.wants(0))
    cache.insert(0, at: 0)
    cache.insert(5, at: 5)
    #expect(cache.count == 0)
    #expect(cache.nearest(atOrBefore: 10) == nil)
  }
}

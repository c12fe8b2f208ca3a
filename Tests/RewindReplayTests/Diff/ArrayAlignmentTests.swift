import RewindTestSupport
import Testing

@testable import RewindReplay

/// Myers' alignment itself: its hunks leave equal pairs matched, as many as a longest common
/// subsequence has, and a search past ``ArrayAlignment/maxEditsPerSearch`` edits gives up on
/// its subproblem as one hunk.
@Suite struct ArrayAlignmentTests {
  /// The length of a longest common subsequence of `a` and `b` (dynamic programming).
  private func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
    var previous = [Int](repeating: 0, count: b.count + 1)
    for x in a {
      var current = [Int](repeating: 0, count: b.count + 1)
      for (j, y) in b.enumerated() {
        current[j + 1] = x == y ? previous[j] + 1 : max(previous[j + 1], current[j])
      }
      previous = current
    }
    return previous[b.count]
  }

  /// How many pairs `hunks` leave matched in sequences of `oldCount` and `newCount`.
  private func matchedCount(_ hunks: [ArrayAlignment.Hunk], oldCount: Int) -> Int {
    oldCount - hunks.reduce(0) { $0 + $1.old.count }
  }

  @Test func randomSequencesAlignAlongALongestCommonSubsequence() {
    var random = SplitMix64(seed: 47)
    for _ in 0..<300 {
      let a = (0..<random.int(in: 0...40)).map { _ in random.int(in: 0...4) }
      let b = (0..<random.int(in: 0...40)).map { _ in random.int(in: 0...4) }
      let hunks = ArrayAlignment.hunks(oldCount: a.count, newCount: b.count) { a[$0] == b[$1] }
      #expect(
        ReplayLog.matchedPairsAreEqual(hunks, oldCount: a.count, newCount: b.count) {
          a[$0] == b[$1]
        }, "\(a) \(b)")
      #expect(matchedCount(hunks, oldCount: a.count) == lcsLength(a, b), "\(a) \(b)")
    }
  }

  @Test func aFewChangesInALongSequenceAreAsManyHunks() {
    // 100,000 elements, 10 replaced: the search reaches a few diagonals of 200,000.
    let a = Array(0..<100_000)
    var b = a
    let changed = (0..<10).map { $0 * 10_000 + 4_321 }
    for index in changed { b[index] = -index }
    let hunks = ArrayAlignment.hunks(oldCount: a.count, newCount: b.count) { a[$0] == b[$1] }
    #expect(hunks == changed.map { ArrayAlignment.Hunk(old: $0..<($0 + 1), new: $0..<($0 + 1)) })
  }

  @Test func aSearchPastTheEditLimitGivesUpOnItsSubproblem() {
    // Removing 2,500 elements from the middle (and adding one at the end) takes 2,501 edits;
    // the middle of that path lies past the edit limit of one search, so everything after
    // the common start is one hunk.
    let a = Array(0..<4_000)
    let b = Array(0..<750) + Array(3_250..<4_000) + [-1]
    #expect(ArrayAlignment.maxEditsPerSearch < 2_501 / 2)
    let hunks = ArrayAlignment.hunks(oldCount: a.count, newCount: b.count) { a[$0] == b[$1] }
    #expect(hunks == [ArrayAlignment.Hunk(old: 750..<4_000, new: 750..<b.count)])
  }
}

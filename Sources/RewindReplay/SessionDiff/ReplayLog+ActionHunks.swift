import Dispatch
import Rewind

/// Aligning the actions of two logs by their identities (``ActionIdentities``).
extension ReplayLog {
  /// The stretches where the actions of two logs differ, once their longest common subsequence
  /// is matched up (``ArrayAlignment``), comparing actions by their identity
  /// (``actionIdentities()``).
  ///
  /// The identities are those the opens found, for logs opened with `identifiesActions`; the
  /// rest are found on two threads, one a log. The alignment compares hashes. Equal bytes always
  /// hash alike, so only a collision could match two different actions: every matched pair's
  /// bytes are compared afterwards, and if any differ (a 1 in 2⁶⁴ chance a pair, with a seed
  /// drawn per process), the actions are numbered exactly and aligned again. The errors are
  /// those of reading `a` and then `b` one after the other.
  /// - Throws: The first error of `a`, else the first error of `b`.
  /// - Complexity: O(n) to identify the actions the opens did not, then
  ///   ``ArrayAlignment/hunks(oldCount:newCount:areEqual:)``.
  static func actionHunks(
    _ a: ReplayLog, _ b: ReplayLog
  ) throws(ReplayError) -> [ArrayAlignment.Hunk] {
    let identitiesA: ActionIdentities
    let identitiesB: ActionIdentities
    if a.identifiesActionsAtOpen && b.identifiesActionsAtOpen {
      identitiesA = try a.actionIdentities()
      identitiesB = try b.actionIdentities()
    } else {
      let results = IdentityResults()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        let log = index == 0 ? a : b
        results.set(Result { () throws(ReplayError) in try log.actionIdentities() }, at: index)
      }
      identitiesA = try results.get(0)
      identitiesB = try results.get(1)
    }
    let hunks = identitiesA.hashes.withUnsafeBufferPointer { hashesA in
      identitiesB.hashes.withUnsafeBufferPointer { hashesB in
        ArrayAlignment.hunks(oldCount: hashesA.count, newCount: hashesB.count) {
          hashesA[$0] == hashesB[$1]
        }
      }
    }
    // The matched pairs' bytes compared on both threads, half the pairs each.
    if let runs = matchedRuns(hunks, oldCount: identitiesA.count, newCount: identitiesB.count) {
      let pairs = runs.reduce(0) { $0 + $1.count }
      let mismatches = AtomicWord(0)
      DispatchQueue.concurrentPerform(iterations: 2) { half in
        var skip = half == 0 ? 0 : pairs / 2
        var left = half == 0 ? pairs / 2 : pairs - pairs / 2
        for run in runs where left > 0 {
          guard skip < run.count else {
            skip -= run.count
            continue
          }
          let count = min(run.count - skip, left)
          for offset in skip..<(skip + count) {
            let equal = identitiesA.withBytes(run.old + offset, in: a) { bytesA in
              identitiesB.withBytes(run.new + offset, in: b) { bytesB in
                ActionIdentityTable.equal(bytesA, bytesB)
              }
            }
            if !equal {
              mismatches.store(1)
              return
            }
          }
          left -= count
          skip = 0
        }
      }
      if mismatches.load() == 0 { return hunks }
    }
    let (keysA, keysB) = exactNumbers(identitiesA, in: a, identitiesB, in: b)
    return ArrayAlignment.hunks(oldCount: keysA.count, newCount: keysB.count) {
      keysA[$0] == keysB[$1]
    }
  }

  /// Whether every pair of elements that `hunks` leave matched (before, between and after the
  /// hunks, one for one) in sequences of `oldCount` and `newCount` elements is equal.
  static func matchedPairsAreEqual(
    _ hunks: [ArrayAlignment.Hunk], oldCount: Int, newCount: Int,
    _ areEqual: (_ old: Int, _ new: Int) -> Bool
  ) -> Bool {
    guard let runs = matchedRuns(hunks, oldCount: oldCount, newCount: newCount) else {
      return false
    }
    for run in runs {
      for offset in 0..<run.count where !areEqual(run.old + offset, run.new + offset) {
        return false
      }
    }
    return true
  }

  /// The runs of elements that `hunks` leave matched in sequences of `oldCount` and `newCount`
  /// elements (before, between and after the hunks, one for one), each from `old` and `new` on
  /// for `count` elements; `nil` when a stretch between two hunks is not as long on both sides.
  static func matchedRuns(
    _ hunks: [ArrayAlignment.Hunk], oldCount: Int, newCount: Int
  ) -> [(old: Int, new: Int, count: Int)]? {
    var runs: [(old: Int, new: Int, count: Int)] = []
    var old = 0
    var new = 0
    for hunk in hunks + [ArrayAlignment.Hunk(old: oldCount..<oldCount, new: newCount..<newCount)] {
      let count = hunk.old.lowerBound - old
      guard count >= 0, hunk.new.lowerBound - new == count else { return nil }
      if count > 0 { runs.append((old, new, count)) }
      old = hunk.old.upperBound
      new = hunk.new.upperBound
    }
    return runs
  }

  /// Numbers for the identities of two logs: equal numbers for equal bytes.
  static func exactNumbers(
    _ identitiesA: ActionIdentities, in a: ReplayLog, _ identitiesB: ActionIdentities,
    in b: ReplayLog
  ) -> (a: [Int], b: [Int]) {
    var table = ActionIdentityTable()
    defer { table.deallocate() }
    func numbers(_ identities: ActionIdentities, in log: ReplayLog) -> [Int] {
      (0..<identities.count).map { index in
        identities.withBytes(index, in: log) { bytes in
          identities.isBorrowed(index)
            ? table.intern(borrowing: bytes, hash: identities.hashes[index])
            : table.intern(copying: Array(bytes))
        }
      }
    }
    return (numbers(identitiesA, in: a), numbers(identitiesB, in: b))
  }
}

/// The identities of two logs, each written by its own thread.
private final class IdentityResults: Sendable {
  private let slots = Locked<[Result<ActionIdentities, ReplayError>?]>([nil, nil])

  func set(_ result: Result<ActionIdentities, ReplayError>, at index: Int) {
    slots.withLock { $0[index] = result }
  }

  func get(_ index: Int) throws(ReplayError) -> ActionIdentities {
    try (slots.withLock { $0[index] } ?? .success(ActionIdentities())).get()
  }
}

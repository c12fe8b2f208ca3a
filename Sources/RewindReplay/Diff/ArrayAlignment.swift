/// Aligns two sequences along a longest common subsequence and reports the stretches between
/// matched elements: where the old sequence's elements gave way to the new one's.
///
/// Uses Myers' O((*N*+*M*)·*D*) difference algorithm in linear space (the "middle snake"
/// bisection), with common prefixes and suffixes trimmed at every step. Subproblems wait on an
/// explicit stack, so the call depth is constant whatever the lengths.
enum ArrayAlignment {
  /// A stretch where the sequences differ: the `old` elements were replaced by the `new` ones.
  /// One of the two ranges may be empty (a pure removal or insertion), never both.
  struct Hunk: Equatable {
    /// Positions in the old sequence.
    var old: Range<Int>
    /// Positions in the new sequence.
    var new: Range<Int>
  }

  /// The most edits one bisection searches for before it gives up and reports its whole
  /// subproblem as a single hunk, which keeps wholesale replacements of long arrays fast.
  static let maxEditsPerSearch = 1024

  /// Returns the hunks, in increasing position, that separate the old and new sequences once
  /// their longest common subsequence is matched up.
  ///
  /// - Parameters:
  ///   - oldCount: The length of the old sequence.
  ///   - newCount: The length of the new sequence.
  ///   - areEqual: Whether old element `i` equals new element `j`.
  /// - Returns: The hunks; empty when the sequences are equal.
  /// - Complexity: O((*N*+*M*)·*D*) calls to `areEqual` and O(*N*+*M*) memory for sequences of
  ///   lengths *N* and *M* that differ by *D* insertions and removals. A subproblem needing more
  ///   than ``maxEditsPerSearch`` edits becomes one hunk instead of being aligned further.
  static func hunks(
    oldCount: Int, newCount: Int, areEqual: (_ old: Int, _ new: Int) -> Bool
  ) -> [Hunk] {
    var matches: [Match] = []
    var pending = [Hunk(old: 0..<max(0, oldCount), new: 0..<max(0, newCount))]
    while let problem = pending.popLast() {
      var oldLower = problem.old.lowerBound
      var oldUpper = problem.old.upperBound
      var newLower = problem.new.lowerBound
      var newUpper = problem.new.upperBound
      while oldLower < oldUpper, newLower < newUpper, areEqual(oldLower, newLower) {
        oldLower += 1
        newLower += 1
      }
      if oldLower > problem.old.lowerBound {
        matches.append(
          Match(
            old: problem.old.lowerBound, new: problem.new.lowerBound,
            count: oldLower - problem.old.lowerBound))
      }
      while oldLower < oldUpper, newLower < newUpper, areEqual(oldUpper - 1, newUpper - 1) {
        oldUpper -= 1
        newUpper -= 1
      }
      if oldUpper < problem.old.upperBound {
        matches.append(
          Match(old: oldUpper, new: newUpper, count: problem.old.upperBound - oldUpper))
      }
      let old = oldLower..<oldUpper
      let new = newLower..<newUpper
      guard !old.isEmpty, !new.isEmpty, let split = middleSplit(old, new, areEqual) else {
        continue
      }
      pending.append(Hunk(old: split.old..<old.upperBound, new: split.new..<new.upperBound))
      pending.append(Hunk(old: old.lowerBound..<split.old, new: new.lowerBound..<split.new))
    }
    return hunks(
      between: matches.sorted { $0.old < $1.old }, oldCount: oldCount, newCount: newCount)
  }

  /// The gaps around `matches`, which must be sorted and must not cross.
  private static func hunks(between matches: [Match], oldCount: Int, newCount: Int) -> [Hunk] {
    var hunks: [Hunk] = []
    var old = 0
    var new = 0
    for match in matches {
      if match.old > old || match.new > new {
        hunks.append(Hunk(old: old..<max(old, match.old), new: new..<max(new, match.new)))
      }
      old = max(old, match.old + match.count)
      new = max(new, match.new + match.count)
    }
    if old < oldCount || new < newCount {
      hunks.append(Hunk(old: old..<max(old, oldCount), new: new..<max(new, newCount)))
    }
    return hunks
  }

  /// Finds a point on an optimal edit path through the middle of the subproblem, from which its
  /// two halves can be aligned separately; `nil` when the search exceeds ``maxEditsPerSearch``
  /// edits or finds no point that splits the problem.
  ///
  /// The ranges must be non-empty, and their first elements and last elements must differ.
  private static func middleSplit(
    _ old: Range<Int>, _ new: Range<Int>, _ areEqual: (Int, Int) -> Bool
  ) -> (old: Int, new: Int)? {
    let n = old.count
    let m = new.count
    let maxD = (n + m + 1) / 2
    // The search stops at `searchedD` edits, so diagonals -searchedD...searchedD are all it
    // touches: arrays that long, not N+M long (zeroing and faulting in megabytes for the few
    // diagonals a handful of differences reaches).
    let searchedD = min(maxD, maxEditsPerSearch)
    let offset = searchedD + 1
    let size = 2 * searchedD + 3
    // forward[offset + k]: furthest x reached from the start on diagonal k (y = x - k).
    // backward[offset + k]: the same from the end, on the reversed sequences. A diagonal
    // outside the arrays was never reached (-1).
    var forward = [Int](repeating: -1, count: size)
    var backward = [Int](repeating: -1, count: size)
    forward[offset + 1] = 0
    backward[offset + 1] = 0
    let delta = n - m
    let isDeltaOdd = delta % 2 != 0
    var forwardStart = 0
    var forwardEnd = 0
    var backwardStart = 0
    var backwardEnd = 0

    func validated(_ x: Int, _ y: Int) -> (old: Int, new: Int)? {
      guard (0...n).contains(x), (0...m).contains(y), x + y > 0, x + y < n + m else { return nil }
      return (old.lowerBound + x, new.lowerBound + y)
    }

    for d in 0..<searchedD {
      var k = -d + forwardStart
      while k <= d - forwardEnd {
        let i = offset + k
        var x =
          k == -d || (k != d && forward[i - 1] < forward[i + 1])
          ? forward[i + 1] : forward[i - 1] + 1
        var y = x - k
        while x >= 0, y >= 0, x < n, y < m, areEqual(old.lowerBound + x, new.lowerBound + y) {
          x += 1
          y += 1
        }
        forward[i] = x
        if x > n {
          forwardEnd += 2
        } else if y > m {
          forwardStart += 2
        } else if isDeltaOdd {
          let j = offset + delta - k
          if j >= 0, j < size, backward[j] != -1, x >= n - backward[j] {
            return validated(x, y)
          }
        }
        k += 2
      }
      k = -d + backwardStart
      while k <= d - backwardEnd {
        let i = offset + k
        var x =
          k == -d || (k != d && backward[i - 1] < backward[i + 1])
          ? backward[i + 1] : backward[i - 1] + 1
        var y = x - k
        while x >= 0, y >= 0, x < n, y < m,
          areEqual(old.upperBound - 1 - x, new.upperBound - 1 - y)
        {
          x += 1
          y += 1
        }
        backward[i] = x
        if x > n {
          backwardEnd += 2
        } else if y > m {
          backwardStart += 2
        } else if !isDeltaOdd {
          let j = offset + delta - k
          if j >= 0, j < size, forward[j] != -1, forward[j] >= n - x {
            return validated(forward[j], forward[j] - (delta - k))
          }
        }
        k += 2
      }
    }
    return nil
  }
}

/// A run of `count` equal elements at `old` in the old sequence and `new` in the new one.
private struct Match {
  var old: Int
  var new: Int
  var count: Int
}

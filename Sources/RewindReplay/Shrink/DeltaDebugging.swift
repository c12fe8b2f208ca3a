/// Zeller's ddmin: the smallest subsequence of `items` (1-minimal: removing any one element makes
/// the test fail) for which `test` still holds, within a budget of test runs.
public enum DeltaDebugging {
  /// The result of a reduction.
  public struct Result<Item> {
    /// The reduced subsequence, in the original order.
    public var items: [Item]
    /// How many times `test` ran.
    public var tests: Int
    /// Whether the budget ran out before the result was 1-minimal.
    public var budgetExhausted: Bool
  }

  /// Reduces `items`, which must satisfy `test`, to a small subsequence that still does.
  ///
  /// Deterministic: the same items and the same test give the same result. Tests of a
  /// subsequence already tried are not repeated.
  /// - Parameters:
  ///   - maxTests: The most runs of `test`.
  ///   - progress: Called after each run with the current size and the number of runs.
  /// - Complexity: O(n²) runs of `test` in the worst case, O(log n) when one element suffices.
  public static func minimize<Item: Hashable, Failure: Error>(
    _ items: [Item], maxTests: Int,
    progress: (_ size: Int, _ tests: Int) -> Void = { _, _ in },
    test: ([Item]) throws(Failure) -> Bool
  ) throws(Failure) -> Result<Item> {
    var current = items
    var granularity = 2
    var runs = 0
    var tried: [[Item]: Bool] = [:]
    func check(_ candidate: [Item]) throws(Failure) -> Bool? {
      if let known = tried[candidate] { return known }
      guard runs < maxTests else { return nil }
      runs += 1
      let holds = try test(candidate)
      tried[candidate] = holds
      progress(current.count, runs)
      return holds
    }
    while current.count >= 2 {
      let chunks = split(current, into: granularity)
      var reduced = false
      for chunk in chunks {
        guard let holds = try check(chunk) else {
          return Result(items: current, tests: runs, budgetExhausted: true)
        }
        if holds {
          current = chunk
          granularity = 2
          reduced = true
          break
        }
      }
      if !reduced && chunks.count > 2 {
        for index in chunks.indices where !reduced {
          let complement = chunks.enumerated().filter { $0.offset != index }.flatMap(\.element)
          guard let holds = try check(complement) else {
            return Result(items: current, tests: runs, budgetExhausted: true)
          }
          if holds {
            current = complement
            granularity = max(granularity - 1, 2)
            reduced = true
          }
        }
      }
      if !reduced {
        if granularity >= current.count { break }
        granularity = min(current.count, granularity * 2)
      }
    }
    return Result(items: current, tests: runs, budgetExhausted: false)
  }

  private static func split<Item>(_ items: [Item], into parts: Int) -> [[Item]] {
    var chunks: [[Item]] = []
    var start = 0
    for part in 0..<parts {
      let end = start + (items.count - start) / (parts - part)
      if end > start { chunks.append(Array(items[start..<end])) }
      start = end
    }
    return chunks
  }
}

import RewindJSON

/// Decides which removed and inserted elements of one hunk are the same element, edited, so that
/// the diff can show `todos[3].done: false → true` rather than removing and re-adding the todo.
///
/// Each removed element is paired with the next inserted one that is similar to it (see
/// ``areSimilar(_:_:)``), keeping pairs in order. Between two such pairs (and before the first
/// and after the last), when as many elements were removed as inserted, they are paired in
/// order too, as replacements: a value whose kind changed, or a todo replaced by an unrelated
/// one. Elements left over are plain removals and insertions.
enum ElementPairing {
  /// An old element and the new element it became.
  struct Pair: Equatable {
    /// The old element's position.
    var old: Int
    /// The new element's position.
    var new: Int
    /// Whether the two look alike, so that their differences are worth listing one by one
    /// rather than as a single replacement.
    var isSimilar: Bool
  }

  /// The largest hunk, as removed × inserted elements, searched for similar pairs. Larger hunks
  /// are paired in order when their counts are equal, and left unpaired otherwise.
  static let maxComparisons = 4096

  /// The pairs in `hunk`, in increasing old and new positions.
  ///
  /// - Complexity: O(*r*·*i*) similarity tests for *r* removed and *i* inserted elements when
  ///   that is at most ``maxComparisons``, else O(*r*).
  static func pairs<Node: JSONDiffNode>(
    in hunk: ArrayAlignment.Hunk, old: [Node], new: [Node]
  ) -> [Pair] {
    let (product, overflow) = hunk.old.count.multipliedReportingOverflow(by: hunk.new.count)
    guard !overflow, product <= maxComparisons else {
      guard hunk.old.count == hunk.new.count else { return [] }
      return zip(hunk.old, hunk.new).map { o, n in
        Pair(old: o, new: n, isSimilar: areSimilar(old[o], new[n]))
      }
    }
    var similarPairs: [Pair] = []
    var nextNew = hunk.new.lowerBound
    for o in hunk.old where nextNew < hunk.new.upperBound {
      if let n = (nextNew..<hunk.new.upperBound).first(where: { areSimilar(old[o], new[$0]) }) {
        similarPairs.append(Pair(old: o, new: n, isSimilar: true))
        nextNew = n + 1
      }
    }
    var pairs: [Pair] = []
    var gapOld = hunk.old.lowerBound
    var gapNew = hunk.new.lowerBound
    let end = Pair(old: hunk.old.upperBound, new: hunk.new.upperBound, isSimilar: false)
    for pair in similarPairs + [end] {
      if pair.old - gapOld == pair.new - gapNew {
        pairs += zip(gapOld..<pair.old, gapNew..<pair.new).map {
          Pair(old: $0, new: $1, isSimilar: false)
        }
      }
      if pair != end { pairs.append(pair) }
      gapOld = pair.old + 1
      gapNew = pair.new + 1
    }
    return pairs
  }

  /// Whether two elements look like versions of the same element: scalars of the same kind,
  /// objects with at least half their members (of the larger object) equal, or arrays with at
  /// least half their elements (of the longer array) in common.
  static func areSimilar<Node: JSONDiffNode>(_ old: Node, _ new: Node) -> Bool {
    switch (old.shape, new.shape) {
    case (.scalar, .scalar):
      switch (old.value, new.value) {
      case (.null, .null), (.bool, .bool), (.number, .number), (.string, .string): return true
      default: return false
      }
    case (.object(let oldMembers), .object(let newMembers)):
      let larger = max(oldMembers.count, newMembers.count)
      guard larger > 0 else { return true }
      let newValues = Dictionary(newMembers, uniquingKeysWith: { first, _ in first })
      let equalCount = oldMembers.count(where: { member in
        newValues[member.key].map(member.value.isEqual(to:)) ?? false
      })
      return equalCount * 2 >= larger
    case (.array(let oldElements), .array(let newElements)):
      let larger = max(oldElements.count, newElements.count)
      guard larger > 0 else { return true }
      let newFingerprints = Set(newElements.map { $0.fingerprint })
      let commonCount = oldElements.count(where: {
        newFingerprints.contains($0.fingerprint)
      })
      return commonCount * 2 >= larger
    default:
      return false
    }
  }
}

import RewindJSON

/// Structural differences between two JSON values: what changed from one state to the next.
///
/// ```swift
/// let changes = JSONDiff.diff(before, after)
/// print(JSONDiff.render(changes))
/// // todos[2].done: false → true
/// // + todos[3]: {"id":4,"title":"Call mom","done":false}
/// let patch = JSONPatch(changes: changes)  // RFC 6902, turns `before` into `after`
/// ```
public enum JSONDiff {
  /// Returns the changes that turn `old` into `new`, or `nil` when the two are equal.
  ///
  /// - Objects are compared by key, whatever their member order: members only in `old` are
  ///   `.removed`, members only in `new` are `.added`, and common members are compared in turn.
  /// - Arrays are aligned along a longest common subsequence of equal elements, so inserting one
  ///   element into a long array is one `.added` change. Where a run of elements was removed and
  ///   a run inserted at the same place, elements that look alike are compared in turn (a todo
  ///   whose `done` flipped gives `todos[3].done: false → true`); of the rest, equal numbers of
  ///   removed and inserted elements side by side are whole-element `.changed`, and others are
  ///   `.removed` and `.added`. An element moved elsewhere is a removal and an addition.
  /// - Anything else that differs (scalars, or values of different kinds) is one `.changed`.
  ///
  /// Changes come in document order: for an object, the old members in their order and then
  /// the added ones; for an array, by position, with the removals and then the additions that
  /// come before each compared pair of elements.
  /// Array indices in paths follow the rule described on ``JSONChange``.
  ///
  /// - Parameters:
  ///   - old: The value before.
  ///   - new: The value after.
  /// - Returns: The changes, or `nil` when `old == new`.
  /// - Complexity: O(*n*·*h*) for values with *n* nodes nested *h* deep when little changed:
  ///   equal leading and trailing array elements are skipped by comparison, and the rest of
  ///   an array of *N* old and *M* new elements is aligned with Myers' algorithm in
  ///   O((*N*+*M*)·*D*) element comparisons for *D* inserted and removed elements. A stretch
  ///   needing more than 1,024 edits is not aligned further, which keeps wholesale replacements
  ///   fast and the result correct, though no longer minimal. Recursion depth is the nesting
  ///   depth of the values.
  public static func diff(_ old: JSONValue, _ new: JSONValue) -> [JSONChange]? {
    var differ = Differ()
    differ.compare(old, new, at: .root)
    return differ.changes.isEmpty ? nil : differ.changes
  }
}

/// Walks two values side by side, collecting changes.
private struct Differ {
  var changes: [JSONChange] = []

  mutating func compare(_ old: JSONValue, _ new: JSONValue, at path: JSONPath) {
    switch (old, new) {
    case (.object(let oldMembers), .object(let newMembers)):
      compareMembers(oldMembers, newMembers, at: path)
    case (.array(let oldElements), .array(let newElements)):
      compareElements(oldElements, newElements, at: path)
    default:
      if old != new { changes.append(.changed(path, old: old, new: new)) }
    }
  }

  private mutating func compareMembers(
    _ old: [JSONMember], _ new: [JSONMember], at path: JSONPath
  ) {
    if old.elementsEqual(new) { return }
    let newPositions = Dictionary(
      new.indices.map { (new[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
    for member in old {
      let memberPath = path.appending(.key(member.key))
      if let position = newPositions[member.key] {
        compare(member.value, new[position].value, at: memberPath)
      } else {
        changes.append(.removed(memberPath, member.value))
      }
    }
    let oldKeys = Set(old.map(\.key))
    for member in new where !oldKeys.contains(member.key) {
      changes.append(.added(path.appending(.key(member.key)), member.value))
    }
  }

  private mutating func compareElements(
    _ old: [JSONValue], _ new: [JSONValue], at path: JSONPath
  ) {
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
      suffix += 1
    }
    let oldMiddle = prefix..<(old.count - suffix)
    let newMiddle = prefix..<(new.count - suffix)
    if oldMiddle.isEmpty, newMiddle.isEmpty { return }

    var hunks = [ArrayAlignment.Hunk(old: oldMiddle, new: newMiddle)]
    if !oldMiddle.isEmpty, !newMiddle.isEmpty {
      let oldFingerprints = old[oldMiddle].map(JSONFingerprint.of)
      let newFingerprints = new[newMiddle].map(JSONFingerprint.of)
      hunks = ArrayAlignment.hunks(
        oldCount: oldFingerprints.count, newCount: newFingerprints.count
      ) { i, j in
        oldFingerprints[i] == newFingerprints[j] && old[prefix + i] == new[prefix + j]
      }.map { hunk in
        ArrayAlignment.Hunk(
          old: (hunk.old.lowerBound + prefix)..<(hunk.old.upperBound + prefix),
          new: (hunk.new.lowerBound + prefix)..<(hunk.new.upperBound + prefix))
      }
    }
    for hunk in hunks {
      compareHunk(hunk, old, new, at: path)
    }
  }

  /// Reports one hunk: its pairs compared in turn (or replaced whole when they do not look
  /// alike), with the unpaired elements before each pair (and after the last) removed, then
  /// added.
  private mutating func compareHunk(
    _ hunk: ArrayAlignment.Hunk, _ old: [JSONValue], _ new: [JSONValue], at path: JSONPath
  ) {
    let end = ElementPairing.Pair(
      old: hunk.old.upperBound, new: hunk.new.upperBound, isSimilar: false)
    var nextOld = hunk.old.lowerBound
    var nextNew = hunk.new.lowerBound
    for pair in ElementPairing.pairs(in: hunk, old: old, new: new) + [end] {
      while nextOld < pair.old {
        changes.append(.removed(path.appending(.index(nextOld)), old[nextOld]))
        nextOld += 1
      }
      while nextNew < pair.new {
        changes.append(.added(path.appending(.index(nextNew)), new[nextNew]))
        nextNew += 1
      }
      guard pair != end else { break }
      let elementPath = path.appending(.index(pair.new))
      if pair.isSimilar {
        compare(old[pair.old], new[pair.new], at: elementPath)
      } else {
        changes.append(.changed(elementPath, old: old[pair.old], new: new[pair.new]))
      }
      nextOld += 1
      nextNew += 1
    }
  }
}

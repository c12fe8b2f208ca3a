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
    var changes: [JSONChange] = []
    Differ<JSONValue>.walk(old, new) { change in
      changes.append(change)
      return true
    }
    return changes.isEmpty ? nil : changes
  }

  /// Returns the changes that turn the value written `oldText` into the one written `newText`,
  /// or `nil` when the two are equal: the same changes as ``diff(_:_:)`` of the two parsed
  /// values, found without building either.
  ///
  /// Parts whose bytes are equal are skipped; parts that differ are read one level at a time
  /// from the text, so the memory it takes beyond the two texts is one level's positions along
  /// the path of each difference, plus the values the changes carry (an element added to an
  /// array of a million is one small tree, not two trees of a million).
  ///
  /// - Throws: ``JSONParseError`` when a text is not one JSON value within `limits`, naming
  ///   `oldText` or `newText` as its `source`.
  /// - Complexity: That of ``diff(_:_:)``, with a byte comparison in place of each comparison
  ///   of equal values, plus one check of each text.
  public static func diff(
    oldText: [UInt8], newText: [UInt8], limits: JSONLimits = .default
  ) throws(JSONTextDiffError) -> [JSONChange]? {
    let result = oldText.withUnsafeBytes { old in
      newText.withUnsafeBytes { new in
        Result { () throws(JSONTextDiffError) in
          try diff(oldBytes: old, newBytes: new, limits: limits)
        }
      }
    }
    return try result.get()
  }

  /// ``diff(oldText:newText:limits:)`` of two texts in place (a state in a log's bytes).
  static func diff(
    oldBytes: UnsafeRawBufferPointer, newBytes: UnsafeRawBufferPointer, limits: JSONLimits
  ) throws(JSONTextDiffError) -> [JSONChange]? {
    for (name, text) in [("oldText", oldBytes), ("newText", newBytes)] {
      if let error = JSONParser.firstError(in: text, limits: limits) {
        throw JSONTextDiffError(source: name, error: error)
      }
    }
    return diff(checkedOldBytes: oldBytes, checkedNewBytes: newBytes)
  }

  /// ``diff(oldText:newText:limits:)`` of two texts checked before (``Debugger/stateText(of:timeline:at:)``
  /// checks the states it returns), without checking them again.
  package static func diff(checkedOldText: [UInt8], checkedNewText: [UInt8]) -> [JSONChange]? {
    checkedOldText.withUnsafeBytes { old in
      checkedNewText.withUnsafeBytes { new in diff(checkedOldBytes: old, checkedNewBytes: new) }
    }
  }

  private static func diff(
    checkedOldBytes: UnsafeRawBufferPointer, checkedNewBytes: UnsafeRawBufferPointer
  ) -> [JSONChange]? {
    var changes: [JSONChange] = []
    forEachChange(checkedOldBytes: checkedOldBytes, checkedNewBytes: checkedNewBytes) { change in
      changes.append(change)
      return true
    }
    return changes.isEmpty ? nil : changes
  }

  /// Calls `body` with each change ``diff(oldText:newText:limits:)`` finds between two texts
  /// checked before, in order, as it is found (none is held), until `body` returns `false`.
  static func forEachChange(
    checkedOldBytes: UnsafeRawBufferPointer, checkedNewBytes: UnsafeRawBufferPointer,
    _ body: (JSONChange) -> Bool
  ) {
    // A checked text is one value between whitespace: its end is found from the back, not by
    // scanning it.
    func node(_ text: UnsafeRawBufferPointer) -> JSONTextNode {
      let start = JSONScan.valueStart(in: text, at: 0)
      var end = text.count
      while end > start, text[end - 1] <= UInt8(ascii: " ") { end -= 1 }
      return JSONTextNode(document: text, range: start..<end)
    }
    Differ<JSONTextNode>.walk(node(checkedOldBytes), node(checkedNewBytes), body)
  }
}

/// A text given to ``JSONDiff/diff(oldText:newText:limits:)`` that is not one JSON value.
public struct JSONTextDiffError: Error, Sendable, CustomStringConvertible {
  /// Which text: `oldText` or `newText`.
  public var source: String
  /// What is wrong with it, and at which byte.
  public var error: JSONParseError

  /// The text's name, then the parse error: `newText: byte 3: …`.
  public var description: String { "\(source): \(error)" }
}

/// Walks two values side by side, handing over each change as it is found.
private struct Differ<Node: JSONDiffNode> {
  /// Takes each change; `false` stops the walk.
  private let emit: (JSONChange) -> Bool
  private var isStopped = false

  private init(emit: @escaping (JSONChange) -> Bool) {
    self.emit = emit
  }

  /// Calls `emit` with each change from `old` to `new`, in order, until it returns `false`.
  static func walk(_ old: Node, _ new: Node, _ emit: (JSONChange) -> Bool) {
    withoutActuallyEscaping(emit) { emit in
      var differ = Differ(emit: emit)
      differ.compare(old, new, at: .root)
    }
  }

  private mutating func report(_ change: JSONChange) {
    if !isStopped && !emit(change) { isStopped = true }
  }

  private mutating func compare(_ old: Node, _ new: Node, at path: JSONPath) {
    if isStopped || old.isQuicklyEqual(to: new) { return }
    if let narrowed = Node.narrowed(old, new) {
      switch (narrowed.old, narrowed.new) {
      case (.array(let oldElements), .array(let newElements)):
        compareElements(oldElements, newElements, at: path, offset: narrowed.skipped)
        return
      case (.object(let oldMembers), .object(let newMembers))
      where Set(oldMembers.map(\.key)) == Set(newMembers.map(\.key)):
        // The same keys differ on both sides; otherwise a key may have moved between the
        // parts left out and the rest, and every member is compared.
        compareMembers(oldMembers, newMembers, at: path)
        return
      default:
        break
      }
    }
    switch (old.shape, new.shape) {
    case (.object(let oldMembers), .object(let newMembers)):
      compareMembers(oldMembers, newMembers, at: path)
    case (.array(let oldElements), .array(let newElements)):
      compareElements(oldElements, newElements, at: path)
    default:
      if !old.isEqual(to: new) { report(.changed(path, old: old.value, new: new.value)) }
    }
  }

  private mutating func compareMembers(
    _ old: [(key: String, value: Node)], _ new: [(key: String, value: Node)], at path: JSONPath
  ) {
    let newPositions = Dictionary(
      new.indices.map { (new[$0].key, $0) }, uniquingKeysWith: { first, _ in first })
    for member in old where !isStopped {
      let memberPath = path.appending(.key(member.key))
      if let position = newPositions[member.key] {
        compare(member.value, new[position].value, at: memberPath)
      } else {
        report(.removed(memberPath, member.value.value))
      }
    }
    let oldKeys = Set(old.map(\.key))
    for member in new where !isStopped && !oldKeys.contains(member.key) {
      report(.added(path.appending(.key(member.key)), member.value.value))
    }
  }

  /// Compares two arrays' elements (or a run of them, `offset` elements after the arrays'
  /// starts: the indices of the changes count from there).
  private mutating func compareElements(
    _ old: [Node], _ new: [Node], at path: JSONPath, offset: Int = 0
  ) {
    let shorter = min(old.count, new.count)
    var prefix = 0
    while prefix < shorter, old[prefix].isEqual(to: new[prefix]) { prefix += 1 }
    // The pair the prefix stopped at is not compared again (one element changed in place: the
    // last pair is that one).
    let lastIsUnequal = prefix == old.count - 1 && prefix == new.count - 1
    var suffix = 0
    while suffix < shorter - prefix, !(suffix == 0 && lastIsUnequal),
      old[old.count - 1 - suffix].isEqual(to: new[new.count - 1 - suffix])
    {
      suffix += 1
    }
    let oldMiddle = prefix..<(old.count - suffix)
    let newMiddle = prefix..<(new.count - suffix)
    if oldMiddle.isEmpty, newMiddle.isEmpty { return }

    var hunks = [ArrayAlignment.Hunk(old: oldMiddle, new: newMiddle)]
    if !oldMiddle.isEmpty, !newMiddle.isEmpty {
      let oldFingerprints = old[oldMiddle].map { $0.fingerprint }
      let newFingerprints = new[newMiddle].map { $0.fingerprint }
      hunks = ArrayAlignment.hunks(
        oldCount: oldFingerprints.count, newCount: newFingerprints.count
      ) { i, j in
        oldFingerprints[i] == newFingerprints[j] && old[prefix + i].isEqual(to: new[prefix + j])
      }.map { hunk in
        ArrayAlignment.Hunk(
          old: (hunk.old.lowerBound + prefix)..<(hunk.old.upperBound + prefix),
          new: (hunk.new.lowerBound + prefix)..<(hunk.new.upperBound + prefix))
      }
    }
    for hunk in hunks where !isStopped {
      compareHunk(hunk, old, new, at: path, offset: offset)
    }
  }

  /// Reports one hunk: its pairs compared in turn (or replaced whole when they do not look
  /// alike), with the unpaired elements before each pair (and after the last) removed, then
  /// added.
  private mutating func compareHunk(
    _ hunk: ArrayAlignment.Hunk, _ old: [Node], _ new: [Node], at path: JSONPath, offset: Int
  ) {
    let end = ElementPairing.Pair(
      old: hunk.old.upperBound, new: hunk.new.upperBound, isSimilar: false)
    var nextOld = hunk.old.lowerBound
    var nextNew = hunk.new.lowerBound
    for pair in ElementPairing.pairs(in: hunk, old: old, new: new) + [end] {
      while nextOld < pair.old && !isStopped {
        report(.removed(path.appending(.index(offset + nextOld)), old[nextOld].value))
        nextOld += 1
      }
      while nextNew < pair.new && !isStopped {
        report(.added(path.appending(.index(offset + nextNew)), new[nextNew].value))
        nextNew += 1
      }
      guard pair != end, !isStopped else { break }
      let elementPath = path.appending(.index(offset + pair.new))
      if pair.isSimilar {
        compare(old[pair.old], new[pair.new], at: elementPath)
      } else {
        report(.changed(elementPath, old: old[pair.old].value, new: new[pair.new].value))
      }
      nextOld += 1
      nextNew += 1
    }
  }
}

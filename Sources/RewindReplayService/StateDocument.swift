import RewindJSON
import RewindReplay

/// A state as the TUI's state pane, path completion and the protocol servers' paged state
/// (``ChildrenRequest``) read it: its JSON text, read one level at a
/// time where rows are drawn, never built as a tree (a large state's tree costs several times
/// its text).
///
/// A value is named by where its text starts in ``text``. A container's members or elements are
/// counted by scanning its text once, keeping where some of them start (``StateLevel``): a child
/// is then found from the nearest one kept before it by skipping at most 63 children and less
/// than 4 KiB of text, so walking a path costs little per level whatever the size of the state,
/// and what is kept is a small fraction of the text (an array of 2.2 million numbers keeps about
/// 34,000 positions, not 2.2 million).
package final class StateDocument {
  /// The state's JSON text, checked before.
  package let text: [UInt8]
  /// Where the state's value starts in ``text``.
  package let root: Int
  /// The levels read so far, by where their container starts, with when each was last used.
  private var levels: [Int: (level: StateLevel, used: Int)] = [:]
  /// How many marks ``levels`` holds.
  private var levelEntries = 0
  /// Counts the uses of levels, for ``levels``' `used`.
  private var uses = 0

  /// How many marks (``StateLevel/marks``) the document keeps before it forgets levels, the
  /// least recently used first.
  package let maxLevelEntries: Int
  /// How many of the latest uses of levels keep a level from being forgotten: more than one
  /// screenful of rows takes, so that what one redraw walks through is never read twice (the
  /// room is then exceeded rather than the text read again and again). Every walk starts at the
  /// state, so it and the levels on the way are always recent.
  package let recentUses: Int

  /// The document of `checkedText`.
  ///
  /// - Parameters:
  ///   - checkedText: One JSON value, checked before (``Debugger/stateText(of:timeline:at:)``
  ///     checks the states it returns).
  ///   - maxLevelEntries: See ``maxLevelEntries``.
  ///   - recentUses: See ``recentUses``.
  package init(checkedText: [UInt8], maxLevelEntries: Int = 1 << 20, recentUses: Int = 100_000) {
    text = checkedText
    self.maxLevelEntries = maxLevelEntries
    self.recentUses = recentUses
    root = checkedText.withUnsafeBytes { JSONScan.valueStart(in: $0, at: 0) }
  }

  /// The document of `value`'s text.
  package convenience init(_ value: JSONValue) {
    self.init(checkedText: value.serializedBytes)
  }

  /// Whether the value at `start` is an object or an array.
  private func isContainer(_ start: Int) -> Bool {
    start < text.count && (text[start] == UInt8(ascii: "{") || text[start] == UInt8(ascii: "["))
  }

  /// The level of the container at `start`, or `nil` for a string, number, boolean or null.
  /// - Complexity: O(length of the value's text) the first time, O(1) after.
  package func level(of start: Int) -> StateLevel? {
    guard isContainer(start) else { return nil }
    uses += 1
    if let cached = levels[start] {
      levels[start]?.used = uses
      return cached.level
    }
    let isObject = text[start] == UInt8(ascii: "{")
    var marks: [StateLevel.Mark] = []
    var count = 0
    text.withUnsafeBytes { bytes in
      var position = JSONScan.firstChild(ofContainerAt: start, in: bytes)
      var lastMark = Int.min / 2
      while position < bytes.count,
        bytes[position] != UInt8(ascii: "}") && bytes[position] != UInt8(ascii: "]")
      {
        if count % StateLevel.markStride == 0 || position - lastMark >= StateLevel.markBytes {
          marks.append(StateLevel.Mark(index: count, offset: position))
          lastMark = position
        }
        count += 1
        position =
          isObject
          ? JSONScan.memberAfter(position, in: bytes) : JSONScan.elementAfter(position, in: bytes)
      }
    }
    let level = StateLevel(isObject: isObject, count: count, marks: marks)
    let entries = marks.count + 1
    if levelEntries + entries > maxLevelEntries {
      for (start, old) in levels.sorted(by: { $0.value.used < $1.value.used }) {
        guard levelEntries + entries > maxLevelEntries, old.used < uses - recentUses else { break }
        levels[start] = nil
        levelEntries -= old.level.marks.count + 1
      }
    }
    levels[start] = (level, uses)
    levelEntries += entries
    return level
  }

  /// How many marks the levels kept hold (each level counting one more).
  package var keptLevelEntries: Int { levelEntries }

  /// The number of members or elements of the value at `start` (0 for scalars).
  package func childCount(_ start: Int) -> Int {
    level(of: start)?.count ?? 0
  }

  /// Whether the value at `start` is a container with members or elements: found from its
  /// first bytes, without reading its level.
  package func hasChildren(_ start: Int) -> Bool {
    guard isContainer(start) else { return false }
    let first = text.withUnsafeBytes { JSONScan.firstChild(ofContainerAt: start, in: $0) }
    return first < text.count && text[first] != UInt8(ascii: "}")
      && text[first] != UInt8(ascii: "]")
  }

  /// Where the member's key or the element `index` of the container at `start` starts, or `nil`
  /// past its end or for a scalar.
  private func childStart(_ index: Int, of start: Int) -> (level: StateLevel, offset: Int)? {
    guard index >= 0, let level = level(of: start), index < level.count else { return nil }
    // The last mark at or before `index` (the first is always child 0).
    var low = 0
    var high = level.marks.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if level.marks[middle].index <= index { low = middle } else { high = middle - 1 }
    }
    let mark = level.marks[low]
    let offset = text.withUnsafeBytes { bytes in
      var position = mark.offset
      for _ in mark.index..<index {
        position =
          level.isObject
          ? JSONScan.memberAfter(position, in: bytes) : JSONScan.elementAfter(position, in: bytes)
      }
      return position
    }
    return (level, offset)
  }

  /// Where the value of member or element `index` of the container at `start` starts, or `nil`
  /// when there is none.
  package func child(_ index: Int, of start: Int) -> Int? {
    guard let (level, offset) = childStart(index, of: start) else { return nil }
    guard level.isObject else { return offset }
    return text.withUnsafeBytes { JSONScan.memberValue(at: offset, in: $0) }
  }

  /// The key of member `index` of the object at `start`, or `nil` when it is not an object's
  /// member.
  package func key(_ index: Int, of start: Int) -> String? {
    guard let (level, offset) = childStart(index, of: start), level.isObject else { return nil }
    return text.withUnsafeBytes { JSONScan.key(at: offset, in: $0) }
  }

  /// The index of the first member named `key` of the object at `start`, or `nil`.
  /// - Complexity: O(members × key length), plus less than 4 KiB of text for each mark: the
  ///   values of the members are not read (a member's value is skipped only up to the next
  ///   mark, within its 4 KiB).
  package func index(ofKey key: String, in start: Int) -> Int? {
    var found: Int?
    forEachChild(of: start) { index, position, bytes in
      guard JSONScan.key(at: position, in: bytes, equals: key) else { return true }
      found = index
      return false
    }
    return found
  }

  /// The keys of the object at `start`, in order, or `nil` when it is not an object.
  /// - Complexity: As ``index(ofKey:in:)``.
  package func keys(of start: Int) -> [String]? {
    guard level(of: start)?.isObject == true else { return nil }
    var keys: [String] = []
    forEachChild(of: start) { _, position, bytes in
      keys.append(JSONScan.key(at: position, in: bytes))
      return true
    }
    return keys
  }

  /// Calls `body` with the index and start of each member's key or element of the container at
  /// `start`, in order, until it returns `false`. A child is reached from the one before it
  /// within a mark's stretch (less than 4 KiB), and from its mark across stretches: a child
  /// that is large by itself is never read.
  private func forEachChild(
    of start: Int, _ body: (Int, Int, UnsafeRawBufferPointer) -> Bool
  ) {
    guard let level = level(of: start) else { return }
    text.withUnsafeBytes { bytes in
      for (number, mark) in level.marks.enumerated() {
        let end = number + 1 < level.marks.count ? level.marks[number + 1].index : level.count
        var position = mark.offset
        for index in mark.index..<end {
          guard body(index, position, bytes) else { return }
          if index + 1 < end {
            position =
              level.isObject
              ? JSONScan.memberAfter(position, in: bytes)
              : JSONScan.elementAfter(position, in: bytes)
          }
        }
      }
    }
  }

  /// Where the value at `path` starts, or `nil` when the path leads nowhere (`count` is not
  /// followed: it names no value in the text).
  package func start(at path: JSONPath) -> Int? {
    var value = root
    for component in path.components {
      guard let level = level(of: value) else { return nil }
      switch (component, level.isObject) {
      case (.key(let key), true):
        guard let index = index(ofKey: key, in: value), let child = child(index, of: value) else {
          return nil
        }
        value = child
      case (.index(let index), false):
        guard let child = child(index, of: value) else { return nil }
        value = child
      default:
        return nil
      }
    }
    return value
  }
}

/// What a ``StateDocument`` keeps of one container: how many members or elements it has, and
/// where some of them start.
package struct StateLevel {
  /// Where one member's key or element starts.
  package struct Mark {
    /// Its position among the container's members or elements.
    package let index: Int
    /// Where its text starts in the document.
    package let offset: Int
  }

  /// Every this many children is marked.
  package static let markStride = 64
  /// A child this many bytes or more after the last mark is marked too, so that finding a child
  /// never skips more text than this (and whole children before it).
  package static let markBytes = 4096

  /// Whether the container is an object (else an array).
  package let isObject: Bool
  /// How many members or elements it has.
  package let count: Int
  /// Where some of its children start, in order: the first, every ``markStride``-th, and each
  /// that starts ``markBytes`` or more after the last one marked.
  package let marks: [Mark]
}

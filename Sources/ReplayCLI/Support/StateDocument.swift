import RewindJSON
import RewindReplay

/// A state as the state pane and path completion read it: its JSON text, read one level at a
/// time where rows are drawn, never built as a tree (a large state's tree costs several times
/// its text).
///
/// A value is named by where its text is (`Range<Int>` of ``text``). The members or elements of
/// a container are found by scanning its text once and kept, so walking a path costs one lookup
/// per level after the first visit.
final class StateDocument {
  /// The state's JSON text, checked before.
  let text: [UInt8]
  /// Where the state's value is in ``text``.
  let root: Range<Int>
  /// The levels read so far, by where their container starts, with when each was last used.
  private var levels: [Int: (level: StateLevel, used: Int)] = [:]
  /// How many members and elements ``levels`` holds.
  private var levelEntries = 0
  /// Counts the uses of levels, for ``levels``' `used`.
  private var uses = 0

  /// How many members and elements the document keeps the positions of (2 Mi by default:
  /// 32 MiB of positions, and an object's keys) before it forgets levels, the least recently
  /// used first.
  let maxLevelEntries: Int
  /// How many of the latest uses of levels keep a level from being forgotten: more than one
  /// screenful of rows takes, so that what one redraw walks through is never read twice (the
  /// room is then exceeded rather than the text read again and again). Every walk starts at the
  /// state, so it and the levels on the way are always recent.
  let recentUses: Int

  /// The document of `checkedText`.
  ///
  /// - Parameters:
  ///   - checkedText: One JSON value, checked before (``Debugger/stateText(of:timeline:at:)``
  ///     checks the states it returns).
  ///   - maxLevelEntries: See ``maxLevelEntries``.
  ///   - recentUses: See ``recentUses``.
  init(checkedText: [UInt8], maxLevelEntries: Int = 1 << 21, recentUses: Int = 10_000) {
    text = checkedText
    self.maxLevelEntries = maxLevelEntries
    self.recentUses = recentUses
    root = checkedText.withUnsafeBytes { bytes in
      let start = JSONScan.valueStart(in: bytes, at: 0)
      return start..<JSONScan.valueEnd(in: bytes, at: start)
    }
  }

  /// The document of `value`'s text.
  convenience init(_ value: JSONValue) {
    self.init(checkedText: value.serializedBytes)
  }

  /// The members or elements of the value at `range`, or `nil` for a string, number, boolean or
  /// null.
  /// - Complexity: O(length of the value's text) the first time, O(1) after.
  func level(of range: Range<Int>) -> StateLevel? {
    guard let first = range.first.map({ text[$0] }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    uses += 1
    if let cached = levels[range.lowerBound] {
      levels[range.lowerBound]?.used = uses
      return cached.level
    }
    var keys: [String] = []
    var values: [Range<Int>] = []
    text.withUnsafeBytes { whole in
      let bytes = UnsafeRawBufferPointer(rebasing: whole[range])
      let base = range.lowerBound
      if first == UInt8(ascii: "{") {
        JSONScan.forEachMember(ofObjectIn: bytes) { key, value in
          keys.append(key)
          values.append((value.lowerBound + base)..<(value.upperBound + base))
        }
      } else {
        JSONScan.forEachElement(ofArrayIn: bytes) { element in
          values.append((element.lowerBound + base)..<(element.upperBound + base))
        }
      }
    }
    let level = StateLevel(keys: first == UInt8(ascii: "{") ? keys : nil, values: values)
    if levelEntries + values.count > maxLevelEntries {
      for (start, old) in levels.sorted(by: { $0.value.used < $1.value.used }) {
        guard levelEntries + values.count > maxLevelEntries, old.used < uses - recentUses
        else { break }
        levels[start] = nil
        levelEntries -= old.level.values.count
      }
    }
    levels[range.lowerBound] = (level, uses)
    levelEntries += values.count
    return level
  }

  /// Whether the value at `range` is a container with members or elements: found from its
  /// first bytes, without reading its level.
  func hasChildren(_ range: Range<Int>) -> Bool {
    guard let first = range.first.map({ text[$0] }),
      first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return false }
    var offset = range.lowerBound + 1
    while offset < range.upperBound,
      [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(
        text[offset])
    {
      offset += 1
    }
    return offset < range.upperBound && text[offset] != UInt8(ascii: "}")
      && text[offset] != UInt8(ascii: "]")
  }

  /// How many members and elements the levels kept hold.
  var keptLevelEntries: Int { levelEntries }

  /// The number of members or elements of the value at `range` (0 for scalars).
  func childCount(_ range: Range<Int>) -> Int {
    level(of: range)?.values.count ?? 0
  }

  /// Where the value at `path` is, or `nil` when the path leads nowhere (`count` is not
  /// followed: it names no value in the text).
  func range(at path: JSONPath) -> Range<Int>? {
    var value = root
    for component in path.components {
      guard let level = level(of: value) else { return nil }
      switch (component, level.keys) {
      case (.key(let key), let keys?):
        guard let index = keys.firstIndex(of: key) else { return nil }
        value = level.values[index]
      case (.index(let index), nil) where level.values.indices.contains(index):
        value = level.values[index]
      default:
        return nil
      }
    }
    return value
  }
}

/// The members or elements of one container of a ``StateDocument``.
struct StateLevel {
  /// The members' keys, in order; `nil` for an array.
  let keys: [String]?
  /// Where each member's value or each element is in the document's text, in order.
  let values: [Range<Int>]
}

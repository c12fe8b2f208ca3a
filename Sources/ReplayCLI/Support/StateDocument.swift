import RewindJSON
import RewindReplay

/// A state as the state pane and path completion read it: its JSON text, read one level at a time where rows are
/// drawn, never built as a tree (a large state's tree costs several times its text).
///
/// A value is named by where its text is (`Range<Int>` of ``text``). The members or elements of
/// a container are found by scanning its text once and kept, so walking a path costs one lookup
/// per level after the first visit.
final class StateDocument {
  /// The state's JSON text, checked before.
  let text: [UInt8]
  /// Where the state's value is in ``text``.
  let root: Range<Int>
  /// The levels read so far, by where their container starts.
  private var levels: [Int: StateLevel] = [:]
  /// How many members and elements ``levels`` holds.
  private var levelEntries = 0

  /// How many members and elements the document keeps positions of before it forgets the levels
  /// it read (2 Mi entries: about 32 MiB of positions).
  static let maxLevelEntries = 1 << 21

  /// The document of `checkedText`: one JSON value, checked before (``Debugger/stateText(of:timeline:at:)``
  /// checks the states it returns).
  init(checkedText: [UInt8]) {
    text = checkedText
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
    if let level = levels[range.lowerBound] { return level }
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
    if levelEntries + values.count > Self.maxLevelEntries {
      levels.removeAll()
      levelEntries = 0
    }
    levels[range.lowerBound] = level
    levelEntries += values.count
    return level
  }

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

import RewindJSON
import RewindReplay

/// The folds, cursor and scroll position of the state pane, kept as paths so they carry over
/// when the cursor moves to another position and the state changes under them.
///
/// Containers nested less than ``defaultDepth`` deep start unfolded; `toggled` holds the paths
/// the user folded or unfolded against that default.
struct StateTreeView: Sendable, Equatable {
  /// How deep containers start unfolded: the state's members, and the members of those.
  static let defaultDepth = 2
  /// The row under the cursor (`.root` for the first row).
  var cursor = JSONPath.root
  /// The first row shown.
  var top = JSONPath.root
  /// Paths whose folding differs from the default.
  var toggled: Set<JSONPath> = []
}

/// The rows of a state as folded by a ``StateTreeView``: the values of the state in document
/// order, where only unfolded containers show their members.
///
/// A row is named by its *index path*: the positions of the members or elements that lead to it
/// from the state. Navigation walks from a row to the next or previous one in O(depth) without
/// listing the rows, so drawing a screenful costs O(rows shown × depth), whatever the size of
/// the state. The state itself is a row only when it is not a non-empty container.
struct StateTreeRows {
  /// The state.
  let root: JSONValue
  /// The paths folded or unfolded against the default.
  let toggled: Set<JSONPath>

  /// The value at `path`, or `nil` when there is none.
  func node(_ path: [Int]) -> JSONValue? {
    var value = root
    for index in path {
      switch value {
      case .object(let members) where index < members.count: value = members[index].value
      case .array(let elements) where index < elements.count: value = elements[index]
      default: return nil
      }
    }
    return value
  }

  /// The number of members or elements of `value` (0 for scalars).
  static func childCount(_ value: JSONValue) -> Int {
    switch value {
    case .object(let members): return members.count
    case .array(let elements): return elements.count
    default: return 0
    }
  }

  /// The state path of a row: `todos[2].title`.
  func jsonPath(_ path: [Int]) -> JSONPath {
    var value = root
    var components: [JSONPath.Component] = []
    for index in path {
      switch value {
      case .object(let members) where index < members.count:
        components.append(.key(members[index].key))
        value = members[index].value
      case .array(let elements) where index < elements.count:
        components.append(.index(index))
        value = elements[index]
      default: return JSONPath(components)
      }
    }
    return JSONPath(components)
  }

  /// Whether the row shows its members.
  func isExpanded(_ path: [Int]) -> Bool {
    guard let value = node(path), Self.childCount(value) > 0 else { return false }
    if path.isEmpty { return true }
    let byDefault = path.count < StateTreeView.defaultDepth
    return toggled.contains(jsonPath(path)) ? !byDefault : byDefault
  }

  /// The first row.
  var first: [Int] { Self.childCount(root) > 0 ? [0] : [] }

  /// The row after `path`, or `nil` at the last row.
  func next(_ path: [Int]) -> [Int]? {
    if isExpanded(path) { return path + [0] }
    var current = path
    while let last = current.popLast() {
      if let parent = node(current), last + 1 < Self.childCount(parent) {
        return current + [last + 1]
      }
    }
    return nil
  }

  /// The row before `path`, or `nil` at the first row.
  func previous(_ path: [Int]) -> [Int]? {
    guard let last = path.last else { return nil }
    var current = Array(path.dropLast())
    if last == 0 { return current.isEmpty ? nil : current }
    current.append(last - 1)
    while isExpanded(current), let value = node(current) {
      current.append(Self.childCount(value) - 1)
    }
    return current
  }

  /// The row that best stands for `path` in this state: the path itself when it leads to a
  /// row, else its deepest existing prefix (indices past the end clamped to the last element),
  /// lifted to its outermost folded ancestor so that it is shown.
  func row(for path: JSONPath) -> [Int] {
    var value = root
    var result: [Int] = []
    for component in path.components {
      var index: Int?
      switch (component, value) {
      case (.key(let key), .object(let members)):
        index = members.firstIndex { $0.key == key }
      case (.index(let position), .array(let elements)) where !elements.isEmpty:
        index = min(position, elements.count - 1)
      default: index = nil
      }
      guard let index, let child = node(result + [index]) else { break }
      result.append(index)
      value = child
    }
    if result.isEmpty { return first }
    for depth in 1..<result.count where !isExpanded(Array(result.prefix(depth))) {
      return Array(result.prefix(depth))
    }
    return result
  }

  /// Whether row `a` comes before row `b`.
  static func precedes(_ a: [Int], _ b: [Int]) -> Bool {
    for (x, y) in zip(a, b) where x != y { return x < y }
    return a.count < b.count
  }

  /// `count` rows from `start` on (fewer at the end).
  func rows(from start: [Int], count: Int) -> [[Int]] {
    var rows: [[Int]] = []
    var current: [Int]? = start
    while let row = current, rows.count < count {
      rows.append(row)
      current = next(row)
    }
    return rows
  }
}

extension StateTreeView {
  /// Moves the cursor `delta` rows (negative: up), stopping at the first and last rows, and
  /// scrolls so that it stays among the `height` rows shown.
  mutating func moveCursor(by delta: Int, in state: JSONValue, height: Int) {
    let tree = StateTreeRows(root: state, toggled: toggled)
    var row = tree.row(for: cursor)
    for _ in 0..<abs(delta) {
      guard let moved = delta > 0 ? tree.next(row) : tree.previous(row) else { break }
      row = moved
    }
    cursor = tree.jsonPath(row)
    scroll(in: state, height: height)
  }

  /// Folds the row under the cursor when it is unfolded, unfolds it when folded; rows that are
  /// not containers do nothing.
  mutating func toggleFold(in state: JSONValue, height: Int) {
    let tree = StateTreeRows(root: state, toggled: toggled)
    let row = tree.row(for: cursor)
    guard let value = tree.node(row), StateTreeRows.childCount(value) > 0, !row.isEmpty else {
      return
    }
    let path = tree.jsonPath(row)
    if toggled.contains(path) { toggled.remove(path) } else { toggled.insert(path) }
    cursor = path
    scroll(in: state, height: height)
  }

  /// Re-anchors the cursor and the first row shown on rows of `state`, and scrolls the fewest
  /// rows that show the cursor among `height` rows.
  /// - Complexity: O(`height` × depth).
  mutating func scroll(in state: JSONValue, height: Int) {
    let tree = StateTreeRows(root: state, toggled: toggled)
    let row = tree.row(for: cursor)
    var topRow = tree.row(for: top)
    if StateTreeRows.precedes(row, topRow) || height <= 0 {
      topRow = row
    } else if !tree.rows(from: topRow, count: height).contains(row) {
      topRow = row
      for _ in 0..<(height - 1) {
        guard let previous = tree.previous(topRow) else { break }
        topRow = previous
      }
    }
    cursor = tree.jsonPath(row)
    top = tree.jsonPath(topRow)
  }
}

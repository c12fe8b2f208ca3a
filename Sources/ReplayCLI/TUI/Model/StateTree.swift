import RewindJSON
import RewindReplay
import RewindReplayService

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
/// the state, once the containers on the way have been read from the state's text (each once:
/// ``StateDocument``), plus finding the cursor's and the first row's keys among their objects'
/// members (``row(for:)``: the keys are read, not the values). The state itself is a row only
/// when it is not a non-empty container.
struct StateTreeRows {
  /// The state, read a level at a time.
  let document: StateDocument
  /// The paths folded or unfolded against the default.
  let toggled: Set<JSONPath>

  /// Where the value at `path` starts in the document's text, or `nil` when there is none.
  func node(_ path: [Int]) -> Int? {
    var value = document.root
    for index in path {
      guard let child = document.child(index, of: value) else { return nil }
      value = child
    }
    return value
  }

  /// The state path of a row: `todos[2].title`.
  func jsonPath(_ path: [Int]) -> JSONPath {
    var value = document.root
    var components: [JSONPath.Component] = []
    for index in path {
      guard let child = document.child(index, of: value) else { break }
      components.append(document.key(index, of: value).map { .key($0) } ?? .index(index))
      value = child
    }
    return JSONPath(components)
  }

  /// Whether the row shows its members.
  func isExpanded(_ path: [Int]) -> Bool {
    guard let value = node(path), document.hasChildren(value) else { return false }
    if path.isEmpty { return true }
    let byDefault = path.count < StateTreeView.defaultDepth
    return toggled.contains(jsonPath(path)) ? !byDefault : byDefault
  }

  /// The first row.
  var first: [Int] { document.hasChildren(document.root) ? [0] : [] }

  /// The row after `path`, or `nil` at the last row.
  func next(_ path: [Int]) -> [Int]? {
    if isExpanded(path) { return path + [0] }
    var current = path
    while let last = current.popLast() {
      if let parent = node(current), last + 1 < document.childCount(parent) {
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
      current.append(document.childCount(value) - 1)
    }
    return current
  }

  /// The row that best stands for `path` in this state: the path itself when it leads to a
  /// row, else its deepest existing prefix (indices past the end clamped to the last element),
  /// lifted to its outermost folded ancestor so that it is shown.
  func row(for path: JSONPath) -> [Int] {
    var value = document.root
    var result: [Int] = []
    for component in path.components {
      guard let level = document.level(of: value) else { break }
      var index: Int?
      switch (component, level.isObject) {
      case (.key(let key), true): index = document.index(ofKey: key, in: value)
      case (.index(let position), false) where level.count > 0:
        index = min(position, level.count - 1)
      default: index = nil
      }
      guard let index, let child = document.child(index, of: value) else { break }
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
  mutating func moveCursor(by delta: Int, in state: StateDocument, height: Int) {
    let tree = StateTreeRows(document: state, toggled: toggled)
    var row = tree.row(for: cursor)
    for _ in 0..<abs(delta) {
      guard let moved = delta > 0 ? tree.next(row) : tree.previous(row) else { break }
      row = moved
    }
    cursor = tree.jsonPath(row)
    scroll(in: state, height: height)
  }

  /// Puts the cursor on `path`, unfolding every container on the way to it, and scrolls to it.
  mutating func reveal(_ path: JSONPath, in state: StateDocument, height: Int) {
    for count in stride(from: 1, to: path.components.count, by: 1) {
      let ancestor = JSONPath(Array(path.components.prefix(count)))
      let tree = StateTreeRows(document: state, toggled: toggled)
      guard !tree.isExpanded(tree.row(for: ancestor)) else { continue }
      if toggled.contains(ancestor) { toggled.remove(ancestor) } else { toggled.insert(ancestor) }
    }
    cursor = path
    scroll(in: state, height: height)
  }

  /// Folds the row under the cursor when it is unfolded, unfolds it when folded; rows that are
  /// not containers do nothing.
  mutating func toggleFold(in state: StateDocument, height: Int) {
    let tree = StateTreeRows(document: state, toggled: toggled)
    let row = tree.row(for: cursor)
    guard let value = tree.node(row), state.hasChildren(value), !row.isEmpty else {
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
  mutating func scroll(in state: StateDocument, height: Int) {
    let tree = StateTreeRows(document: state, toggled: toggled)
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

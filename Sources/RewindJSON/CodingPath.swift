/// A coding path as a linked list, so that going one level deeper costs one small allocation and
/// no copying; the array form is built only when asked for, usually for an error.
struct CodingPath {
  private final class Node: Sendable {
    let parent: Node?
    let key: any CodingKey
    let depth: Int

    init(parent: Node?, key: any CodingKey) {
      self.parent = parent
      self.key = key
      self.depth = (parent?.depth ?? 0) + 1
    }
  }

  private let last: Node?

  /// The empty path of a top-level value.
  static var root: CodingPath { CodingPath(last: nil) }

  /// Whether this is the empty path.
  var isRoot: Bool { last == nil }

  private init(last: Node?) {
    self.last = last
  }

  /// This path one level deeper, at `key`.
  func appending(_ key: any CodingKey) -> CodingPath {
    CodingPath(last: Node(parent: last, key: key))
  }

  /// This path one level deeper, at position `index` of an array.
  func appending(index: Int) -> CodingPath {
    appending(JSONIndexKey(index: index))
  }

  /// This path one level deeper at `key`, or this path when `key` is `nil`.
  func appending(_ key: (any CodingKey)?) -> CodingPath {
    guard let key else { return self }
    return appending(key)
  }

  /// The keys from the top level down.
  var keys: [any CodingKey] {
    guard let last else { return [] }
    var keys = [any CodingKey]()
    keys.reserveCapacity(last.depth)
    var node: Node? = last
    while let current = node {
      keys.append(current.key)
      node = current.parent
    }
    keys.reverse()
    return keys
  }
}

/// The key of a position in an array, spelled `Index 2` like Foundation's. Its string is made
/// only when asked for.
struct JSONIndexKey: CodingKey {
  let index: Int

  init(index: Int) {
    self.index = index
  }

  init?(stringValue: String) {
    return nil
  }

  init?(intValue: Int) {
    self.index = intValue
  }

  var stringValue: String { "Index \(index)" }
  var intValue: Int? { index }
}

/// The string keys Rewind's coders make themselves: the `super` key and keys read from JSON.
struct JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = String(intValue)
    self.intValue = intValue
  }

  /// The key under which `superEncoder()` and `superDecoder()` nest the superclass.
  static let superclass = JSONKey(stringValue: "super")
}

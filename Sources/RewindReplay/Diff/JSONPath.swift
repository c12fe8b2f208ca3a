/// The location of a value in a JSON document, with each step known to be an object key or an
/// array index: what a diff reports, readable by people.
///
/// Its `description` is the human path: keys joined with dots, indices in brackets, and keys
/// that are not identifiers written as quoted strings in brackets:
///
/// ```swift
/// JSONPath([.key("todos"), .index(2), .key("title")]).description  // todos[2].title
/// JSONPath([.key("by id"), .key("7")]).description                  // ["by id"]["7"]
/// JSONPath.root.description                                          // (root)
/// ```
///
/// `pointer` gives the same location as an RFC 6901 JSON Pointer.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
  /// One step into a JSON value.
  public enum Component: Sendable, Hashable {
    /// The member of an object with this key.
    case key(String)
    /// The element of an array at this zero-based position.
    case index(Int)
  }

  /// The steps from the document's root inwards; empty for the root itself.
  public var components: [Component]

  /// Creates a path from its steps, outermost first.
  public init(_ components: [Component] = []) {
    self.components = components
  }

  /// The path of the whole document.
  public static var root: JSONPath { JSONPath() }

  /// Returns this path extended by one step.
  public func appending(_ component: Component) -> JSONPath {
    JSONPath(components + [component])
  }

  /// The same location as an RFC 6901 JSON Pointer, for example `/todos/2/title`.
  public var pointer: JSONPointer {
    JSONPointer(tokens: components.map(\.token))
  }

  /// The human path, for example `todos[2].title`, `[0]["first name"]`, or `(root)` for the
  /// whole document.
  public var description: String {
    guard !components.isEmpty else { return "(root)" }
    var text = ""
    for component in components {
      switch component {
      case .index(let index):
        text += "[\(index)]"
      case .key(let key) where isIdentifier(key):
        if !text.isEmpty { text += "." }
        text += key
      case .key(let key):
        text += "["
        CompactJSON.writeString(key, to: &text)
        text += "]"
      }
    }
    return text
  }
}

extension JSONPath.Component {
  /// The component as an unescaped JSON Pointer token: the key, or the index in decimal.
  var token: String {
    switch self {
    case .key(let key): return key
    case .index(let index): return String(index)
    }
  }
}

/// Whether `key` can be written after a dot: an ASCII letter or `_`, then ASCII letters, digits
/// or `_`.
private func isIdentifier(_ key: String) -> Bool {
  guard let first = key.unicodeScalars.first, isLetter(first) || first == "_" else {
    return false
  }
  return key.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }
}

private func isLetter(_ scalar: Unicode.Scalar) -> Bool {
  ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
}

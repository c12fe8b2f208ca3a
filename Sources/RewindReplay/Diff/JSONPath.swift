import RewindJSON

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
    /// The first element of an array that is an object whose member `key` holds the scalar
    /// `value` (its compact JSON text: `42`, `"Buy milk"`, `true`): `todos[id=42]`, which keeps
    /// meaning the same element as others are inserted, removed or moved. Numbers match by value
    /// (`42` matches `42.0`). Only a path typed by a user holds it; a diff's paths never do.
    case matching(key: String, value: String)
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
      case .matching(let key, let value):
        text += "["
        if isIdentifier(key) { text += key } else { CompactJSON.writeString(key, to: &text) }
        text += "=\(value)]"
      }
    }
    return text
  }
}

extension JSONPath.Component {
  /// The component as an unescaped JSON Pointer token: the key, or the index in decimal (an
  /// identity step, which no pointer can say, as `key=value`).
  var token: String {
    switch self {
    case .key(let key): return key
    case .index(let index): return String(index)
    case .matching(let key, let value): return "\(key)=\(value)"
    }
  }

  /// Whether `candidate`, a member's value, is what a ``matching(key:value:)`` step asks for:
  /// the same compact JSON text, or for numbers the same value.
  static func scalar(_ candidate: JSONValue, matches text: String) -> Bool {
    if case .number(let number) = candidate {
      guard let a = Double(number), let b = Double(text) else { return number == text }
      return a == b
    }
    switch candidate {
    case .array, .object: return false
    default: return candidate.jsonText == text
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

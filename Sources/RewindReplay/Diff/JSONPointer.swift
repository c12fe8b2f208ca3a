/// A JSON Pointer (RFC 6901): the address of one value inside a JSON document.
///
/// A pointer is a list of reference tokens. Its text form joins them with `/`, each preceded by
/// a `/`, with `~` written as `~0` and `/` as `~1`; the empty pointer `""` addresses the whole
/// document.
///
/// ```swift
/// let pointer = try JSONPointer(parsing: "/todos/2/title")
/// pointer.tokens       // ["todos", "2", "title"]
/// pointer.description  // "/todos/2/title"
/// ```
///
/// Tokens are plain strings: whether `"2"` names an array element or an object member depends
/// on the document the pointer is applied to.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
  /// The reference tokens, unescaped, from the outermost value inwards.
  public var tokens: [String]

  /// Creates a pointer from unescaped reference tokens.
  ///
  /// - Parameter tokens: The tokens, outermost first; empty for the whole document.
  public init(tokens: [String] = []) {
    self.tokens = tokens
  }

  /// The pointer to the whole document, `""`.
  public static var root: JSONPointer { JSONPointer() }

  /// Parses the text form of a pointer.
  ///
  /// - Parameter text: `""` for the whole document, or `/` followed by `/`-separated tokens in
  ///   which `~0` stands for `~` and `~1` for `/`.
  /// - Throws: `JSONPointerError.missingLeadingSlash` when `text` is not empty and does not start
  ///   with `/`; `JSONPointerError.invalidEscape` when a `~` is not followed by `0` or `1`.
  /// - Complexity: O(*n*), where *n* is the length of `text`.
  public init(parsing text: String) throws(JSONPointerError) {
    guard !text.isEmpty else {
      self.init()
      return
    }
    guard text.unicodeScalars.first == "/" else {
      throw .missingLeadingSlash(pointer: text)
    }
    var tokens: [String] = []
    var current = String.UnicodeScalarView()
    var isAfterTilde = false
    for (offset, scalar) in text.unicodeScalars.enumerated().dropFirst() {
      if isAfterTilde {
        switch scalar {
        case "0": current.append("~")
        case "1": current.append("/")
        default: throw .invalidEscape(pointer: text, offset: offset - 1)
        }
        isAfterTilde = false
      } else if scalar == "~" {
        isAfterTilde = true
      } else if scalar == "/" {
        tokens.append(String(current))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if isAfterTilde {
      throw .invalidEscape(pointer: text, offset: text.unicodeScalars.count - 1)
    }
    tokens.append(String(current))
    self.init(tokens: tokens)
  }

  /// Whether this pointer addresses the whole document (has no tokens).
  public var isRoot: Bool { tokens.isEmpty }

  /// The pointer to the value that contains this one, or `nil` for the root pointer.
  public var parent: JSONPointer? {
    guard !tokens.isEmpty else { return nil }
    return JSONPointer(tokens: Array(tokens.dropLast()))
  }

  /// Returns this pointer extended by one token.
  ///
  /// - Parameter token: The unescaped token to append, an object key or an array index.
  public func appending(_ token: String) -> JSONPointer {
    JSONPointer(tokens: tokens + [token])
  }

  /// Whether `other` addresses a value strictly inside the value this pointer addresses.
  ///
  /// The root pointer is an ancestor of every other pointer; no pointer is its own ancestor.
  public func isAncestor(of other: JSONPointer) -> Bool {
    other.tokens.count > tokens.count && other.tokens.starts(with: tokens)
  }

  /// The RFC 6901 text form, for example `/todos/2/title`; `""` for the root.
  public var description: String {
    var text = String.UnicodeScalarView()
    for token in tokens {
      text.append("/")
      for scalar in token.unicodeScalars {
        switch scalar {
        case "~": text.append(contentsOf: "~0".unicodeScalars)
        case "/": text.append(contentsOf: "~1".unicodeScalars)
        default: text.append(scalar)
        }
      }
    }
    return String(text)
  }
}

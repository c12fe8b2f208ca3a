/// Why a state path (`todos[2].title`) could not be parsed or followed.
public enum StatePathError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The text is not a path; `offset` is the character where it goes wrong.
  case syntax(String, offset: Int, reason: String)
  /// An object has no member `key`; `available` lists the keys it has.
  case noSuchKey(String, in: String, available: [String])
  /// An index past the end of an array of `count` elements.
  case indexOutOfRange(Int, in: String, count: Int)
  /// A step into a value that is not an object or array.
  case notAContainer(String, kind: String)
  /// No element of an array of `count` elements has the member and value an identity step
  /// (`[id=42]`) asks for.
  case noMatchingElement(String, in: String, count: Int)

  /// One line saying what is wrong and what is valid.
  public var description: String {
    switch self {
    case .syntax(let text, let offset, let reason):
      return "invalid path '\(text)' at character \(offset + 1): \(reason)"
    case .noSuchKey(let key, let parent, let available):
      let keys = available.prefix(12).joined(separator: ", ")
      return
        "\(parent) has no key '\(key)'; its keys are: \(keys)\(available.count > 12 ? ", …" : "")"
    case .indexOutOfRange(let index, let parent, let count):
      return count == 0
        ? "index \(index) is out of range: \(parent) is empty"
        : "index \(index) is out of range: \(parent) has \(count) element\(count == 1 ? "" : "s") (0…\(count - 1))"
    case .notAContainer(let parent, let kind):
      return "\(parent) is a \(kind), which has no members"
    case .noMatchingElement(let step, let parent, let count):
      return count == 0
        ? "\(parent) is empty: no element is \(step)"
        : "no element of \(parent) (\(count) element\(count == 1 ? "" : "s")) is \(step)"
    }
  }
}

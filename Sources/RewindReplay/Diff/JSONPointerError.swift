/// Why a string is not a valid JSON Pointer (RFC 6901).
public enum JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The pointer is not empty and does not start with `/`.
  case missingLeadingSlash(pointer: String)
  /// A `~` at `offset` (counted in Unicode scalars from the start of `pointer`) is not followed
  /// by `0` or `1`.
  case invalidEscape(pointer: String, offset: Int)

  /// A one-line message naming the pointer and the problem.
  public var description: String {
    switch self {
    case .missingLeadingSlash(let pointer):
      return "invalid JSON pointer \(quoted(pointer)): it must be empty or start with \"/\""
    case .invalidEscape(let pointer, let offset):
      return "invalid JSON pointer \(quoted(pointer)): \"~\" at offset \(offset) must be followed"
        + " by \"0\" (for \"~\") or \"1\" (for \"/\")"
    }
  }
}

private func quoted(_ text: String) -> String {
  var output = ""
  CompactJSON.writeString(text, to: &output)
  return output
}

import RewindJSON

/// Why a JSON Patch could not be read or applied.
///
/// Every case but `patchIsNotAnArray` carries `operation`, the zero-based position of the
/// failing operation in the patch; cases about a location carry the operation's `pointer` that
/// could not be followed (its `path`, or its `from` for a move or copy).
public enum JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The patch document is not an array; `kind` is what it is (`"object"`, …).
  case patchIsNotAnArray(kind: String)
  /// An element of the patch is not an object.
  case operationIsNotAnObject(operation: Int, kind: String)
  /// An operation lacks a member it needs (`op`, `path`, `from` or `value`).
  case missingMember(operation: Int, name: String)
  /// An operation's `op`, `path` or `from` member is not a string.
  case memberIsNotAString(operation: Int, name: String, kind: String)
  /// An operation's `op` is not one of the six RFC 6902 operations.
  case unknownOperation(operation: Int, name: String)
  /// An operation's `path` or `from` member is not a valid JSON Pointer.
  case invalidPointer(operation: Int, member: String, error: JSONPointerError)
  /// An object on the way to, or holding, the target has no member `key`.
  case noSuchMember(operation: Int, pointer: JSONPointer, key: String)
  /// An array was reached with `token`, which is not an array index (digits without leading
  /// zeros, or `-` where an element may be appended).
  case invalidArrayIndex(operation: Int, pointer: JSONPointer, token: String)
  /// An array was reached with an index past its end (or `-` where no element may be added).
  case arrayIndexOutOfRange(operation: Int, pointer: JSONPointer, token: String, count: Int)
  /// The pointer continues with `token` past a value of kind `kind` that holds nothing.
  case notAContainer(operation: Int, pointer: JSONPointer, token: String, kind: String)
  /// A `remove` with the root pointer: the whole document cannot be removed.
  case cannotRemoveRoot(operation: Int)
  /// A `move` whose `path` is inside its `from`.
  case moveIntoDescendant(operation: Int, from: JSONPointer, path: JSONPointer)
  /// A `test` found `actual` where it expected `expected`.
  case testFailed(operation: Int, pointer: JSONPointer, expected: JSONValue, actual: JSONValue)

  /// The zero-based position of the failing operation in the patch, or `nil` when the patch
  /// as a whole is malformed.
  public var operationIndex: Int? {
    switch self {
    case .patchIsNotAnArray: return nil
    case .operationIsNotAnObject(let operation, _), .missingMember(let operation, _),
      .memberIsNotAString(let operation, _, _), .unknownOperation(let operation, _),
      .invalidPointer(let operation, _, _), .noSuchMember(let operation, _, _),
      .invalidArrayIndex(let operation, _, _), .arrayIndexOutOfRange(let operation, _, _, _),
      .notAContainer(let operation, _, _, _), .cannotRemoveRoot(let operation),
      .moveIntoDescendant(let operation, _, _), .testFailed(let operation, _, _, _):
      return operation
    }
  }

  /// The pointer that could not be followed, when the failure is about a location.
  public var pointer: JSONPointer? {
    switch self {
    case .noSuchMember(_, let pointer, _), .invalidArrayIndex(_, let pointer, _),
      .arrayIndexOutOfRange(_, let pointer, _, _), .notAContainer(_, let pointer, _, _),
      .testFailed(_, let pointer, _, _):
      return pointer
    case .cannotRemoveRoot: return .root
    case .moveIntoDescendant(_, _, let path): return path
    case .patchIsNotAnArray, .operationIsNotAnObject, .missingMember, .memberIsNotAString,
      .unknownOperation, .invalidPointer:
      return nil
    }
  }

  /// A one-line message, starting with the operation's position, for example
  /// `operation 2: "/todos/7": index 7 is out of range for an array of 5 elements`.
  public var description: String {
    switch self {
    case .patchIsNotAnArray(let kind):
      return "a JSON Patch must be an array of operations, found \(withArticle(kind))"
    case .operationIsNotAnObject(let operation, let kind):
      return "operation \(operation): must be an object, found \(withArticle(kind))"
    case .missingMember(let operation, let name):
      return "operation \(operation): missing member \(quoted(name))"
    case .memberIsNotAString(let operation, let name, let kind):
      return "operation \(operation): member \(quoted(name)) must be a string, found "
        + withArticle(kind)
    case .unknownOperation(let operation, let name):
      return "operation \(operation): unknown op \(quoted(name)) (expected add, remove, replace,"
        + " move, copy or test)"
    case .invalidPointer(let operation, let member, let error):
      return "operation \(operation): member \(quoted(member)): \(error)"
    case .noSuchMember(let operation, let pointer, let key):
      return "operation \(operation): \(quoted(pointer)): no member \(quoted(key))"
    case .invalidArrayIndex(let operation, let pointer, let token):
      return "operation \(operation): \(quoted(pointer)): \(quoted(token)) is not an array index"
    case .arrayIndexOutOfRange(let operation, let pointer, let token, let count):
      let elements = count == 1 ? "1 element" : "\(count) elements"
      return "operation \(operation): \(quoted(pointer)): index \(token) is out of range for an"
        + " array of \(elements)"
    case .notAContainer(let operation, let pointer, let token, let kind):
      return "operation \(operation): \(quoted(pointer)): cannot look up \(quoted(token)) in "
        + withArticle(kind)
    case .cannotRemoveRoot(let operation):
      return "operation \(operation): cannot remove the whole document (path \"\")"
    case .moveIntoDescendant(let operation, let from, let path):
      return "operation \(operation): cannot move \(quoted(from)) into its own descendant "
        + quoted(path)
    case .testFailed(let operation, let pointer, let expected, let actual):
      let expectedText = CompactJSON.text(expected, maxWidth: 40)
      let actualText = CompactJSON.text(actual, maxWidth: 40)
      return "operation \(operation): test failed at \(quoted(pointer)): expected \(expectedText),"
        + " found \(actualText)"
    }
  }
}

private func quoted(_ text: some CustomStringConvertible) -> String {
  var output = ""
  CompactJSON.writeString(text.description, to: &output)
  return output
}

private func withArticle(_ kind: String) -> String {
  guard let first = kind.first else { return kind }
  return ("aeiou".contains(first) ? "an " : "a ") + kind
}

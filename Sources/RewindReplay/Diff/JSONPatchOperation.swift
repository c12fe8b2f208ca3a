import RewindJSON

/// One operation of a JSON Patch (RFC 6902).
///
/// Member names follow the RFC: `path` is the target location and `from` the source of a move
/// or copy.
public enum JSONPatchOperation: Sendable, Equatable {
  /// Adds `value` at `path`: inserts into an array (`-` appends), or adds or replaces an object
  /// member; the root path replaces the whole document.
  case add(path: JSONPointer, value: JSONValue)
  /// Removes the value at `path`, which must exist.
  case remove(path: JSONPointer)
  /// Replaces the value at `path`, which must exist, with `value`.
  case replace(path: JSONPointer, value: JSONValue)
  /// Removes the value at `from` and adds it at `path`.
  case move(from: JSONPointer, path: JSONPointer)
  /// Adds a copy of the value at `from` at `path`.
  case copy(from: JSONPointer, path: JSONPointer)
  /// Checks that the value at `path` equals `value`, failing the patch if not.
  case test(path: JSONPointer, value: JSONValue)

  /// The RFC name of the operation: `"add"`, `"remove"`, `"replace"`, `"move"`, `"copy"` or
  /// `"test"`.
  public var name: String {
    switch self {
    case .add: return "add"
    case .remove: return "remove"
    case .replace: return "replace"
    case .move: return "move"
    case .copy: return "copy"
    case .test: return "test"
    }
  }

  /// The target location of the operation.
  public var path: JSONPointer {
    switch self {
    case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _),
      .move(_, let path), .copy(_, let path):
      return path
    }
  }

  /// The operation as an RFC 6902 JSON object, members in the order `op`, `from`, `path`,
  /// `value`, for example `{"op":"replace","path":"/todos/2/title","value":"Buy oat milk"}`.
  public var jsonValue: JSONValue {
    var members = [JSONMember("op", .string(name))]
    switch self {
    case .add(let path, let value), .replace(let path, let value), .test(let path, let value):
      members.append(JSONMember("path", .string(path.description)))
      members.append(JSONMember("value", value))
    case .remove(let path):
      members.append(JSONMember("path", .string(path.description)))
    case .move(let from, let path), .copy(let from, let path):
      members.append(JSONMember("from", .string(from.description)))
      members.append(JSONMember("path", .string(path.description)))
    }
    return .object(members)
  }
}

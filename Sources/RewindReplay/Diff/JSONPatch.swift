import RewindJSON

/// A JSON Patch (RFC 6902): a list of operations that turns one JSON document into another.
///
/// Make one from a diff with ``init(changes:)`` or ``init(from:to:)``, write it for `--json`
/// output with ``jsonValue``, read one with ``init(jsonValue:)``, and run it with
/// ``apply(to:)``.
public struct JSONPatch: Sendable, Equatable {
  /// The operations, applied in order.
  public var operations: [JSONPatchOperation]

  /// Creates a patch from its operations.
  public init(_ operations: [JSONPatchOperation] = []) {
    self.operations = operations
  }

  /// The patch as an RFC 6902 document: an array of operation objects.
  public var jsonValue: JSONValue {
    .array(operations.map(\.jsonValue))
  }

  /// Reads an RFC 6902 patch document.
  ///
  /// Members other than `op`, `path`, `from` and `value` are ignored, as the RFC asks.
  /// - Parameter jsonValue: An array of operation objects.
  /// - Throws: `JSONPatchError.patchIsNotAnArray`, `.operationIsNotAnObject`, `.missingMember`,
  ///   `.memberIsNotAString`, `.unknownOperation` or `.invalidPointer`, naming the operation's
  ///   position.
  /// - Complexity: O(*n*) in the size of the document.
  public init(jsonValue: JSONValue) throws(JSONPatchError) {
    guard case .array(let elements) = jsonValue else {
      throw .patchIsNotAnArray(kind: jsonValue.kindName)
    }
    var operations: [JSONPatchOperation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      operations.append(try OperationReader(index: index, json: element).operation())
    }
    self.init(operations)
  }
}

/// Reads one operation object, reporting problems with its position in the patch.
private struct OperationReader {
  let index: Int
  let json: JSONValue

  func operation() throws(JSONPatchError) -> JSONPatchOperation {
    guard case .object = json else {
      throw .operationIsNotAnObject(operation: index, kind: json.kindName)
    }
    let name = try string("op")
    switch name {
    case "add": return .add(path: try pointer("path"), value: try value())
    case "remove": return .remove(path: try pointer("path"))
    case "replace": return .replace(path: try pointer("path"), value: try value())
    case "move": return .move(from: try pointer("from"), path: try pointer("path"))
    case "copy": return .copy(from: try pointer("from"), path: try pointer("path"))
    case "test": return .test(path: try pointer("path"), value: try value())
    default: throw .unknownOperation(operation: index, name: name)
    }
  }

  private func value() throws(JSONPatchError) -> JSONValue {
    guard let value = json["value"] else { throw .missingMember(operation: index, name: "value") }
    return value
  }

  private func string(_ name: String) throws(JSONPatchError) -> String {
    guard let member = json[name] else { throw .missingMember(operation: index, name: name) }
    guard case .string(let text) = member else {
      throw .memberIsNotAString(operation: index, name: name, kind: member.kindName)
    }
    return text
  }

  private func pointer(_ name: String) throws(JSONPatchError) -> JSONPointer {
    let text = try string(name)
    do {
      return try JSONPointer(parsing: text)
    } catch {
      throw .invalidPointer(operation: index, member: name, error: error)
    }
  }
}

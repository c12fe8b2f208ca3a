import Foundation
import RewindJSON

extension JSONPatch {
  /// Returns `document` with the patch's operations applied in order (RFC 6902).
  ///
  /// Either every operation succeeds or the patch fails as a whole; `document` itself is a
  /// value and is never modified.
  /// - `add` inserts into an array at an index from 0 to its count (`-` appends), or adds or
  ///   replaces an object member; with the root path it replaces the document.
  /// - `remove` and `replace` need the target to exist.
  /// - `move` removes from `from` and adds at `path` (not inside `from`); `copy` adds a copy.
  /// - `test` compares with `==` except that numbers are equal when their decimal values are
  ///   (`1.0` and `1`), as the RFC asks.
  ///
  /// - Parameter document: The document to patch.
  /// - Returns: The patched document.
  /// - Throws: `JSONPatchError.noSuchMember`, `.invalidArrayIndex`, `.arrayIndexOutOfRange`,
  ///   `.notAContainer`, `.cannotRemoveRoot`, `.moveIntoDescendant` or `.testFailed`, each
  ///   carrying the failing operation's position and pointer.
  /// - Complexity: Per operation, O(*d* + *w*) for a pointer *d* tokens deep through containers
  ///   of at most *w* members or elements; `test`, `copy` and `move` add the size of the value.
  public func apply(to document: JSONValue) throws(JSONPatchError) -> JSONValue {
    var document = document
    for (index, operation) in operations.enumerated() {
      try PatchStep(operation: index).apply(operation, to: &document)
    }
    return document
  }
}

/// Applies one operation, reporting failures with its position in the patch.
private struct PatchStep {
  let operation: Int

  func apply(_ operation: JSONPatchOperation, to document: inout JSONValue) throws(JSONPatchError) {
    switch operation {
    case .add(let path, let value):
      try add(value, at: path, in: &document)
    case .remove(let path):
      _ = try remove(at: path, in: &document)
    case .replace(let path, let value):
      try replace(at: path, with: value, in: &document)
    case .move(let from, let path):
      guard from != path else {
        _ = try value(at: from, in: document)
        return
      }
      guard !from.isAncestor(of: path) else {
        throw .moveIntoDescendant(operation: self.operation, from: from, path: path)
      }
      let moved = try remove(at: from, in: &document)
      try add(moved, at: path, in: &document)
    case .copy(let from, let path):
      try add(try value(at: from, in: document), at: path, in: &document)
    case .test(let path, let expected):
      let actual = try value(at: path, in: document)
      guard JSONTestEquality.areEqual(actual, expected) else {
        throw .testFailed(
          operation: self.operation, pointer: path, expected: expected, actual: actual)
      }
    }
  }

  private func add(
    _ value: JSONValue, at pointer: JSONPointer, in document: inout JSONValue
  ) throws(JSONPatchError) {
    guard let last = pointer.tokens.last else {
      document = value
      return
    }
    try modify(&document, along: pointer.tokens.dropLast()[...], of: pointer) {
      (container) throws(JSONPatchError) in
      switch container {
      case .object(var members):
        container = .null
        if let position = members.firstIndex(where: { $0.key == last }) {
          members[position].value = value
        } else {
          members.append(JSONMember(last, value))
        }
        container = .object(members)
      case .array(var elements):
        let index = try arrayIndex(last, count: elements.count, allowsEnd: true, in: pointer)
        container = .null
        elements.insert(value, at: index)
        container = .array(elements)
      default:
        throw .notAContainer(
          operation: operation, pointer: pointer, token: last, kind: container.kindName)
      }
    }
  }

  private func remove(
    at pointer: JSONPointer, in document: inout JSONValue
  ) throws(JSONPatchError) -> JSONValue {
    guard let last = pointer.tokens.last else { throw .cannotRemoveRoot(operation: operation) }
    var removed = JSONValue.null
    try modify(&document, along: pointer.tokens.dropLast()[...], of: pointer) {
      (container) throws(JSONPatchError) in
      switch container {
      case .object(var members):
        guard let position = members.firstIndex(where: { $0.key == last }) else {
          throw .noSuchMember(operation: operation, pointer: pointer, key: last)
        }
        container = .null
        removed = members.remove(at: position).value
        container = .object(members)
      case .array(var elements):
        let index = try arrayIndex(last, count: elements.count, allowsEnd: false, in: pointer)
        container = .null
        removed = elements.remove(at: index)
        container = .array(elements)
      default:
        throw .notAContainer(
          operation: operation, pointer: pointer, token: last, kind: container.kindName)
      }
    }
    return removed
  }

  private func replace(
    at pointer: JSONPointer, with value: JSONValue, in document: inout JSONValue
  ) throws(JSONPatchError) {
    try modify(&document, along: pointer.tokens[...], of: pointer) { target in
      target = value
    }
  }

  /// The value `pointer` addresses in `document`.
  private func value(
    at pointer: JSONPointer, in document: JSONValue
  ) throws(JSONPatchError) -> JSONValue {
    var current = document
    for token in pointer.tokens {
      current = try child(token, of: current, in: pointer)
    }
    return current
  }

  private func child(
    _ token: String, of value: JSONValue, in pointer: JSONPointer
  ) throws(JSONPatchError) -> JSONValue {
    switch value {
    case .object(let members):
      guard let member = members.first(where: { $0.key == token }) else {
        throw .noSuchMember(operation: operation, pointer: pointer, key: token)
      }
      return member.value
    case .array(let elements):
      return elements[try arrayIndex(token, count: elements.count, allowsEnd: false, in: pointer)]
    default:
      throw .notAContainer(
        operation: operation, pointer: pointer, token: token, kind: value.kindName)
    }
  }

  /// Follows `tokens` from `value` and runs `body` on the value they lead to, in place.
  ///
  /// Each container on the way is taken out of its parent while its child is modified, so that
  /// arrays and member lists are uniquely referenced and change without being copied.
  private func modify(
    _ value: inout JSONValue, along tokens: ArraySlice<String>, of pointer: JSONPointer,
    _ body: (inout JSONValue) throws(JSONPatchError) -> Void
  ) throws(JSONPatchError) {
    guard let token = tokens.first else {
      try body(&value)
      return
    }
    switch value {
    case .object(var members):
      guard let position = members.firstIndex(where: { $0.key == token }) else {
        throw .noSuchMember(operation: operation, pointer: pointer, key: token)
      }
      value = .null
      defer { value = .object(members) }
      try modify(&members[position].value, along: tokens.dropFirst(), of: pointer, body)
    case .array(var elements):
      let index = try arrayIndex(token, count: elements.count, allowsEnd: false, in: pointer)
      value = .null
      defer { value = .array(elements) }
      try modify(&elements[index], along: tokens.dropFirst(), of: pointer, body)
    default:
      throw .notAContainer(
        operation: operation, pointer: pointer, token: token, kind: value.kindName)
    }
  }

  /// The array position `token` names: digits without leading zeros, below `count` (or equal
  /// to it, and `-` for `count`, when `allowsEnd`).
  private func arrayIndex(
    _ token: String, count: Int, allowsEnd: Bool, in pointer: JSONPointer
  ) throws(JSONPatchError) -> Int {
    if token == "-" {
      guard allowsEnd else {
        throw .arrayIndexOutOfRange(
          operation: operation, pointer: pointer, token: token, count: count)
      }
      return count
    }
    let isCanonical =
      !token.isEmpty && token.utf8.allSatisfy { (0x30...0x39).contains($0) }
      && (token == "0" || token.utf8.first != 0x30)
    guard isCanonical, let index = Int(token) else {
      throw .invalidArrayIndex(operation: operation, pointer: pointer, token: token)
    }
    guard index < count || (allowsEnd && index == count) else {
      throw .arrayIndexOutOfRange(
        operation: operation, pointer: pointer, token: token, count: count)
    }
    return index
  }
}

/// Equality for the `test` operation: `JSONValue`'s `==`, except that numbers are compared by
/// decimal value (RFC 6902 §4.6).
private enum JSONTestEquality {
  static func areEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)):
      if x == y { return true }
      guard let first = Decimal(string: x, locale: Locale(identifier: "en_US_POSIX")),
        let second = Decimal(string: y, locale: Locale(identifier: "en_US_POSIX")),
        !first.isNaN, !second.isNaN
      else { return false }
      return first == second
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { areEqual($0, $1) }
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      let values = Dictionary(x.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
      return y.allSatisfy { member in values[member.key].map { areEqual($0, member.value) } ?? false
      }
    default:
      return a == b
    }
  }
}

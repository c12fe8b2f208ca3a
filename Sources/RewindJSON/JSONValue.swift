/// A parsed JSON document: the value tree that Rewind's own JSON coding reads and writes.
///
/// Numbers keep their literal text exactly as it appeared (or as the encoder wrote it), so that
/// 64-bit integers, `Decimal`s and doubles round-trip without loss and two encodings of the same
/// value compare equal byte for byte. Objects keep their members in document order; the encoder
/// writes them in the order `encode(_:forKey:)` was called (and dictionaries sorted by key), which
/// is the same in every process.
public enum JSONValue: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as its JSON literal text (for example `"-12"`, `"0.5"`, `"1e-7"`).
  case number(String)
  /// A string, already unescaped.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, its members in document order. Keys are unique.
  case object([JSONMember])
}

/// One member of a JSON object: a key and its value.
public struct JSONMember: Sendable, Equatable {
  /// The member's key.
  public var key: String
  /// The member's value.
  public var value: JSONValue

  /// Creates a member.
  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

extension JSONValue: Equatable {
  /// Two values are equal when they have the same kind and contents; object members are
  /// compared by key, whatever their order, and numbers by their literal text.
  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      guard a.count == b.count else { return false }
      if a.elementsEqual(b) { return true }
      for member in a {
        guard let other = b.first(where: { $0.key == member.key }), other.value == member.value
        else { return false }
      }
      return true
    default: return false
    }
  }
}

extension JSONValue {
  /// The value of the member named `key` when this is an object, else `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first(where: { $0.key == key })?.value
  }

  /// The string when this is `.string`, else `nil`.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The integer when this is a number that is an exact `Int`, else `nil`.
  public var intValue: Int? {
    if case .number(let text) = self { return Int(text) }
    return nil
  }

  /// The number as a `Double` when this is a number, else `nil`.
  public var doubleValue: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }

  /// The Boolean when this is `.bool`, else `nil`.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  /// A short name of the value's kind, for messages: `"object"`, `"array"`, `"string"`, ….
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}

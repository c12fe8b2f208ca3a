/// The `Encoder` behind ``RewindJSONEncoder``.
///
/// One instance encodes a whole value tree: going into a nested value saves its storage and
/// path, encodes the child and restores them, so a child costs no encoder allocation. Super
/// encoders, which a caller may keep and fill later, are separate instances.
final class JSONEncoderImpl: Encoder, SingleValueEncodingContainer {
  var storage = JSONEncoderStorage.empty
  var path: CodingPath
  let options: [CodingUserInfoKey: any Sendable]

  init(options: [CodingUserInfoKey: any Sendable], path: CodingPath) {
    self.options = options
    self.path = path
  }

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { options }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: JSONObjectBuilder
    if case .object(let existing) = storage {
      object = existing
    } else {
      object = JSONObjectBuilder()
      storage = .object(object)
    }
    return KeyedEncodingContainer(
      JSONKeyedEncodingContainer(encoder: self, object: object, path: path))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: JSONArrayBuilder
    if case .array(let existing) = storage {
      array = existing
    } else {
      array = JSONArrayBuilder()
      storage = .array(array)
    }
    return JSONUnkeyedEncodingContainer(encoder: self, array: array, path: path)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    self
  }

  // MARK: Children

  /// Encodes a child value at `parent` + `key` and returns it; a child that encodes nothing
  /// becomes `{}`, as with Foundation.
  func encodeChild<T: Encodable>(
    _ value: T,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> JSONValue {
    if let shortcut = value as? any JSONEncodingShortcut {
      return try shortcut.encodeJSON(with: self, parent: parent, key: key)
    }
    return try encodeWithCodable(value, parent: parent, key: key) ?? .object([])
  }

  /// Encodes a value through its own `encode(to:)`, never a shortcut; `nil` when it encoded
  /// nothing.
  func encodeWithCodable<T: Encodable>(
    _ value: T,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> JSONValue? {
    let savedStorage = storage
    let savedPath = path
    storage = .empty
    path = parent.appending(key)
    defer {
      storage = savedStorage
      path = savedPath
    }
    try value.encode(to: self)
    return storage.finish()
  }

  /// A new encoder whose result fills a slot later, for `superEncoder()`.
  func makeSuperEncoder(at path: CodingPath) -> JSONEncoderImpl {
    JSONEncoderImpl(options: options, path: path)
  }

  // MARK: SingleValueEncodingContainer

  func encodeNil() { storage = .value(.null) }
  func encode(_ value: Bool) { storage = .value(.bool(value)) }
  func encode(_ value: String) { storage = .value(.string(value)) }
  func encode(_ value: Double) throws {
    storage = .value(try JSONScalars.number(value, parent: path, key: nil))
  }
  func encode(_ value: Float) throws {
    storage = .value(try JSONScalars.number(value, parent: path, key: nil))
  }
  func encode(_ value: Int) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: Int8) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: Int16) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: Int32) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: Int64) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: UInt) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: UInt8) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: UInt16) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: UInt32) { storage = .value(JSONScalars.number(value)) }
  func encode(_ value: UInt64) { storage = .value(JSONScalars.number(value)) }
  func encode<T: Encodable>(_ value: T) throws {
    storage = .value(try encodeChild(value, parent: path, key: nil))
  }
}

/// Conversions of Swift scalars to JSON values.
enum JSONScalars {
  static func number<T: FixedWidthInteger>(_ value: T) -> JSONValue {
    .number(String(value))
  }

  /// The number as the shortest text that reads back as the same value.
  ///
  /// - Throws: `EncodingError.invalidValue` for NaN and infinities, which JSON cannot hold.
  static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(
    _ value: F,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> JSONValue {
    guard value.isFinite else {
      let name = value.isNaN ? "nan" : value < 0 ? "-infinity" : "infinity"
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: parent.appending(key).keys,
          debugDescription: "\(F.self).\(name) cannot be encoded: JSON has no NaN or infinity"))
    }
    return .number(JSONNumberText.text(value))
  }
}

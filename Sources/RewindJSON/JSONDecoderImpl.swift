/// The `Decoder` behind ``RewindJSONDecoder``.
///
/// One instance decodes a whole value tree: going into a nested value saves the current value
/// and path, decodes the child and restores them. Super decoders are separate instances.
final class JSONDecoderImpl: Decoder, SingleValueDecodingContainer {
  var value: JSONValue
  var path: CodingPath
  let options: [CodingUserInfoKey: any Sendable]

  init(value: JSONValue, path: CodingPath, options: [CodingUserInfoKey: any Sendable]) {
    self.value = value
    self.path = path
    self.options = options
  }

  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { options }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try keyedContainer(Key.self, for: value, parent: path, key: nil)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try unkeyedContainer(for: value, parent: path, key: nil)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer {
    self
  }

  /// A keyed container over `value` at `parent` + `key`.
  ///
  /// - Throws: `typeMismatch` unless `value` is an object (`valueNotFound` for `null`).
  func keyedContainer<Key: CodingKey>(
    _ type: Key.Type,
    for value: JSONValue,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw JSONUnbox.mismatch(
        [String: Any].self, expected: "object", found: value, parent: parent, key: key)
    }
    return KeyedDecodingContainer(
      JSONKeyedDecodingContainer<Key>(decoder: self, members: members, path: parent.appending(key)))
  }

  /// An unkeyed container over `value` at `parent` + `key`.
  ///
  /// - Throws: `typeMismatch` unless `value` is an array (`valueNotFound` for `null`).
  func unkeyedContainer(
    for value: JSONValue,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else {
      throw JSONUnbox.mismatch(
        [Any].self, expected: "array", found: value, parent: parent, key: key)
    }
    return JSONUnkeyedDecodingContainer(
      decoder: self, elements: elements, path: parent.appending(key))
  }

  /// Decodes a child value found at `parent` + `key`.
  func decodeChild<T: Decodable>(
    _ type: T.Type,
    from value: JSONValue,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> T {
    if let shortcut = T.self as? any JSONDecodingShortcut.Type,
      let decoded = try shortcut.decodeJSON(from: value, parent: parent, key: key) as? T
    {
      return decoded
    }
    let savedValue = self.value
    let savedPath = path
    self.value = value
    path = parent.appending(key)
    defer {
      self.value = savedValue
      path = savedPath
    }
    return try T(from: self)
  }

  /// A new decoder over `value`, for `superDecoder()`.
  func makeSuperDecoder(for value: JSONValue, at path: CodingPath) -> JSONDecoderImpl {
    JSONDecoderImpl(value: value, path: path, options: options)
  }

  // MARK: SingleValueDecodingContainer

  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try JSONUnbox.bool(value, parent: path, key: nil)
  }
  func decode(_ type: String.Type) throws -> String {
    try JSONUnbox.string(value, parent: path, key: nil)
  }
  func decode(_ type: Double.Type) throws -> Double {
    try JSONUnbox.double(value, parent: path, key: nil)
  }
  func decode(_ type: Float.Type) throws -> Float {
    try JSONUnbox.float(value, parent: path, key: nil)
  }
  func decode(_ type: Int.Type) throws -> Int {
    try JSONUnbox.integer(value, as: Int.self, parent: path, key: nil)
  }
  func decode(_ type: Int8.Type) throws -> Int8 {
    try JSONUnbox.integer(value, as: Int8.self, parent: path, key: nil)
  }
  func decode(_ type: Int16.Type) throws -> Int16 {
    try JSONUnbox.integer(value, as: Int16.self, parent: path, key: nil)
  }
  func decode(_ type: Int32.Type) throws -> Int32 {
    try JSONUnbox.integer(value, as: Int32.self, parent: path, key: nil)
  }
  func decode(_ type: Int64.Type) throws -> Int64 {
    try JSONUnbox.integer(value, as: Int64.self, parent: path, key: nil)
  }
  func decode(_ type: UInt.Type) throws -> UInt {
    try JSONUnbox.integer(value, as: UInt.self, parent: path, key: nil)
  }
  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try JSONUnbox.integer(value, as: UInt8.self, parent: path, key: nil)
  }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try JSONUnbox.integer(value, as: UInt16.self, parent: path, key: nil)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try JSONUnbox.integer(value, as: UInt32.self, parent: path, key: nil)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try JSONUnbox.integer(value, as: UInt64.self, parent: path, key: nil)
  }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeChild(type, from: value, parent: path, key: nil)
  }
}

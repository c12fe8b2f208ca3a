/// The keyed container of ``JSONDecoderImpl``: looks members up by key.
///
/// Small objects, the usual case, are searched linearly; objects with more than eight members
/// get a hash index when the container is made. If a hand-built object repeats a key, the first
/// member wins.
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: JSONDecoderImpl
  let members: [JSONMember]
  let path: CodingPath
  private let positions: [String: Int]?

  private static var linearSearchLimit: Int { 8 }

  init(decoder: JSONDecoderImpl, members: [JSONMember], path: CodingPath) {
    self.decoder = decoder
    self.members = members
    self.path = path
    if members.count > Self.linearSearchLimit {
      var positions = [String: Int](minimumCapacity: members.count)
      for (position, member) in members.enumerated() where positions[member.key] == nil {
        positions[member.key] = position
      }
      self.positions = positions
    } else {
      self.positions = nil
    }
  }

  var codingPath: [any CodingKey] { path.keys }

  var allKeys: [Key] {
    var keys: [Key] = []
    keys.reserveCapacity(members.count)
    for member in members {
      if let key = Key(stringValue: member.key) {
        keys.append(key)
      }
    }
    return keys
  }

  func contains(_ key: Key) -> Bool {
    find(key.stringValue) != nil
  }

  @inline(__always)
  private func find(_ name: String) -> JSONValue? {
    if let positions {
      return positions[name].map { members[$0].value }
    }
    for position in members.indices where members[position].key == name {
      return members[position].value
    }
    return nil
  }

  private func value(for key: Key) throws -> JSONValue {
    guard let value = find(key.stringValue) else {
      throw DecodingError.keyNotFound(
        key, DecodingError.Context(codingPath: path.keys, debugDescription: "key not found"))
    }
    return value
  }

  /// The member's value, or `nil` when the key is missing or its value is `null`.
  private func presentValue(for key: Key) -> JSONValue? {
    guard let value = find(key.stringValue) else { return nil }
    if case .null = value { return nil }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try value(for: key) { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try JSONUnbox.bool(value(for: key), parent: path, key: key)
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try JSONUnbox.string(value(for: key), parent: path, key: key)
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try JSONUnbox.double(value(for: key), parent: path, key: key)
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try JSONUnbox.float(value(for: key), parent: path, key: key)
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try JSONUnbox.integer(value(for: key), as: Int.self, parent: path, key: key)
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try JSONUnbox.integer(value(for: key), as: Int8.self, parent: path, key: key)
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try JSONUnbox.integer(value(for: key), as: Int16.self, parent: path, key: key)
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try JSONUnbox.integer(value(for: key), as: Int32.self, parent: path, key: key)
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try JSONUnbox.integer(value(for: key), as: Int64.self, parent: path, key: key)
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try JSONUnbox.integer(value(for: key), as: UInt.self, parent: path, key: key)
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try JSONUnbox.integer(value(for: key), as: UInt8.self, parent: path, key: key)
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try JSONUnbox.integer(value(for: key), as: UInt16.self, parent: path, key: key)
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try JSONUnbox.integer(value(for: key), as: UInt32.self, parent: path, key: key)
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try JSONUnbox.integer(value(for: key), as: UInt64.self, parent: path, key: key)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.decodeChild(type, from: value(for: key), parent: path, key: key)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try presentValue(for: key).map { try JSONUnbox.bool($0, parent: path, key: key) }
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try presentValue(for: key).map { try JSONUnbox.string($0, parent: path, key: key) }
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try presentValue(for: key).map { try JSONUnbox.double($0, parent: path, key: key) }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try presentValue(for: key).map {
      try JSONUnbox.integer($0, as: Int.self, parent: path, key: key)
    }
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try presentValue(for: key).map {
      try decoder.decodeChild(type, from: $0, parent: path, key: key)
    }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try decoder.keyedContainer(type, for: value(for: key), parent: path, key: key)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.unkeyedContainer(for: value(for: key), parent: path, key: key)
  }

  /// A decoder for the member `super`, or for `null` when there is none, as with Foundation.
  func superDecoder() throws -> any Decoder {
    decoder.makeSuperDecoder(
      for: find(JSONKey.superclass.stringValue) ?? .null, at: path.appending(JSONKey.superclass))
  }

  /// A decoder for the member at `key`, or for `null` when there is none, as with Foundation.
  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder.makeSuperDecoder(for: find(key.stringValue) ?? .null, at: path.appending(key))
  }
}

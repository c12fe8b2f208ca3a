/// The unkeyed container of ``JSONDecoderImpl``: reads array elements in order.
///
/// As with Foundation, a failed decode does not advance ``currentIndex``, and reading past the
/// end is `valueNotFound` at the position after the last element.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
  let decoder: JSONDecoderImpl
  let elements: [JSONValue]
  let path: CodingPath
  private(set) var currentIndex = 0

  init(decoder: JSONDecoderImpl, elements: [JSONValue], path: CodingPath) {
    self.decoder = decoder
    self.elements = elements
    self.path = path
  }

  var codingPath: [any CodingKey] { path.keys }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private var currentKey: JSONIndexKey { JSONIndexKey(index: currentIndex) }

  /// The current element, which a decode of `type` is about to read.
  private func current(_ type: Any.Type) throws -> JSONValue {
    guard currentIndex < elements.count else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.appending(currentKey).keys,
          debugDescription: "unkeyed container is at end"))
    }
    return elements[currentIndex]
  }

  /// Returns `value` after moving past the current element; a decode that throws before
  /// calling this leaves ``currentIndex`` where it was.
  private mutating func advance<T>(returning value: T) -> T {
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try current(Never?.self) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    advance(returning: try JSONUnbox.bool(current(type), parent: path, key: currentKey))
  }
  mutating func decode(_ type: String.Type) throws -> String {
    advance(returning: try JSONUnbox.string(current(type), parent: path, key: currentKey))
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    advance(returning: try JSONUnbox.double(current(type), parent: path, key: currentKey))
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    advance(returning: try JSONUnbox.float(current(type), parent: path, key: currentKey))
  }
  mutating func decode(_ type: Int.Type) throws -> Int {
    advance(
      returning: try JSONUnbox.integer(current(type), as: Int.self, parent: path, key: currentKey))
  }
  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    advance(
      returning: try JSONUnbox.integer(current(type), as: Int8.self, parent: path, key: currentKey))
  }
  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    advance(
      returning: try JSONUnbox.integer(current(type), as: Int16.self, parent: path, key: currentKey)
    )
  }
  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    advance(
      returning: try JSONUnbox.integer(current(type), as: Int32.self, parent: path, key: currentKey)
    )
  }
  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    advance(
      returning: try JSONUnbox.integer(current(type), as: Int64.self, parent: path, key: currentKey)
    )
  }
  mutating func decode(_ type: UInt.Type) throws -> UInt {
    advance(
      returning: try JSONUnbox.integer(current(type), as: UInt.self, parent: path, key: currentKey))
  }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    advance(
      returning: try JSONUnbox.integer(current(type), as: UInt8.self, parent: path, key: currentKey)
    )
  }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    advance(
      returning: try JSONUnbox.integer(
        current(type), as: UInt16.self, parent: path, key: currentKey))
  }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    advance(
      returning: try JSONUnbox.integer(
        current(type), as: UInt32.self, parent: path, key: currentKey))
  }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    advance(
      returning: try JSONUnbox.integer(
        current(type), as: UInt64.self, parent: path, key: currentKey))
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    advance(
      returning: try decoder.decodeChild(type, from: current(type), parent: path, key: currentKey))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let element = try current(KeyedDecodingContainer<NestedKey>.self)
    return advance(
      returning: try decoder.keyedContainer(type, for: element, parent: path, key: currentKey))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let element = try current((any UnkeyedDecodingContainer).self)
    return advance(
      returning: try decoder.unkeyedContainer(for: element, parent: path, key: currentKey))
  }

  mutating func superDecoder() throws -> any Decoder {
    let element = try current((any Decoder).self)
    return advance(
      returning: decoder.makeSuperDecoder(for: element, at: path.appending(currentKey)))
  }
}

/// The unkeyed container of ``JSONTapeDecoder``: reads array elements in order, with
/// Foundation's results (a failed decode does not advance ``currentIndex``; reading past the end
/// is `valueNotFound`).
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: JSONTapeDecoder
  let path: CodingPath
  let elementCount: Int
  private(set) var currentIndex = 0
  /// The tape index of the current element.
  private var element: Int

  init(decoder: JSONTapeDecoder, array: Int, path: CodingPath) {
    self.decoder = decoder
    self.path = path
    self.elementCount = Int(decoder.tape[array].count)
    self.element = array + 1
  }

  var codingPath: [any CodingKey] { path.keys }
  var count: Int? { elementCount }
  var isAtEnd: Bool { currentIndex >= elementCount }

  private var currentKey: JSONIndexKey { JSONIndexKey(index: currentIndex) }

  /// Where the current element reports errors.
  private var here: JSONErrorPath {
    JSONErrorPath(parent: JSONLazyPath(parent: path, key: nil), key: currentKey)
  }

  /// The current element, which a decode of `type` is about to read.
  @inline(__always)
  private func current(_ type: Any.Type) throws -> Int {
    guard currentIndex < elementCount else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.appending(currentKey).keys,
          debugDescription: "unkeyed container is at end"))
    }
    return element
  }

  /// Returns `value` after moving past the current element; a decode that throws before
  /// calling this leaves ``currentIndex`` where it was.
  @inline(__always)
  private mutating func advance<T>(returning value: T) -> T {
    element = decoder.tape[element].next
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard decoder.tape[try current(Never?.self)].kind == .null else { return false }
    element = decoder.tape[element].next
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    advance(returning: try decoder.bool(at: current(type), here))
  }
  mutating func decode(_ type: String.Type) throws -> String {
    advance(returning: try decoder.string(at: current(type), here))
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    advance(returning: try decoder.double(at: current(type), here))
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    advance(
      returning: try decoder.unboxed(at: current(type), here, JSONUnbox.float))
  }
  mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  private mutating func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    advance(
      returning: try decoder.integer(type, at: current(type), here))
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    advance(
      returning: try decoder.decodeChild(type, at: current(type), parent: here))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let index = try current(KeyedDecodingContainer<NestedKey>.self)
    return advance(
      returning: try decoder.keyedContainer(
        type, at: index, path: JSONLazyPath(parent: path, key: currentKey)))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let index = try current((any UnkeyedDecodingContainer).self)
    return advance(
      returning: try decoder.unkeyedContainer(
        at: index, path: JSONLazyPath(parent: path, key: currentKey)))
  }

  mutating func superDecoder() throws -> any Decoder {
    let index = try current((any Decoder).self)
    return advance(
      returning: decoder.makeSuperDecoder(at: index, path: path.appending(currentKey)))
  }
}

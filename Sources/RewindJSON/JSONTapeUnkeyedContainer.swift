/// The unkeyed container of ``JSONTapeDecoder``: reads array elements in order, with
/// Foundation's results (a failed decode does not advance ``currentIndex``; reading past the end
/// is `valueNotFound`).
///
/// The elements of a lazy array (``JSONTapeEntry/isLazy``) are not on the tape: each is found in
/// the text as the container reaches it and read into a document of its own
/// (``JSONLazyValues``).
struct JSONTapeUnkeyedContainer: UnkeyedDecodingContainer {
  let decoder: JSONTapeDecoder
  let path: CodingPath
  let elementCount: Int
  private(set) var currentIndex = 0
  /// The tape index of the current element; in a lazy array, the offset of its text.
  private var element: Int
  /// A lazy array's element reader; `nil` when the elements are on the tape.
  private let lazy: JSONLazyValues?

  init(decoder: JSONTapeDecoder, array: Int, path: CodingPath) {
    self.decoder = decoder
    self.path = path
    let entry = decoder.tape[array]
    self.elementCount = Int(entry.count)
    if entry.isLazy {
      lazy = JSONLazyValues(
        options: decoder.options, lazyContainerEntries: decoder.lazyContainerEntries)
      element = JSONLazyValues.elementStart(in: decoder.bytes, after: entry.start + 1)
    } else {
      lazy = nil
      element = array + 1
    }
  }

  var codingPath: [any CodingKey] { path.keys }
  var count: Int? { elementCount }
  var isAtEnd: Bool { currentIndex >= elementCount }

  private var currentKey: JSONIndexKey { JSONIndexKey(index: currentIndex) }

  /// Where the current element reports errors.
  private var here: JSONErrorPath {
    JSONErrorPath(parent: JSONLazyPath(parent: path, key: nil), key: currentKey)
  }

  /// The current element, which a decode of `type` is about to read: the decoder that reads it
  /// and its tape index there. In a lazy array, the element is read into the element reader's
  /// document, or (`kept`: for a container handed out, which may be used after the next
  /// element is read) into a document of its own.
  @inline(__always)
  private func current(_ type: Any.Type, kept: Bool = false) throws -> (JSONTapeDecoder, Int) {
    guard currentIndex < elementCount else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.appending(currentKey).keys,
          debugDescription: "unkeyed container is at end"))
    }
    guard let lazy else { return (decoder, element) }
    return (try lazy.read(decoder.bytes, at: element, kept: kept, path: here), 0)
  }

  /// Returns `value` after moving past the current element; a decode that throws before
  /// calling this leaves ``currentIndex`` where it was.
  @inline(__always)
  private mutating func advance<T>(returning value: T) -> T {
    if lazy != nil {
      element = JSONLazyValues.nextElement(in: decoder.bytes, after: element)
    } else {
      element = decoder.tape[element].next
    }
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    let (reader, index) = try current(Never?.self)
    guard reader.tape[index].kind == .null else { return false }
    return advance(returning: true)
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let (reader, index) = try current(type)
    return advance(returning: try reader.bool(at: index, here))
  }
  mutating func decode(_ type: String.Type) throws -> String {
    let (reader, index) = try current(type)
    return advance(returning: try reader.string(at: index, here))
  }
  mutating func decode(_ type: Double.Type) throws -> Double {
    let (reader, index) = try current(type)
    return advance(returning: try reader.double(at: index, here))
  }
  mutating func decode(_ type: Float.Type) throws -> Float {
    let (reader, index) = try current(type)
    return advance(returning: try reader.unboxed(at: index, here, JSONUnbox.float))
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
    let (reader, index) = try current(type)
    return advance(returning: try reader.integer(type, at: index, here))
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (reader, index) = try current(type)
    return advance(returning: try reader.decodeChild(type, at: index, parent: here))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    let (reader, index) = try current(KeyedDecodingContainer<NestedKey>.self, kept: true)
    return advance(
      returning: try reader.keyedContainer(
        type, at: index, path: JSONLazyPath(parent: path, key: currentKey)))
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (reader, index) = try current((any UnkeyedDecodingContainer).self, kept: true)
    return advance(
      returning: try reader.unkeyedContainer(
        at: index, path: JSONLazyPath(parent: path, key: currentKey)))
  }

  mutating func superDecoder() throws -> any Decoder {
    let (reader, index) = try current((any Decoder).self)
    return advance(
      returning: reader.makeSuperDecoder(at: index, path: path.appending(currentKey)))
  }
}

/// The keyed container of ``JSONStreamValueEncoder``: writes members of one open object.
struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: JSONStreamValueEncoder
  /// The object's frame; `0` when the stream gave up making it.
  let frame: Int

  init(encoder: JSONStreamValueEncoder, frame: Int) {
    self.encoder = encoder
    self.frame = frame
  }

  /// The object's own path.
  private var lazyPath: JSONLazyPath {
    guard let position = encoder.position(of: frame) else {
      return JSONLazyPath(parent: .root, key: nil)
    }
    return encoder.state.pointee.framePaths[position].path
  }

  var codingPath: [any CodingKey] { lazyPath.path.keys }

  /// Starts the member at `key`; returns its frame's position.
  @inline(__always)
  @discardableResult
  private func begin(_ key: Key) throws -> Int {
    guard frame != 0 else { throw encoder.giveUp() }
    return try encoder.beginMember(of: frame, key: key)
  }

  /// The path of the member at `key` of the frame at `position`.
  private func path(_ position: Int, _ key: Key) -> JSONLazyPath {
    JSONLazyPath(parent: encoder.framePath(position), key: key)
  }

  mutating func encodeNil(forKey key: Key) throws {
    try begin(key)
    encoder.appendLiteral("null")
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try begin(key)
    encoder.appendLiteral(value ? "true" : "false")
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try begin(key)
    JSONWriter.appendString(value, to: &encoder.state.pointee.output)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    let position = try begin(key)
    try encoder.appendFloatingPoint(value) { path(position, key) }
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    let position = try begin(key)
    try encoder.appendFloatingPoint(value) { path(position, key) }
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try begin(key)
    encoder.appendInteger(value)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encoder.writeValue(value, in: begin(key), key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      JSONStreamKeyedContainer<NestedKey>(encoder: encoder, frame: nested(isObject: true, key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    JSONStreamUnkeyedContainer(encoder: encoder, frame: nested(isObject: false, key))
  }

  /// Opens a container as the member at `key` (in the buffered mode, the one opened there
  /// before, if any); `0` when the stream gave up.
  private func nested(isObject: Bool, _ key: Key) -> Int {
    if frame != 0, let buffer = encoder.state.pointee.buffer,
      let existing = buffer.existingChild(of: frame, key: key.stringValue, isObject: isObject)
    {
      return existing
    }
    guard frame != 0, let position = try? begin(key) else {
      encoder.state.pointee.gaveUp = true
      return 0
    }
    return encoder.openFrame(isObject: isObject, path: path(position, key))
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(key: JSONKey(stringValue: "super"))
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(key: key)
  }

  /// An encoder for the member at `key`, begun here: a single pass goes on while the caller
  /// writes the member before anything else (``JSONStreamSlotEncoder``).
  private func superEncoder(key: some CodingKey) -> any Encoder {
    guard frame != 0, let position = try? encoder.beginMember(of: frame, key: key) else {
      encoder.state.pointee.gaveUp = true
      return encoder
    }
    return JSONStreamSlotEncoder(
      encoder: encoder, parentID: frame, memberKey: key.stringValue,
      path: JSONLazyPath(parent: encoder.framePath(position), key: key))
  }
}

/// The unkeyed container of ``JSONStreamValueEncoder``: appends elements to one open array.
struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: JSONStreamValueEncoder
  /// The array's frame; `0` when the stream gave up making it.
  let frame: Int

  init(encoder: JSONStreamValueEncoder, frame: Int) {
    self.encoder = encoder
    self.frame = frame
  }

  var codingPath: [any CodingKey] {
    guard let position = encoder.position(of: frame) else { return [] }
    return encoder.state.pointee.framePaths[position].path.path.keys
  }

  /// The elements written so far (what the tree's array holds).
  var count: Int {
    guard let position = encoder.position(of: frame) else {
      encoder.state.pointee.gaveUp = true
      return 0
    }
    return encoder.state.pointee.frames[position].count
  }

  /// Starts the next element; returns its frame's position and its index.
  @inline(__always)
  @discardableResult
  private func begin() throws -> (position: Int, index: Int) {
    guard frame != 0 else { throw encoder.giveUp() }
    return try encoder.beginElement(of: frame)
  }

  /// The path of the element `index` of the frame at `position`.
  private func path(_ element: (position: Int, index: Int)) -> JSONLazyPath {
    JSONLazyPath(
      parent: encoder.framePath(element.position), key: JSONIndexKey(index: element.index))
  }

  mutating func encodeNil() throws {
    try begin()
    encoder.appendLiteral("null")
  }
  mutating func encode(_ value: Bool) throws {
    try begin()
    encoder.appendLiteral(value ? "true" : "false")
  }
  mutating func encode(_ value: String) throws {
    try begin()
    JSONWriter.appendString(value, to: &encoder.state.pointee.output)
  }
  mutating func encode(_ value: Double) throws {
    let element = try begin()
    try encoder.appendFloatingPoint(value) { path(element) }
  }
  mutating func encode(_ value: Float) throws {
    let element = try begin()
    try encoder.appendFloatingPoint(value) { path(element) }
  }
  mutating func encode(_ value: Int) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int8) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int16) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int32) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: Int64) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt8) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt16) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt32) throws {
    try begin()
    encoder.appendInteger(value)
  }
  mutating func encode(_ value: UInt64) throws {
    try begin()
    encoder.appendInteger(value)
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let element = try begin()
    try encoder.writeValue(value, in: element.position, key: JSONIndexKey(index: element.index))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      JSONStreamKeyedContainer<NestedKey>(encoder: encoder, frame: nested(isObject: true)))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    JSONStreamUnkeyedContainer(encoder: encoder, frame: nested(isObject: false))
  }

  /// Opens a container as the next element; `0` when the stream gave up.
  private func nested(isObject: Bool) -> Int {
    guard frame != 0, let element = try? begin() else {
      encoder.state.pointee.gaveUp = true
      return 0
    }
    return encoder.openFrame(isObject: isObject, path: path(element))
  }

  mutating func superEncoder() -> any Encoder {
    guard frame != 0, let element = try? begin() else {
      encoder.state.pointee.gaveUp = true
      return encoder
    }
    return JSONStreamSlotEncoder(
      encoder: encoder, parentID: frame, memberKey: String(element.index), path: path(element))
  }
}

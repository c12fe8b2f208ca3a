/// The keyed container of ``JSONEncoderImpl``: writes members into a ``JSONObjectBuilder``.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: JSONEncoderImpl
  let object: JSONObjectBuilder
  let path: CodingPath

  var codingPath: [any CodingKey] { path.keys }

  mutating func encodeNil(forKey key: Key) { object.set(.null, forKey: key.stringValue) }
  mutating func encode(_ value: Bool, forKey key: Key) {
    object.set(.bool(value), forKey: key.stringValue)
  }
  mutating func encode(_ value: String, forKey key: Key) {
    object.set(.string(value), forKey: key.stringValue)
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    object.set(try JSONScalars.number(value, parent: path, key: key), forKey: key.stringValue)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    object.set(try JSONScalars.number(value, parent: path, key: key), forKey: key.stringValue)
  }
  mutating func encode(_ value: Int, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) { setInteger(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) { setInteger(value, key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    let encoded = try encoder.encodeChild(value, parent: path, key: key)
    object.set(encoded, forKey: key.stringValue)
  }

  private func setInteger<T: FixedWidthInteger>(_ value: T, _ key: Key) {
    object.set(JSONScalars.number(value), forKey: key.stringValue)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type,
    forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested = object.nestedObject(forKey: key.stringValue)
    return KeyedEncodingContainer(
      JSONKeyedEncodingContainer<NestedKey>(
        encoder: encoder, object: nested, path: path.appending(key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested = object.nestedArray(forKey: key.stringValue)
    return JSONUnkeyedEncodingContainer(encoder: encoder, array: nested, path: path.appending(key))
  }

  mutating func superEncoder() -> any Encoder {
    makeSuperEncoder(key: JSONKey.superclass)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    makeSuperEncoder(key: key)
  }

  private func makeSuperEncoder(key: any CodingKey) -> any Encoder {
    let superEncoder = encoder.makeSuperEncoder(at: path.appending(key))
    object.setPending(.encoder(superEncoder), forKey: key.stringValue)
    return superEncoder
  }
}

/// The unkeyed container of ``JSONEncoderImpl``: appends elements to a ``JSONArrayBuilder``.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
  let encoder: JSONEncoderImpl
  let array: JSONArrayBuilder
  let path: CodingPath

  var codingPath: [any CodingKey] { path.keys }
  var count: Int { array.count }

  mutating func encodeNil() { array.append(.null) }
  mutating func encode(_ value: Bool) { array.append(.bool(value)) }
  mutating func encode(_ value: String) { array.append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    array.append(try JSONScalars.number(value, parent: path, key: JSONIndexKey(index: count)))
  }
  mutating func encode(_ value: Float) throws {
    array.append(try JSONScalars.number(value, parent: path, key: JSONIndexKey(index: count)))
  }
  mutating func encode(_ value: Int) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: Int8) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: Int16) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: Int32) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: Int64) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: UInt) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: UInt8) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: UInt16) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: UInt32) { array.append(JSONScalars.number(value)) }
  mutating func encode(_ value: UInt64) { array.append(JSONScalars.number(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    array.append(try encoder.encodeChild(value, parent: path, key: JSONIndexKey(index: count)))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let nestedPath = path.appending(index: count)
    let nested = JSONObjectBuilder()
    array.appendPending(.object(nested))
    return KeyedEncodingContainer(
      JSONKeyedEncodingContainer<NestedKey>(encoder: encoder, object: nested, path: nestedPath))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nestedPath = path.appending(index: count)
    let nested = JSONArrayBuilder()
    array.appendPending(.array(nested))
    return JSONUnkeyedEncodingContainer(encoder: encoder, array: nested, path: nestedPath)
  }

  mutating func superEncoder() -> any Encoder {
    let superEncoder = encoder.makeSuperEncoder(at: path.appending(index: count))
    array.appendPending(.encoder(superEncoder))
    return superEncoder
  }
}

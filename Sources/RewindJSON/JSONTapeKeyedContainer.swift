/// The keyed container of ``JSONTapeDecoder``: finds members by comparing each key's bytes with
/// the coding key's UTF-8 (keys compare as Swift strings), or, in a large object, through an
/// index of its keys.
///
/// The members of a lazy object (``JSONTapeEntry/isLazy``) are not on the tape: each is found in
/// the text when asked for and its value read into a document of its own (``JSONLazyObject``).
struct JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: JSONTapeDecoder
  let object: Int
  let lazyPath: JSONLazyPath
  /// The value index of each key by the key's hash (as a Swift string), for objects with at
  /// least ``JSONTape/linearKeySearchLimit`` members (a dictionary decoded by key would otherwise
  /// be quadratic). Hashes, not keys: 16 bytes a member, where a `String` key would add its own.
  private let keyIndex: [UInt64: Int]?
  /// A lazy object's members; `nil` when they are on the tape.
  private let lazy: JSONLazyObject?

  init(decoder: JSONTapeDecoder, object: Int, path: JSONLazyPath) {
    self.decoder = decoder
    self.object = object
    self.lazyPath = path
    let entry = decoder.tape[object]
    if entry.isLazy {
      lazy = JSONLazyObject(
        bytes: decoder.bytes, start: entry.start, options: decoder.options,
        lazyContainerEntries: decoder.lazyContainerEntries)
      keyIndex = nil
    } else {
      lazy = nil
      let count = Int(entry.count)
      keyIndex = count >= JSONTape.linearKeySearchLimit ? Self.index(of: object, in: decoder) : nil
    }
  }

  /// The value index of each member of the object at `object`, by the key's hash (the first
  /// member with that hash, when two keys share one).
  private static func index(of object: Int, in decoder: JSONTapeDecoder) -> [UInt64: Int] {
    let tape = decoder.tape
    let count = Int(tape[object].count)
    var keys = [UInt64: Int](minimumCapacity: count)
    var index = object + 1
    for _ in 0..<count {
      let hash = JSONTape.keyHash(JSONTape.string(tape[index], in: decoder.bytes))
      if keys[hash] == nil { keys[hash] = index + 1 }
      index = tape[index + 1].next
    }
    return keys
  }

  var codingPath: [any CodingKey] { lazyPath.path.keys }

  /// The container's path, for errors and children (built only when asked for).
  private var path: CodingPath { lazyPath.path }

  /// Where the member at `key` reports errors.
  @inline(__always)
  private func at(_ key: Key) -> JSONErrorPath { JSONErrorPath(parent: lazyPath, key: key) }

  var allKeys: [Key] {
    if let lazy { return lazy.keys().compactMap { Key(stringValue: $0) } }
    let count = Int(decoder.tape[object].count)
    // An object of one member, as an enum's value is: its keys were likely made before.
    guard count == 1, !decoder.tape[object + 1].isEscaped else { return makeAllKeys(count) }
    let key = decoder.tape[object + 1]
    let name = UnsafeRawBufferPointer(rebasing: decoder.bytes[(key.start + 1)..<(key.end - 1)])
    if let cached = decoder.onlyKeys.keys(Key.self, name: name) { return cached }
    let keys = makeAllKeys(count)
    decoder.onlyKeys.insert(keys, name: name)
    return keys
  }

  /// The keys of the object's `count` members that `Key` has.
  private func makeAllKeys(_ count: Int) -> [Key] {
    var keys: [Key] = []
    keys.reserveCapacity(count)
    var index = object + 1
    for _ in 0..<count {
      if let key = Key(stringValue: JSONTape.string(decoder.tape[index], in: decoder.bytes)) {
        keys.append(key)
      }
      index = decoder.tape[index + 1].next
    }
    return keys
  }

  func contains(_ key: Key) -> Bool {
    if let lazy { return lazy.member(named: key.stringValue) != nil }
    return find(key) != nil
  }

  /// The tape index of the value of the member named like `key`, or `nil`.
  @inline(__always)
  private func find(_ key: Key) -> Int? {
    if let keyIndex {
      let name = key.stringValue
      guard let candidate = keyIndex[JSONTape.keyHash(name)] else { return nil }
      if JSONTape.string(decoder.tape[candidate - 1], in: decoder.bytes) == name {
        return candidate
      }
      // Another key has the same hash: look through them all.
      return search(name)
    }
    return search(key.stringValue)
  }

  /// The tape index of the value of the member named `name`, found by comparing every key.
  private func search(_ name: String) -> Int? {
    let tape = decoder.tape
    let count = Int(tape[object].count)
    guard count > 0 else { return nil }
    var name = name
    return name.withUTF8 { name -> Int? in
      var index = object + 1
      for _ in 0..<count {
        if matches(tape[index], name) { return index + 1 }
        index = tape[index + 1].next
      }
      return nil
    }
  }

  /// Whether a key entry equals `name` as a Swift string.
  @inline(__always)
  private func matches(_ entry: JSONTapeEntry, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    let bytes = decoder.bytes
    if entry.isASCII && !entry.isEscaped {
      // Byte equality is string equality when both sides are ASCII; a non-ASCII name may still
      // equal an ASCII key (U+212A KELVIN SIGN is canonically "K"), so it is compared as a string.
      let start = entry.start + 1
      let length = entry.end - 1 - start
      var isASCII = true
      for byte in name where byte >= 0x80 {
        isASCII = false
        break
      }
      if isASCII {
        guard name.count == length else { return false }
        for k in 0..<length where bytes[start + k] != name[k] { return false }
        return true
      }
    }
    return JSONTape.string(entry, in: bytes) == String(decoding: name, as: UTF8.self)
  }

  private func value(for key: Key) throws -> Int {
    guard let index = find(key) else { throw keyNotFound(key) }
    return index
  }

  private func keyNotFound(_ key: Key) -> DecodingError {
    .keyNotFound(
      key, DecodingError.Context(codingPath: path.keys, debugDescription: "key not found"))
  }

  /// The member's index, or `nil` when the key is missing or its value is `null`.
  private func presentValue(for key: Key) -> Int? {
    guard let index = find(key), decoder.tape[index].kind != .null else { return nil }
    return index
  }

  /// Reads the member at `key` with `read`, given the decoder that holds it and its index there:
  /// this container's decoder, or, in a lazy object, the decoder of the value's own document
  /// (`kept`: one the caller may use after the next member is read).
  @inline(__always)
  private func reading<T>(
    _ key: Key, kept: Bool = false, _ read: (JSONTapeDecoder, Int) throws -> T
  ) throws -> T {
    guard let lazy else { return try read(decoder, value(for: key)) }
    guard let member = lazy.member(named: key.stringValue) else { throw keyNotFound(key) }
    return try read(
      lazy.values.read(decoder.bytes, at: member.valueStart, kept: kept, path: at(key)), 0)
  }

  /// As ``reading(_:kept:_:)``, or `nil` when the key is missing or its value is `null`.
  @inline(__always)
  private func readingIfPresent<T>(
    _ key: Key, _ read: (JSONTapeDecoder, Int) throws -> T
  ) throws -> T? {
    guard let lazy else { return try presentValue(for: key).map { try read(decoder, $0) } }
    guard let member = lazy.member(named: key.stringValue),
      decoder.bytes[member.valueStart] != UInt8(ascii: "n")
    else { return nil }
    return try read(
      lazy.values.read(decoder.bytes, at: member.valueStart, kept: false, path: at(key)), 0)
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let lazy else { return decoder.tape[try value(for: key)].kind == .null }
    // The value's first byte says it; a large value need not be read for that.
    guard let member = lazy.member(named: key.stringValue) else { throw keyNotFound(key) }
    return decoder.bytes[member.valueStart] == UInt8(ascii: "n")
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try reading(key) { try $0.bool(at: $1, at(key)) }
  }
  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try reading(key) { try $0.string(at: $1, at(key)) }
  }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try reading(key) { try $0.double(at: $1, at(key)) }
  }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try reading(key) { try $0.unboxed(at: $1, at(key), JSONUnbox.float) }
  }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try reading(key) { try $0.integer(Int.self, at: $1, at(key)) }
  }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try reading(key) { try $0.integer(Int8.self, at: $1, at(key)) }
  }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try reading(key) { try $0.integer(Int16.self, at: $1, at(key)) }
  }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try reading(key) { try $0.integer(Int32.self, at: $1, at(key)) }
  }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try reading(key) { try $0.integer(Int64.self, at: $1, at(key)) }
  }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try reading(key) { try $0.integer(UInt.self, at: $1, at(key)) }
  }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try reading(key) { try $0.integer(UInt8.self, at: $1, at(key)) }
  }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try reading(key) { try $0.integer(UInt16.self, at: $1, at(key)) }
  }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try reading(key) { try $0.integer(UInt32.self, at: $1, at(key)) }
  }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try reading(key) { try $0.integer(UInt64.self, at: $1, at(key)) }
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try reading(key) { try $0.decodeChild(type, at: $1, parent: at(key)) }
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try readingIfPresent(key) { try $0.bool(at: $1, at(key)) }
  }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try readingIfPresent(key) { try $0.string(at: $1, at(key)) }
  }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try readingIfPresent(key) { try $0.double(at: $1, at(key)) }
  }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try readingIfPresent(key) { try $0.integer(Int.self, at: $1, at(key)) }
  }
  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try readingIfPresent(key) { try $0.decodeChild(type, at: $1, parent: at(key)) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type,
    forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try reading(key, kept: true) {
      try $0.keyedContainer(type, at: $1, path: JSONLazyPath(parent: path, key: key))
    }
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try reading(key, kept: true) {
      try $0.unkeyedContainer(at: $1, path: JSONLazyPath(parent: path, key: key))
    }
  }

  /// A decoder for the member `super`, or for `null` when there is none, as with Foundation.
  func superDecoder() throws -> any Decoder {
    superDecoder(named: JSONKey.superclass.stringValue, path: path.appending(JSONKey.superclass))
  }

  /// A decoder for the member at `key`, or for `null` when there is none, as with Foundation.
  func superDecoder(forKey key: Key) throws -> any Decoder {
    // On the tape, through the keys' index of a large object, as every other lookup by key.
    guard lazy != nil else {
      return decoder.makeSuperDecoder(at: find(key), path: path.appending(key))
    }
    return superDecoder(named: key.stringValue, path: path.appending(key))
  }

  private func superDecoder(named name: String, path: CodingPath) -> any Decoder {
    guard let lazy else { return decoder.makeSuperDecoder(at: find(name: name), path: path) }
    let text = lazy.member(named: name).map { member in
      UnsafeRawBufferPointer(
        rebasing: decoder.bytes[
          member.valueStart..<JSONScan.valueEnd(in: decoder.bytes, at: member.valueStart)])
    }
    return decoder.makeSuperDecoder(text: text, path: path)
  }

  /// The tape index of the value of the member named `name`, or `nil`.
  private func find(name: String) -> Int? {
    var index = object + 1
    for _ in 0..<Int(decoder.tape[object].count) {
      if JSONTape.string(decoder.tape[index], in: decoder.bytes) == name { return index + 1 }
      index = decoder.tape[index + 1].next
    }
    return nil
  }
}

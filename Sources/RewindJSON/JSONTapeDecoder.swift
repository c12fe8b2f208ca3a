import Foundation

/// The `Decoder` behind ``RewindJSONDecoder``: it reads values straight from a ``JSONTapeEntry``
/// tape and its bytes, without building a ``JSONValue`` tree: keys are matched against the
/// bytes, strings and numbers are converted from them.
///
/// One instance decodes a whole value: going into a child saves the current position and path,
/// decodes it and restores them. Valid only while its tape and bytes are.
final class JSONTapeDecoder: Decoder, SingleValueDecodingContainer {
  /// What the decoder reads and where it is.
  struct State {
    var bytes: UnsafeRawBufferPointer
    var tape: UnsafeBufferPointer<JSONTapeEntry>
    /// The value being decoded.
    var index: Int
    /// Its coding path.
    var path: JSONLazyPath
  }

  // Behind a pointer held in a `let`: reading and writing it costs no exclusivity check, which
  // a `var` of a class would at every access.
  private let state: UnsafeMutablePointer<State>
  let options: [CodingUserInfoKey: any Sendable]
  /// How many entries a lazy container's values read from the text may take before they are
  /// lazy in turn: the document's own setting (``JSONTapeDocument/init(limits:userInfo:lazyContainerEntries:)``).
  let lazyContainerEntries: Int

  init(
    options: [CodingUserInfoKey: any Sendable],
    lazyContainerEntries: Int = JSONTape.lazyContainerEntries
  ) {
    self.options = options
    self.lazyContainerEntries = lazyContainerEntries
    state = UnsafeMutablePointer<State>.allocate(capacity: 1)
    state.initialize(
      to: State(
        bytes: UnsafeRawBufferPointer(start: nil, count: 0),
        tape: UnsafeBufferPointer(start: nil, count: 0), index: 0,
        path: JSONLazyPath(parent: .root, key: nil)))
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  /// Points the decoder at another document; the bytes and the tape must stay valid while it
  /// decodes.
  func reset(bytes: UnsafeRawBufferPointer, tape: UnsafeBufferPointer<JSONTapeEntry>) {
    state.pointee.bytes = bytes
    state.pointee.tape = tape
    state.pointee.index = 0
    state.pointee.path = JSONLazyPath(parent: .root, key: nil)
  }

  /// Sets the coding path of the top-level value.
  func setRootPath(_ path: CodingPath) {
    state.pointee.path = JSONLazyPath(parent: path, key: nil)
  }

  @inline(__always) var bytes: UnsafeRawBufferPointer { state.pointee.bytes }
  @inline(__always) var tape: UnsafeBufferPointer<JSONTapeEntry> { state.pointee.tape }
  @inline(__always) private var index: Int { state.pointee.index }
  @inline(__always) private var path: JSONLazyPath { state.pointee.path }
  /// Where a value at this decoder's position reports errors: the value's own path.
  @inline(__always) private var here: JSONErrorPath {
    JSONErrorPath(parent: JSONLazyPath(parent: path.parent, key: nil), key: path.key)
  }

  var codingPath: [any CodingKey] { path.path.keys }
  var userInfo: [CodingUserInfoKey: Any] { options }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try keyedContainer(Key.self, at: index, path: path)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try unkeyedContainer(at: index, path: path)
  }

  func singleValueContainer() -> any SingleValueDecodingContainer {
    self
  }

  // MARK: Containers and children

  /// A keyed container over the value at `index`, whose path is `path`.
  /// - Throws: `typeMismatch` unless it is an object (`valueNotFound` for `null`).
  @inline(__always)
  func keyedContainer<Key: CodingKey>(
    _ type: Key.Type, at index: Int, path: JSONLazyPath
  ) throws -> KeyedDecodingContainer<Key> {
    guard tape[index].kind == .object else {
      throw JSONUnbox.mismatch(
        [String: Any].self, expected: "object", found: tape[index].placeholder,
        parent: path.parent, key: path.key)
    }
    return KeyedDecodingContainer(
      JSONTapeKeyedContainer<Key>(decoder: self, object: index, path: path))
  }

  /// An unkeyed container over the value at `index`, whose path is `path`.
  /// - Throws: `typeMismatch` unless it is an array (`valueNotFound` for `null`).
  func unkeyedContainer(at index: Int, path: JSONLazyPath) throws -> any UnkeyedDecodingContainer {
    guard tape[index].kind == .array else {
      throw JSONUnbox.mismatch(
        [Any].self, expected: "array", found: tape[index].placeholder, parent: path.parent,
        key: path.key)
    }
    return JSONTapeUnkeyedContainer(decoder: self, array: index, path: path.path)
  }

  /// Decodes a child value at `index`, found at `parent` + `key`.
  func decodeChild<T: Decodable>(
    _ type: T.Type, at index: Int, parent: JSONErrorPath
  ) throws -> T {
    // The common scalars straight from the bytes, without a conformance check.
    if T.self == String.self {
      return unsafeBitCast(try string(at: index, parent), to: T.self)
    }
    if T.self == Int.self {
      return unsafeBitCast(try integer(Int.self, at: index, parent), to: T.self)
    }
    if T.self == Bool.self {
      return unsafeBitCast(try bool(at: index, parent), to: T.self)
    }
    if T.self == Double.self {
      return unsafeBitCast(try double(at: index, parent), to: T.self)
    }
    let parentPath = parent.parent.path
    if JSONShortcutTypes.isShortcut(T.self) {
      return try decodeShortcut(type, at: index, parent: parentPath, key: parent.key)
    }
    let saved = state.pointee
    state.pointee.index = index
    state.pointee.path = JSONLazyPath(parent: parentPath, key: parent.key)
    defer {
      state.pointee.index = saved.index
      state.pointee.path = saved.path
    }
    return try T(from: self)
  }

  /// A type with a ``JSONDecodingShortcut``, through it.
  /// Kept out of ``decodeChild(_:at:parent:)`` so that its `T?` costs nothing there.
  @inline(never)
  private func decodeShortcut<T: Decodable>(
    _ type: T.Type, at index: Int, parent: CodingPath, key: (any CodingKey)?
  ) throws -> T {
    if let shortcut = T.self as? any JSONDecodingShortcut.Type,
      let decoded = try shortcut.decodeJSON(
        from: JSONTape.value(tape[index], in: bytes), parent: parent, key: key) as? T
    {
      return decoded
    }
    let saved = state.pointee
    state.pointee.index = index
    state.pointee.path = JSONLazyPath(parent: parent, key: key)
    defer {
      state.pointee.index = saved.index
      state.pointee.path = saved.path
    }
    return try T(from: self)
  }

  // MARK: Scalars

  func bool(at index: Int, _ parent: JSONErrorPath) throws -> Bool {
    switch tape[index].kind {
    case .isTrue: return true
    case .isFalse: return false
    default:
      throw JSONUnbox.mismatch(
        Bool.self, expected: "Bool", found: tape[index].placeholder, parent: parent.parent.path,
        key: parent.key)
    }
  }

  func string(at index: Int, _ parent: JSONErrorPath) throws -> String {
    let entry = tape[index]
    guard entry.kind == .string else {
      throw JSONUnbox.mismatch(
        String.self, expected: "String", found: entry.placeholder, parent: parent.parent.path,
        key: parent.key)
    }
    return JSONTape.string(entry, in: bytes)
  }

  func integer<T: FixedWidthInteger>(
    _ type: T.Type, at index: Int, _ parent: JSONErrorPath
  ) throws -> T {
    let entry = tape[index]
    guard entry.kind == .number else {
      throw JSONUnbox.mismatch(
        T.self, expected: "\(T.self)", found: entry.placeholder, parent: parent.parent.path,
        key: parent.key)
    }
    let text = UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end])
      .assumingMemoryBound(to: UInt8.self)
    do {
      return try JSONNumberText.integer(utf8: text, as: T.self)
    } catch {
      // The same error as the `JSONValue` path, from the same text.
      return try JSONUnbox.integer(
        .number(String(decoding: text, as: UTF8.self)), as: T.self, parent: parent.parent.path,
        key: parent.key)
    }
  }

  func double(at index: Int, _ parent: JSONErrorPath) throws -> Double {
    let entry = tape[index]
    guard entry.kind == .number else {
      throw JSONUnbox.mismatch(
        Double.self, expected: "Double", found: entry.placeholder, parent: parent.parent.path,
        key: parent.key)
    }
    let text = UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end])
      .assumingMemoryBound(to: UInt8.self)
    do {
      return try JSONNumberText.double(utf8: text)
    } catch {
      return try JSONUnbox.double(
        .number(String(decoding: text, as: UTF8.self)), parent: parent.parent.path,
        key: parent.key)
    }
  }

  /// Any other scalar, through the `JSONValue` conversions of ``JSONUnbox``.
  func unboxed<T>(
    at index: Int, _ parent: JSONErrorPath,
    _ unbox: (JSONValue, CodingPath, (any CodingKey)?) throws -> T
  ) throws -> T {
    try unbox(JSONTape.value(tape[index], in: bytes), parent.parent.path, parent.key)
  }

  /// A decoder over the value at `index` (or `null` when `nil`) that a caller may keep, for
  /// `superDecoder()`: it reads its own copy of the value's bytes, so it stays valid after this
  /// decoder's document is gone.
  func makeSuperDecoder(at index: Int?, path: CodingPath) -> any Decoder {
    makeSuperDecoder(
      text: index.map { UnsafeRawBufferPointer(rebasing: bytes[tape[$0].start..<tape[$0].end]) },
      path: path)
  }

  /// As ``makeSuperDecoder(at:path:)``, over the value whose text is `text`.
  func makeSuperDecoder(text: UnsafeRawBufferPointer?, path: CodingPath) -> any Decoder {
    guard let text else {
      return JSONTapeDecoder.nullText.withUTF8Buffer {
        JSONKeptDocument.decoder(copying: UnsafeRawBufferPointer($0), path: path, options: options)
      }
    }
    return JSONKeptDocument.decoder(copying: text, path: path, options: options)
  }

  private static let nullText: StaticString = "null"

  /// Keeps whatever the bytes and tape it reads belong to alive as long as it is.
  var owner: AnyObject?

  /// The `allKeys` of one-member objects decoded before, kept from one document to the next.
  let onlyKeys = JSONOnlyKeyCache()

  // MARK: SingleValueDecodingContainer

  func decodeNil() -> Bool { tape[index].kind == .null }

  func decode(_ type: Bool.Type) throws -> Bool {
    try bool(at: index, here)
  }
  func decode(_ type: String.Type) throws -> String {
    try string(at: index, here)
  }
  func decode(_ type: Double.Type) throws -> Double {
    try double(at: index, here)
  }
  func decode(_ type: Float.Type) throws -> Float {
    try unboxed(at: index, here, JSONUnbox.float)
  }
  func decode(_ type: Int.Type) throws -> Int {
    try integer(Int.self, at: index, here)
  }
  func decode(_ type: Int8.Type) throws -> Int8 {
    try integer(Int8.self, at: index, here)
  }
  func decode(_ type: Int16.Type) throws -> Int16 {
    try integer(Int16.self, at: index, here)
  }
  func decode(_ type: Int32.Type) throws -> Int32 {
    try integer(Int32.self, at: index, here)
  }
  func decode(_ type: Int64.Type) throws -> Int64 {
    try integer(Int64.self, at: index, here)
  }
  func decode(_ type: UInt.Type) throws -> UInt {
    try integer(UInt.self, at: index, here)
  }
  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try integer(UInt8.self, at: index, here)
  }
  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try integer(UInt16.self, at: index, here)
  }
  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try integer(UInt32.self, at: index, here)
  }
  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try integer(UInt64.self, at: index, here)
  }
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try decodeChild(type, at: index, parent: here)
  }
}

/// A coding path kept as its parent and last key, so that a container one level down costs no
/// allocation until its path is needed (for an error, or a container below it).
struct JSONLazyPath {
  var parent: CodingPath
  var key: (any CodingKey)?

  /// The path itself.
  var path: CodingPath { parent.appending(key) }
}

/// Where a value is, for its errors: the path of its container, and its key in it.
struct JSONErrorPath {
  var parent: JSONLazyPath
  var key: (any CodingKey)?
}

/// The types that have a ``JSONDecodingShortcut``, by identity: checked before the (much slower)
/// conformance cast, which every other type would otherwise pay for on each value.
enum JSONShortcutTypes {
  private static let identifiers: Set<ObjectIdentifier> = [
    ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self),
    ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self),
    ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self), ObjectIdentifier(UInt64.self),
    ObjectIdentifier(Float.self), ObjectIdentifier(JSONValue.self), ObjectIdentifier(Date.self),
    ObjectIdentifier(Data.self), ObjectIdentifier(URL.self), ObjectIdentifier(Decimal.self),
  ]

  @inline(__always)
  static func isShortcut(_ type: Any.Type) -> Bool {
    identifiers.contains(ObjectIdentifier(type))
  }
}

/// Its own copy of some JSON text and the tape read from it, for a decoder a caller may keep
/// (`superDecoder()`): the decoder holds it, so the copy lives as long as the decoder does.
private final class JSONKeptDocument {
  private let bytes: UnsafeMutableRawBufferPointer
  private let document: JSONTapeDocument

  /// A decoder over a copy of `text` (one value, checked already), whose coding path starts at
  /// `path`.
  static func decoder(
    copying text: UnsafeRawBufferPointer, path: CodingPath,
    options: [CodingUserInfoKey: any Sendable]
  ) -> JSONTapeDecoder {
    let kept = JSONKeptDocument(copying: text, options: options)
    let decoder = JSONTapeDecoder(options: options)
    decoder.reset(
      bytes: UnsafeRawBufferPointer(rebasing: kept.bytes[..<text.count]),
      tape: kept.document.tape)
    decoder.setRootPath(path)
    decoder.owner = kept
    return decoder
  }

  private init(copying text: UnsafeRawBufferPointer, options: [CodingUserInfoKey: any Sendable]) {
    bytes = .allocate(byteCount: max(text.count, 1), alignment: 1)
    bytes.copyMemory(from: text)
    document = JSONTapeDocument(limits: .unlimited, userInfo: options)
    // The text was read into a tape once already, so it loads again.
    _ = document.load(UnsafeRawBufferPointer(rebasing: bytes[..<text.count]))
  }

  deinit { bytes.deallocate() }
}

/// Reads JSON documents, one after another, into one reusable tape, and decodes `Decodable`
/// values straight from their bytes: the decoder under ``RewindJSONDecoder`` and under the log
/// reader's replay loop.
///
/// Loading accepts exactly what ``JSONParser`` accepts. When ``load(_:)`` returns `false`, the
/// text is invalid: ``JSONParser`` says where and why.
///
/// ```swift
/// let document = JSONTapeDocument()
/// guard document.load(line), let action = document.member("action", of: document.root)
/// else { /* JSONParser.parse(line) for the error */ }
/// let value = try document.decode(Action.self, at: action)
/// ```
/// The bytes given to ``load(_:)`` must stay valid while the document is used.
package final class JSONTapeDocument {
  /// Everything that changes from one document to the next.
  private struct Storage {
    var tape = JSONTapeStorage()
    var scratch: [UInt8] = []
    var bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    var isCompact = false
    var decoder: JSONTapeDecoder?
    var generation = 0
    /// The tape index of each value of a lazy container read onto the tape
    /// (``appendedValue(at:)``), by the offset of its text.
    var appended: [Int: Int] = [:]
  }

  // Behind a pointer held in a `let`: reading and writing it costs no exclusivity check, which
  // a `var` of a class would at every access.
  private let storage: UnsafeMutablePointer<Storage>
  private let limits: JSONLimits
  /// What `init(from:)` implementations read through `decoder.userInfo`.
  package let userInfo: [CodingUserInfoKey: any Sendable]
  let lazyContainerEntries: Int

  /// Creates a reader.
  /// - Parameter lazyContainerEntries: How many entries an array's elements or an object's
  ///   members may take before it is read lazily (``JSONTapeEntry/isLazy``); `Int.max` for never.
  package init(
    limits: JSONLimits = .default, userInfo: [CodingUserInfoKey: any Sendable] = [:],
    lazyContainerEntries: Int = JSONTape.lazyContainerEntries
  ) {
    self.limits = limits
    self.userInfo = userInfo
    self.lazyContainerEntries = lazyContainerEntries
    storage = UnsafeMutablePointer<Storage>.allocate(capacity: 1)
    storage.initialize(to: Storage())
  }

  deinit {
    storage.pointee.tape.deallocate()
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  @inline(__always) var tape: UnsafeBufferPointer<JSONTapeEntry> {
    storage.pointee.tape.buffer
  }
  @inline(__always) var bytes: UnsafeRawBufferPointer { storage.pointee.bytes }
  /// Counts loads, so that a ``JSONDirectReader`` kept past the next one can tell.
  var generation: Int { storage.pointee.generation }

  /// Whether the loaded text is compact: no whitespace between tokens and only the escapes
  /// ``JSONWriter`` writes, so that every value's bytes are its ``JSONValue/serializedBytes``.
  package var isCompact: Bool { storage.pointee.isCompact }

  /// The top-level value of the loaded document.
  package var root: Int { 0 }

  /// Reads `bytes` as one JSON text.
  ///
  /// - Parameters:
  ///   - depth: How many containers the text is nested in, when it is a value inside a larger
  ///     document that the caller checks itself: the depth limit counts them.
  ///   - elements: How many values of that larger document count against the element limit.
  /// - Returns: `false` when the text is not valid JSON within the limits; nothing is loaded
  ///   then.
  /// - Complexity: O(*n*) in the length of `bytes`.
  package func load(
    _ bytes: UnsafeRawBufferPointer, depth: Int = 0, elements: Int = 0
  ) -> Bool {
    var limits = self.limits
    limits.maxDepth -= depth
    storage.pointee.generation &+= 1
    if !storage.pointee.appended.isEmpty { storage.pointee.appended.removeAll() }
    var reader = JSONReader(bytes: bytes, limits: limits)
    reader.elementCount = elements
    reader.lazyContainerEntries = lazyContainerEntries
    swap(&reader.scratch, &storage.pointee.scratch)
    let isLoose = try? reader.readTape(into: &storage.pointee.tape)
    swap(&reader.scratch, &storage.pointee.scratch)
    guard let isLoose else {
      storage.pointee.tape.removeAll()
      storage.pointee.bytes = UnsafeRawBufferPointer(start: nil, count: 0)
      return false
    }
    storage.pointee.tape.shrinkIfMostlyUnused()
    storage.pointee.bytes = bytes
    storage.pointee.isCompact = !isLoose
    return true
  }

  /// The value of the member named `name` of the object at `index`, or `nil` when it is not an
  /// object or has no such member (keys compare as Swift strings).
  ///
  /// The members of a lazy object (``JSONTapeEntry/isLazy``) are not on the tape: the member is
  /// found in the text and its value read onto the end of the tape, once, so that the index
  /// returned stays valid until the next ``load(_:depth:elements:)``. (A decoding in progress
  /// holds the tape as it was: call this before decoding, not from an `init(from:)`.)
  package func member(_ name: StaticString, of index: Int) -> Int? {
    let bytes = self.bytes
    let tape = self.tape
    let entry = tape[index]
    guard entry.kind == .object else { return nil }
    if entry.isLazy { return appendedMember(name, of: entry) }
    return name.withUTF8Buffer { name -> Int? in
      var key = index + 1
      for _ in 0..<Int(entry.count) {
        let keyEntry = tape[key]
        if keyEntry.isASCII && !keyEntry.isEscaped {
          if keyEntry.end &- keyEntry.start &- 2 == name.count
            && JSONReader.memcmpEqual(bytes, keyEntry.start &+ 1, name, name.count)
          {
            return key + 1
          }
        } else if JSONTape.string(keyEntry, in: bytes) == String(decoding: name, as: UTF8.self) {
          return key + 1
        }
        key = tape[key + 1].next
      }
      return nil
    }
  }

  /// The tape index of the value of the member named `name` of the lazy object `object`, read
  /// from the text onto the end of the tape (the first time it is asked for).
  private func appendedMember(_ name: StaticString, of object: JSONTapeEntry) -> Int? {
    let finder = JSONLazyObject(
      bytes: bytes, start: object.start, options: userInfo,
      lazyContainerEntries: lazyContainerEntries)
    return finder.member(named: name.description).flatMap { appendedValue(at: $0.valueStart) }
  }

  /// The tape index of the value whose text starts at `offset` — inside a lazy array or object,
  /// whose values are not on the tape — read from the text onto the end of the tape (once: it
  /// keeps its index until the next load).
  func appendedValue(at offset: Int) -> Int? {
    if let index = storage.pointee.appended[offset] { return index }
    let bytes = self.bytes
    let end = JSONScan.valueEnd(in: bytes, at: offset)
    var reader = JSONReader(
      bytes: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), limits: .unlimited)
    reader.lazyContainerEntries = lazyContainerEntries
    var value = JSONTapeStorage()
    defer { value.deallocate() }
    // The text was read before, as part of its container: it cannot fail now.
    guard (try? reader.readTape(into: &value)) != nil else { return nil }
    let base = storage.pointee.tape.count
    for var entry in value.buffer {
      entry.start += offset
      entry.end += offset
      entry.next += base
      storage.pointee.tape.append(entry)
    }
    storage.pointee.appended[offset] = base
    return base
  }

  /// The key of the object at `index` when it has exactly one member (an enum case as Codable
  /// writes it), else `nil`.
  package func onlyKey(of index: Int) -> String? {
    let entry = tape[index]
    guard entry.kind == .object, entry.count == 1 else { return nil }
    return JSONTape.string(tape[index + 1], in: bytes)
  }

  /// The string at `index`, or `nil` when the value there is not a string.
  package func string(at index: Int) -> String? {
    let entry = tape[index]
    guard entry.kind == .string else { return nil }
    return JSONTape.string(entry, in: bytes)
  }

  /// Whether the value at `index` is `true`.
  package func isTrue(at index: Int) -> Bool { tape[index].kind == .isTrue }

  /// The JSON text of the value at `index`, as it appears in the loaded bytes.
  package func text(at index: Int) -> UnsafeRawBufferPointer {
    let entry = tape[index]
    return UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end])
  }

  /// Where the JSON text of the value at `index` is in the loaded bytes.
  package func range(at index: Int) -> Range<Int> {
    let entry = tape[index]
    return entry.start..<entry.end
  }

  /// The value at `index` as a ``JSONValue``.
  package func value(at index: Int) -> JSONValue {
    JSONTape.value(tape[index], in: bytes)
  }

  /// Decodes a `T` from the value at `index` (the coding path starts at that value).
  ///
  /// - Throws: `DecodingError` when the value does not have the shape `T` expects, and any error
  ///   `T`'s `init(from:)` throws.
  package func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
    // One decoder serves every document, unless a decoded value kept the last one.
    let decoder: JSONTapeDecoder
    if isKnownUniquelyReferenced(&storage.pointee.decoder), let cached = storage.pointee.decoder {
      decoder = cached
    } else {
      decoder = JSONTapeDecoder(options: userInfo, lazyContainerEntries: lazyContainerEntries)
      storage.pointee.decoder = decoder
    }
    decoder.reset(bytes: bytes, tape: tape)
    return try decoder.decodeChild(
      type, at: index,
      parent: JSONErrorPath(parent: JSONLazyPath(parent: .root, key: nil), key: nil))
  }
}

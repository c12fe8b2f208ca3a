/// One JSON value of a log line, for ``JSONDirectDecodable/init(json:)``: read it as the type you
/// expect, or look into it.
///
/// Scalars convert as Rewind's decoder converts them for `init(from:)`. Every method throws
/// ``JSONDirectReaderError`` when the value is not what was asked for; the engine then decodes
/// with `init(from:)`, which gives Codable's own error. A reader is valid during the
/// `init(json:)` it was given to; kept longer, it throws.
public struct JSONDirectReader {
  private let position: TapePosition
  private var document: JSONTapeDocument { position.document }
  private var index: Int { position.index }

  init(document: JSONTapeDocument, index: Int) {
    position = TapePosition(document: document, index: index)
  }

  fileprivate init(position: TapePosition) {
    self.position = position
  }

  /// The tape entry of this value.
  @inline(__always)
  func entry() throws(JSONDirectReaderError) -> JSONTapeEntry {
    guard let entry = position.entry else { throw position.staleness }
    return entry
  }

  private func mismatch(_ expected: String, _ entry: JSONTapeEntry) -> JSONDirectReaderError {
    JSONDirectReaderError(
      reason: "expected \(expected), found a JSON \(entry.placeholder.kindName)",
      offset: entry.start)
  }

  /// Whether the value is `null`.
  public var isNull: Bool { (try? entry())?.kind == .null }

  /// The number of elements of an array or members of an object; 0 for anything else.
  public var count: Int {
    guard let entry = try? entry(), entry.kind == .array || entry.kind == .object else { return 0 }
    return Int(entry.count)
  }

  /// The value as a string.
  public func string() throws(JSONDirectReaderError) -> String {
    let entry = try entry()
    guard entry.kind == .string else { throw mismatch("a string", entry) }
    return JSONTape.string(entry, in: document.bytes)
  }

  /// The value as an `Int` (its own method: a call of the generic one from another module goes
  /// through witness tables).
  public func integer() throws(JSONDirectReaderError) -> Int {
    try integer(Int.self)
  }

  /// The value as an integer of type `T`.
  public func integer<T: FixedWidthInteger>(
    _ type: T.Type
  ) throws(JSONDirectReaderError) -> T {
    let entry = try entry()
    guard entry.kind == .number else { throw mismatch("a number", entry) }
    do {
      return try JSONNumberText.integer(utf8: text(of: entry), as: T.self)
    } catch {
      throw JSONDirectReaderError(reason: "not representable as \(T.self)", offset: entry.start)
    }
  }

  /// The value as a `Double`.
  public func double() throws(JSONDirectReaderError) -> Double {
    let entry = try entry()
    guard entry.kind == .number else { throw mismatch("a number", entry) }
    do {
      return try JSONNumberText.double(utf8: text(of: entry))
    } catch {
      throw JSONDirectReaderError(reason: "not a Double", offset: entry.start)
    }
  }

  /// The value as a `Bool`.
  public func bool() throws(JSONDirectReaderError) -> Bool {
    let entry = try entry()
    switch entry.kind {
    case .isTrue: return true
    case .isFalse: return false
    default: throw mismatch("true or false", entry)
    }
  }

  /// The member named `name` of this object, or `nil` when it has none (keys compare as Swift
  /// strings, as `CodingKey`s do).
  /// - Throws: When the value is not an object.
  public func member(_ name: StaticString) throws(JSONDirectReaderError) -> JSONDirectReader? {
    let entry = try entry()
    guard entry.kind == .object else { throw mismatch("an object", entry) }
    return document.member(name, of: index).map { JSONDirectReader(document: document, index: $0) }
  }

  /// The member named `name` of this object.
  /// - Throws: When the value is not an object or has no such member.
  public func required(_ name: StaticString) throws(JSONDirectReaderError) -> JSONDirectReader {
    guard let value = try member(name) else {
      throw JSONDirectReaderError(reason: "no member \"\(name)\"", offset: try entry().start)
    }
    return value
  }

  /// The key and value of this object's one member — the shape Codable gives an enum case.
  /// - Throws: When the value is not an object with exactly one member.
  public func onlyMember() throws(JSONDirectReaderError) -> (
    key: JSONDirectKey, value: JSONDirectReader
  ) {
    let entry = try entry()
    guard entry.kind == .object, entry.count == 1 else {
      throw mismatch("an object with one member", entry)
    }
    return (
      JSONDirectKey(document: document, index: index + 1),
      JSONDirectReader(document: document, index: index + 2)
    )
  }

  /// The elements of this array, in order, one reader at a time: each is valid until the next
  /// element is read (in `map`'s or a `for` loop's body), not past it.
  ///
  /// A long array (one whose elements take over a million tape entries, left in the text when
  /// the line was read) is read one element at a time from its text, so that however long it
  /// is, one element's entries are held at a time; the offsets of such an element's errors count
  /// from its first byte.
  /// - Throws: When the value is not an array.
  public func elements() throws(JSONDirectReaderError) -> JSONDirectElements {
    let entry = try entry()
    guard entry.kind == .array else { throw mismatch("an array", entry) }
    return JSONDirectElements(array: position, entry: entry)
  }

  /// The value as any `Decodable` type: through its ``JSONDirectDecodable/init(json:)`` when it
  /// has one, else through `init(from:)` with Rewind's decoder.
  public func decode<T: Decodable>(_ type: T.Type) throws -> T {
    _ = try entry()
    if let direct = T.self as? any JSONDirectDecodable.Type,
      let value = try direct.init(json: self) as? T
    {
      return value
    }
    return try document.decode(T.self, at: index)
  }

  private func text(of entry: JSONTapeEntry) -> UnsafeBufferPointer<UInt8> {
    UnsafeRawBufferPointer(rebasing: document.bytes[entry.start..<entry.end])
      .assumingMemoryBound(to: UInt8.self)
  }
}

/// A member's key, for ``JSONDirectReader/onlyMember()``.
public struct JSONDirectKey {
  private let position: TapePosition

  init(document: JSONTapeDocument, index: Int) {
    position = TapePosition(document: document, index: index)
  }

  /// Whether the key is `name` (compared as Swift strings, as `CodingKey`s are).
  public func matches(_ name: StaticString) -> Bool {
    guard let entry = position.entry else { return false }
    let bytes = position.document.bytes
    if entry.isASCII && !entry.isEscaped && name.hasPointerRepresentation {
      return name.withUTF8Buffer { name in
        entry.end &- entry.start &- 2 == name.count
          && JSONReader.memcmpEqual(bytes, entry.start &+ 1, name, name.count)
      }
    }
    return JSONTape.string(entry, in: bytes) == name.description
  }

  /// The key as a string.
  public var string: String {
    guard let entry = position.entry else { return "" }
    return JSONTape.string(entry, in: position.document.bytes)
  }
}

/// The elements of an array, for ``JSONDirectReader/elements()``: a reader for each, in order,
/// each valid until the next is read.
public struct JSONDirectElements: Sequence {
  private let array: TapePosition
  private let entry: JSONTapeEntry

  fileprivate init(array: TapePosition, entry: JSONTapeEntry) {
    self.array = array
    self.entry = entry
  }

  /// The number of elements.
  public var count: Int { Int(entry.count) }

  /// The number of elements (`map` sizes its result from it).
  public var underestimatedCount: Int { count }

  /// Reads the elements in order.
  public func makeIterator() -> Iterator { Iterator(array: array, entry: entry) }

  /// Reads the elements of an array in order: from the tape, or for a long array read lazily,
  /// one element's text at a time into a document of the iterator's own.
  public struct Iterator: IteratorProtocol {
    private let array: TapePosition
    private let remaining: Int
    private var read = 0
    /// The next element's tape index in the array's document (an array on the tape), or the
    /// offset of its first byte in the document's text (a lazy array).
    private var upcoming: Int
    /// The document each element of a lazy array is read into in turn.
    private let elementDocument: JSONTapeDocument?
    /// The place every reader left gives, once one could not be given a value.
    private var failed: TapePosition?

    fileprivate init(array: TapePosition, entry: JSONTapeEntry) {
      self.array = array
      remaining = Int(entry.count)
      if entry.isLazy {
        let document = array.document
        upcoming = JSONLazyValues.elementStart(in: document.bytes, after: entry.start + 1)
        elementDocument = JSONTapeDocument(
          limits: .unlimited, userInfo: document.userInfo,
          lazyContainerEntries: document.lazyContainerEntries)
      } else {
        upcoming = array.index + 1
        elementDocument = nil
      }
    }

    /// The next element's reader, or `nil` after the last: always as many readers as the array
    /// has elements (`map` counts on it), each one that cannot be read saying why when used.
    public mutating func next() -> JSONDirectReader? {
      guard read < remaining else { return nil }
      read += 1
      if let failed { return JSONDirectReader(position: failed) }
      guard array.entry != nil else {
        // The array's document moved on: its text may be gone. Every reader left says so.
        failed = array
        return JSONDirectReader(position: array)
      }
      let document = array.document
      guard let elementDocument else {
        let index = upcoming
        upcoming = document.tape[index].next
        return JSONDirectReader(document: document, index: index)
      }
      let bytes = document.bytes
      let start = upcoming
      let end = JSONScan.valueEnd(in: bytes, at: start)
      upcoming = JSONLazyValues.nextElement(in: bytes, after: start)
      guard elementDocument.load(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) else {
        let unread = TapePosition(unreadAt: start, in: elementDocument)
        failed = unread
        return JSONDirectReader(position: unread)
      }
      return JSONDirectReader(
        position: TapePosition(document: elementDocument, index: 0, elementOf: array))
    }
  }
}

/// A value's place on a document's tape, valid until the document loads another text — and,
/// for an element of a long array read into a document of its own, until the array's document
/// and the line's first document do too (an element's text is part of the line's).
private struct TapePosition {
  let document: JSONTapeDocument
  let generation: Int
  let index: Int
  /// The document of the array this is an element of, when that is another, and its generation.
  private let parent: JSONTapeDocument?
  private let parentGeneration: Int
  /// The line's first document, when that is another, and its generation.
  private let root: JSONTapeDocument?
  private let rootGeneration: Int

  init(document: JSONTapeDocument, index: Int) {
    self.document = document
    self.generation = document.generation
    self.index = index
    (parent, parentGeneration, root, rootGeneration) = (nil, 0, nil, 0)
  }

  /// The element at `index` of `document`, which holds an element of `array` read on its own.
  init(document: JSONTapeDocument, index: Int, elementOf array: TapePosition) {
    self.document = document
    self.generation = document.generation
    self.index = index
    (parent, parentGeneration) = (array.document, array.generation)
    if let arrayRoot = array.root {
      (root, rootGeneration) = (arrayRoot, array.rootGeneration)
    } else {
      (root, rootGeneration) = (array.document, array.generation)
    }
  }

  /// A place that is no value: an element of a long array at byte `offset` that did not read
  /// again from its text (which would be a bug: it was read before).
  init(unreadAt offset: Int, in document: JSONTapeDocument) {
    self.document = document
    self.generation = -1
    self.index = offset
    (parent, parentGeneration, root, rootGeneration) = (nil, 0, nil, 0)
  }

  /// The value's entry, or `nil` once a document it depends on has moved on.
  @inline(__always)
  var entry: JSONTapeEntry? {
    guard document.generation == generation, index < document.tape.count else { return nil }
    if let parent {
      guard parent.generation == parentGeneration, root?.generation == rootGeneration else {
        return nil
      }
    }
    return document.tape[index]
  }

  /// Why ``entry`` is `nil`.
  var staleness: JSONDirectReaderError {
    generation < 0
      ? JSONDirectReaderError(
        reason: "an element of a long array did not read again from its text; please report "
          + "this with the input", offset: index)
      : JSONDirectReaderError(
        reason: "the reader was kept past its init(json:) or past its array's next element",
        offset: 0)
  }
}

/// Why a ``JSONDirectReader`` could not read a value as asked.
public struct JSONDirectReaderError: Error, CustomStringConvertible {
  /// What went wrong.
  public var reason: String
  /// The byte offset of the value in the text that was read.
  public var offset: Int

  /// An error saying `reason` about the value at byte `offset`.
  public init(reason: String, offset: Int) {
    self.reason = reason
    self.offset = offset
  }

  /// The reason and the offset.
  public var description: String { "\(reason) at byte \(offset)" }
}

/// A parsed JSON document as a flat list of its values in document order, pointing into the
/// bytes it was read from: what ``JSONTapeDecoder`` decodes from without building a
/// ``JSONValue`` tree.
///
/// An object is its entry followed by its members, each a key string entry and the value's
/// entries; an array is its entry followed by its elements. Every entry knows where the next
/// value after it (and after everything inside it) starts, so skipping a value costs one step.
struct JSONTapeEntry {
  enum Kind: UInt8 {
    case null, isFalse, isTrue, number, string, array, object
  }

  // Sixteen bytes an entry (a document of two-byte values costs 8× its length in entries, not
  // 16×): offsets and indices as `UInt32`, which is why a tape holds a document of at most
  // `JSONLimits.byteCeiling` bytes; the kind, the string flags and a container's count share one word.
  /// Bits 0–2: the kind; bit 3: escaped; bit 4: not ASCII; bits 5–31: the count.
  private var word: UInt32
  private var start32: UInt32
  private var end32: UInt32
  private var next32: UInt32

  /// An entry of `kind` over `start..<end`, whose next value is entry `next`. The offsets must
  /// be at most `JSONLimits.byteCeiling` (a document has at most one entry per byte) and a
  /// count at most `JSONLimits.elementCeiling`: ``JSONReader/readTape(into:)`` checks both.
  @inline(__always)
  init(kind: Kind, start: Int, end: Int, next: Int) {
    word = UInt32(kind.rawValue)
    start32 = UInt32(truncatingIfNeeded: start)
    end32 = UInt32(truncatingIfNeeded: end)
    next32 = UInt32(truncatingIfNeeded: next)
  }

  var kind: Kind {
    @inline(__always) get { Kind(rawValue: UInt8(truncatingIfNeeded: word & 0b111)) ?? .null }
  }
  /// Strings: whether the text has a backslash escape.
  var isEscaped: Bool {
    @inline(__always) get { word & 0b1000 != 0 }
    @inline(__always) set { word = newValue ? word | 0b1000 : word & ~0b1000 }
  }
  /// Arrays: whether the tape holds no entries for the elements (a long array, decoded from its
  /// text one element at a time: ``JSONTape/lazyArrayEntries``). The bit of ``isEscaped``, which
  /// only strings have.
  var isLazy: Bool {
    @inline(__always) get { word & 0b1000 != 0 && kind == .array }
    @inline(__always) set { word = newValue ? word | 0b1000 : word & ~0b1000 }
  }
  /// Strings: whether every byte of the text is ASCII.
  var isASCII: Bool {
    @inline(__always) get { word & 0b1_0000 == 0 }
    @inline(__always) set { word = newValue ? word & ~0b1_0000 : word | 0b1_0000 }
  }
  /// Arrays and objects: the number of elements or members.
  var count: Int32 {
    @inline(__always) get { Int32(bitPattern: word >> 5) }
    @inline(__always) set { word = (word & 0b1_1111) | (UInt32(bitPattern: newValue) << 5) }
  }
  /// The offset of the value's first byte (a string's opening quote, a container's bracket).
  var start: Int {
    @inline(__always) get { Int(start32) }
    @inline(__always) set { start32 = UInt32(truncatingIfNeeded: newValue) }
  }
  /// The offset after the value's last byte.
  var end: Int {
    @inline(__always) get { Int(end32) }
    @inline(__always) set { end32 = UInt32(truncatingIfNeeded: newValue) }
  }
  /// The index of the entry after this value and everything inside it.
  var next: Int {
    @inline(__always) get { Int(next32) }
    @inline(__always) set { next32 = UInt32(truncatingIfNeeded: newValue) }
  }

  /// The content of a string, without its quotes.
  var contentRange: Range<Int> { (start + 1)..<(end - 1) }

  /// A value of the same kind, for the `found …` of error messages.
  var placeholder: JSONValue {
    switch kind {
    case .null: return .null
    case .isFalse: return .bool(false)
    case .isTrue: return .bool(true)
    case .number: return .number("0")
    case .string: return .string("")
    case .array: return .array([])
    case .object: return .object([])
    }
  }
}

/// The memory of a tape: its entries and the stack of open containers, kept between documents
/// and written through plain pointers (no bounds or uniqueness checks per value).
struct JSONTapeStorage {
  private(set) var entries: UnsafeMutablePointer<JSONTapeEntry>
  private(set) var capacity: Int
  private(set) var stack: UnsafeMutablePointer<Int>
  private(set) var stackCapacity: Int
  private(set) var count = 0
  /// The hashes of the keys (as Swift strings) of each open object that has too many members
  /// for a linear duplicate check, by the object's entry index: 8 bytes a key, where the keys
  /// themselves would cost a `String` each.
  var keySets: [Int: Set<UInt64>] = [:]

  init() {
    capacity = 64
    entries = .allocate(capacity: capacity)
    stackCapacity = 16
    stack = .allocate(capacity: stackCapacity)
  }

  /// Frees the memory; the storage is unusable afterwards.
  func deallocate() {
    entries.deallocate()
    stack.deallocate()
  }

  /// Forgets the entries, keeping the memory — unless a huge document made it huge: a reader
  /// kept for a session (a timeline's line decoder) must not hold on to hundreds of MiB after
  /// one large line.
  mutating func removeAll() {
    count = 0
    if !keySets.isEmpty { keySets.removeAll() }
    if capacity > Self.keptCapacity {
      entries.deallocate()
      capacity = 64
      entries = .allocate(capacity: capacity)
    }
  }

  /// The most entries kept between documents: 1 Mi entries, 32 MiB.
  static let keptCapacity = 1 << 20

  /// Appends an entry and returns its index.
  @inline(__always)
  @discardableResult
  mutating func append(_ entry: JSONTapeEntry) -> Int {
    if count == capacity { grow() }
    entries[count] = entry
    count &+= 1
    return count &- 1
  }

  /// Sets the stack slot `depth` (one past the top at most).
  @inline(__always)
  mutating func push(_ index: Int, at depth: Int) {
    if depth == stackCapacity { growStack() }
    stack[depth] = index
  }

  /// Forgets the entries from `count` on (which no open container may hold).
  @inline(__always)
  mutating func truncate(to count: Int) {
    self.count = count
  }

  /// Makes room for `entries` entries at least, in one allocation: the pages it does not use
  /// are never touched, so a large document's tape costs the memory of its entries, without the
  /// old and the new copy a doubling holds at once.
  mutating func reserve(_ entries: Int) {
    guard entries > capacity else { return }
    let larger = UnsafeMutablePointer<JSONTapeEntry>.allocate(capacity: entries)
    larger.update(from: self.entries, count: count)
    self.entries.deallocate()
    self.entries = larger
    capacity = entries
  }

  @inline(never)
  private mutating func grow() {
    Self.double(&entries, capacity: &capacity, keeping: count)
  }

  @inline(never)
  private mutating func growStack() {
    Self.double(&stack, capacity: &stackCapacity, keeping: stackCapacity)
  }

  /// Moves the first `kept` elements of `pointer` to a new allocation twice as large.
  private static func double<T>(
    _ pointer: inout UnsafeMutablePointer<T>, capacity: inout Int, keeping kept: Int
  ) {
    let larger = UnsafeMutablePointer<T>.allocate(capacity: capacity * 2)
    larger.update(from: pointer, count: kept)
    pointer.deallocate()
    pointer = larger
    capacity *= 2
  }

  /// The entries read.
  var buffer: UnsafeBufferPointer<JSONTapeEntry> {
    UnsafeBufferPointer(start: entries, count: count)
  }
}

extension JSONReader {
  /// Reads the whole input as one JSON text into `tape`, accepting exactly what
  /// ``readDocument()`` accepts (the same grammar, UTF-8 checks, duplicate keys and limits).
  ///
  /// On failure the error may differ from the one ``readDocument()`` reports; callers that show
  /// errors parse again with ``JSONParser`` to get its exact error.
  /// - Parameter tape: Emptied, then filled with the document's values; the first is the
  ///   top-level value.
  /// - Returns: Whether the text has whitespace between tokens or escapes other than the ones
  ///   ``JSONWriter`` writes: `false` means every value's bytes are already its compact form.
  mutating func readTape(into tape: inout JSONTapeStorage) throws(JSONParseError) -> Bool {
    tape.removeAll()
    var depth = 0
    var isLoose = false
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
      throw JSONParseError(offset: 0, reason: .byteOrderMark)
    }
    let end = bytes.count
    let failure = JSONParseError(offset: 0, reason: .invalidUTF8)
    // Offsets, indices and counts fit an entry's 32-bit fields (at most one entry per byte).
    guard end <= JSONLimits.byteCeiling else { throw failure }
    let elementLimit = limits.elementLimit
    // A value takes a byte and all but the last a separator: at most one entry per two bytes,
    // plus one — up to a cap, past which the tape grows as it goes (with lazy arrays, only an
    // object with millions of members gets there).
    if end >= JSONTape.reservedDocumentBytes {
      tape.reserve(min(end / 2 &+ 2, JSONTape.reservedEntriesLimit))
    }

    while true {
      // Phase 1: a value starts at the cursor.
      if offset < end, bytes[offset] <= .space {
        skipWhitespace()
        isLoose = true
      }
      guard offset < end else { throw failure }
      if depth > 0 {
        elementCount &+= 1
        if elementCount > elementLimit { throw failure }
      }
      let byte = bytes[offset]
      let start = offset
      switch byte {
      case .openBracket, .openBrace:
        guard depth < limits.maxDepth else { throw failure }
        let isObject = byte == .openBrace
        offset &+= 1
        let index = tape.append(
          JSONTapeEntry(kind: isObject ? .object : .array, start: start, end: start, next: 0))
        tape.entries[index].next = index &+ 1
        if offset < end, bytes[offset] <= .space {
          skipWhitespace()
          isLoose = true
        }
        if offset < end && bytes[offset] == (isObject ? .closeBrace : .closeBracket) {
          offset &+= 1
          tape.entries[index].end = offset
        } else {
          tape.push(index, at: depth)
          depth &+= 1
          if isObject {
            try readTapeKey(&tape, object: index, isLoose: &isLoose)
          }
          continue
        }
      case .quote:
        try readTapeString(&tape, isLoose: &isLoose)
      case .lowercaseT:
        guard matchesLiteral(0x7472_7565, length: 4) else { throw failure }  // true
        tape.append(
          JSONTapeEntry(kind: .isTrue, start: start, end: start &+ 4, next: tape.count &+ 1))
        offset &+= 4
      case .lowercaseF:
        guard offset &+ 5 <= end, bytes[offset &+ 4] == .lowercaseE,
          matchesLiteral(0x6661_6C73, length: 4)  // fals
        else { throw failure }
        tape.append(
          JSONTapeEntry(kind: .isFalse, start: start, end: start &+ 5, next: tape.count &+ 1))
        offset &+= 5
      case .lowercaseN:
        guard matchesLiteral(0x6E75_6C6C, length: 4) else { throw failure }  // null
        tape.append(
          JSONTapeEntry(kind: .null, start: start, end: start &+ 4, next: tape.count &+ 1))
        offset &+= 4
      case .minus, .digitZero ... .digitNine:
        try skipNumber()
        tape.append(JSONTapeEntry(kind: .number, start: start, end: offset, next: tape.count &+ 1))
      default:
        throw failure
      }

      // Phase 2: the value is complete; continue or close the containers it ends.
      while true {
        guard depth > 0 else {
          if offset < end, bytes[offset] <= .space {
            skipWhitespace()
            isLoose = true
          }
          if offset < end { throw failure }
          return isLoose
        }
        let top = tape.stack[depth &- 1]
        let isObject = tape.entries[top].kind == .object
        tape.entries[top].count &+= 1
        if !isObject && tape.count &- top > lazyArrayEntries {
          // A long array: its elements are decoded from the text, one at a time, and the tape
          // drops their entries once it has read them (it still reads every one, for the same
          // checks as any other text).
          tape.truncate(to: top &+ 1)
          tape.entries[top].isLazy = true
        }
        if offset < end, bytes[offset] <= .space {
          skipWhitespace()
          isLoose = true
        }
        guard offset < end else { throw failure }
        let next = bytes[offset]
        if next == .comma {
          offset &+= 1
          if offset < end, bytes[offset] <= .space {
            skipWhitespace()
            isLoose = true
          }
          if offset < end && bytes[offset] == (isObject ? .closeBrace : .closeBracket) {
            throw failure
          }
          if isObject {
            try readTapeKey(&tape, object: top, isLoose: &isLoose)
          }
          break
        }
        guard next == (isObject ? .closeBrace : .closeBracket) else { throw failure }
        offset &+= 1
        depth &-= 1
        tape.entries[top].end = offset
        if tape.entries[top].isLazy { tape.truncate(to: top &+ 1) }
        tape.entries[top].next = tape.count
        if isObject && Int(tape.entries[top].count) > JSONTape.linearKeySearchLimit {
          tape.keySets[top] = nil
        }
      }
    }
  }

  /// Whether the `length` bytes at the cursor are the big-endian bytes of `pattern`.
  @inline(__always)
  private func matchesLiteral(_ pattern: UInt32, length: Int) -> Bool {
    guard offset &+ length <= bytes.count else { return false }
    let word = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    return word == pattern
  }

  /// Reads a string at the cursor into the next entry.
  @inline(__always)
  private mutating func readTapeString(
    _ tape: inout JSONTapeStorage, isLoose: inout Bool
  ) throws(JSONParseError) {
    let start = offset
    offset &+= 1
    var hasNonASCII = try skipStringContent()
    var isEscaped = false
    if bytes[offset] == .backslash {
      isEscaped = true
      try readEscapedTapeString(from: start, hasNonASCII: &hasNonASCII, isLoose: &isLoose)
    } else if offset &- start &- 1 > limits.maxStringBytes {
      throw JSONParseError(offset: start, reason: .stringTooLong(limit: limits.maxStringBytes))
    }
    offset &+= 1
    var entry = JSONTapeEntry(kind: .string, start: start, end: offset, next: tape.count &+ 1)
    entry.isEscaped = isEscaped
    entry.isASCII = !hasNonASCII
    tape.append(entry)
  }

  /// Reads the rest of a string with an escape at the cursor, checking its escapes and its
  /// length once unescaped; leaves the cursor on the closing quote.
  private mutating func readEscapedTapeString(
    from start: Int, hasNonASCII: inout Bool, isLoose: inout Bool
  ) throws(JSONParseError) {
    scratch.removeAll(keepingCapacity: true)
    var runStart = start &+ 1
    while true {
      scratch.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<offset]))
      if scratch.count > limits.maxStringBytes {
        throw JSONParseError(offset: start, reason: .stringTooLong(limit: limits.maxStringBytes))
      }
      if bytes[offset] == .quote { return }
      let escapeStart = offset
      let before = scratch.count
      try readEscape()
      if !isLoose && !Self.isCanonicalEscape(bytes, escapeStart, offset, scratch, from: before) {
        isLoose = true
      }
      if scratch[before...].contains(where: { $0 >= 0x80 }) { hasNonASCII = true }
      runStart = offset
      if try skipStringContent() { hasNonASCII = true }
    }
  }

  /// Whether the escape `bytes[start..<end]`, which decoded to `scratch[from...]`, is the one
  /// ``JSONWriter`` writes for that character.
  private static func isCanonicalEscape(
    _ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ scratch: [UInt8], from: Int
  ) -> Bool {
    let letter = bytes[start &+ 1]
    switch letter {
    case .quote, .backslash, 0x62, 0x66, 0x6E, 0x72, 0x74: return true
    case .lowercaseU:
      guard end &- start == 6, scratch.count &- from == 1 else { return false }
      let byte = scratch[from]
      guard byte < 0x20, ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(byte) else { return false }
      let hexDigits: StaticString = "0123456789abcdef"
      return hexDigits.withUTF8Buffer { digits in
        bytes[start &+ 2] == .digitZero && bytes[start &+ 3] == .digitZero
          && bytes[start &+ 4] == digits[Int(byte >> 4)]
          && bytes[start &+ 5] == digits[Int(byte & 0x0F)]
      }
    default: return false
    }
  }

  /// Reads an object key and the `:` after it, rejecting a key that the object `object` already
  /// has (keys compare as Swift strings, as in ``readDocument()``).
  @inline(__always)
  private mutating func readTapeKey(
    _ tape: inout JSONTapeStorage, object: Int, isLoose: inout Bool
  ) throws(JSONParseError) {
    if offset < bytes.count, bytes[offset] <= .space {
      skipWhitespace()
      isLoose = true
    }
    guard offset < bytes.count, bytes[offset] == .quote else {
      throw JSONParseError(offset: offset, reason: .invalidUTF8)
    }
    let keyIndex = tape.count
    try readTapeString(&tape, isLoose: &isLoose)
    let entries = tape.entries
    let members = Int(entries[object].count)
    // Whether an earlier key may equal this one: any, in a small object; in a large one, only
    // when its hash was seen before.
    var mayRepeat = members > 0
    if members >= JSONTape.linearKeySearchLimit {
      // Past this many members a linear search would make the document quadratic: the hashes
      // of the keys, as Swift strings, go into a set keyed by the object. A hash seen before is
      // a duplicate only if an earlier key is equal (a search, as rare as a repeated hash).
      let hash = JSONTape.keyHash(JSONTape.string(entries[keyIndex], in: bytes))
      if tape.keySets[object] == nil {
        var hashes = Set<UInt64>(minimumCapacity: members * 2)
        var index = object &+ 1
        for _ in 0..<members {
          hashes.insert(JSONTape.keyHash(JSONTape.string(entries[index], in: bytes)))
          index = entries[index &+ 1].next
        }
        tape.keySets[object] = hashes
      }
      mayRepeat = !tape.keySets[object, default: []].insert(hash).inserted
    }
    if mayRepeat {
      let key = entries[keyIndex]
      var index = object &+ 1
      for _ in 0..<members {
        if Self.keysEqual(entries[index], key, in: bytes) {
          throw JSONParseError(offset: key.start, reason: .invalidUTF8)
        }
        index = entries[index &+ 1].next
      }
    }
    if offset < bytes.count, bytes[offset] <= .space {
      skipWhitespace()
      isLoose = true
    }
    guard offset < bytes.count, bytes[offset] == .colon else {
      throw JSONParseError(offset: offset, reason: .invalidUTF8)
    }
    offset &+= 1
  }

  /// Whether two key entries are equal as Swift strings.
  @inline(__always)
  static func keysEqual(
    _ a: JSONTapeEntry, _ b: JSONTapeEntry, in bytes: UnsafeRawBufferPointer
  ) -> Bool {
    let length = a.end &- a.start
    if a.isASCII && b.isASCII && !a.isEscaped && !b.isEscaped {
      guard length == b.end &- b.start else { return false }
      return memcmpEqual(bytes, a.start, b.start, length)
    }
    return JSONTape.string(a, in: bytes) == JSONTape.string(b, in: bytes)
  }

  /// Whether `length` bytes at `a` of `bytes` equal the first `length` of `other`.
  @inline(__always)
  static func memcmpEqual(
    _ bytes: UnsafeRawBufferPointer, _ a: Int, _ other: UnsafeBufferPointer<UInt8>, _ length: Int
  ) -> Bool {
    for k in 0..<length where bytes[a &+ k] != other[k] { return false }
    return true
  }

  @inline(__always)
  static func memcmpEqual(_ bytes: UnsafeRawBufferPointer, _ a: Int, _ b: Int, _ length: Int)
    -> Bool
  {
    var k = 0
    while k &+ 8 <= length {
      if bytes.loadUnaligned(fromByteOffset: a &+ k, as: UInt64.self)
        != bytes.loadUnaligned(fromByteOffset: b &+ k, as: UInt64.self)
      {
        return false
      }
      k &+= 8
    }
    while k < length {
      if bytes[a &+ k] != bytes[b &+ k] { return false }
      k &+= 1
    }
    return true
  }
}

/// Reading values of a tape back from its bytes.
enum JSONTape {
  /// Objects with fewer members than this find duplicate keys, and decoders find members, by
  /// linear search; larger ones through a set or an index of their keys.
  static let linearKeySearchLimit = 64

  /// An array whose elements take more entries than this is read lazily
  /// (``JSONTapeEntry/isLazy``): 1 Mi entries, 16 MiB. A line of two-byte values would otherwise
  /// cost eight times its length in tape.
  static let lazyArrayEntries = 1 << 20

  /// A key's hash as a Swift string, in 64 bits on every platform: with 32 bits, an object of
  /// millions of keys would repeat hashes by chance thousands of times, and each repeat costs a
  /// search through the object's keys.
  @inline(__always)
  static func keyHash(_ key: String) -> UInt64 {
    #if _pointerBitWidth(_64)
      return UInt64(UInt(bitPattern: key.hashValue))
    #else
      var hasher = Hasher()
      hasher.combine(key)
      hasher.combine(1 as UInt8)
      return UInt64(UInt(bitPattern: key.hashValue)) << 32
        | UInt64(UInt(bitPattern: hasher.finalize()))
    #endif
  }

  /// Documents at least this long get the room for all their entries before they are read.
  static let reservedDocumentBytes = 1 << 20
  /// The most entries reserved that way: 2 Mi, 32 MiB of address space (an app that decodes a
  /// large document must not ask for eight times its length at once).
  static let reservedEntriesLimit = 1 << 21

  /// The text of a string entry, unescaped.
  static func string(_ entry: JSONTapeEntry, in bytes: UnsafeRawBufferPointer) -> String {
    if !entry.isEscaped {
      let content = UnsafeRawBufferPointer(rebasing: bytes[entry.contentRange])
      return String(unsafeUninitializedCapacity: content.count) { buffer in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: content)
        return content.count
      }
    }
    var reader = JSONReader(
      bytes: UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end]),
      limits: JSONLimits(maxStringBytes: Int.max))
    // The string was checked when the tape was read, so reading it again cannot fail.
    return (try? reader.readString()) ?? ""
  }

  /// The value of an entry and everything inside it, as a ``JSONValue``.
  static func value(_ entry: JSONTapeEntry, in bytes: UnsafeRawBufferPointer) -> JSONValue {
    switch entry.kind {
    case .null: return .null
    case .isFalse: return .bool(false)
    case .isTrue: return .bool(true)
    case .string: return .string(string(entry, in: bytes))
    case .number:
      let text = UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end])
      return .number(String(decoding: text, as: UTF8.self))
    case .array, .object:
      let text = UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end])
      // The text was checked when the tape was read, so parsing it again cannot fail.
      return (try? JSONParser.parse(text, limits: .unlimited)) ?? .null
    }
  }
}

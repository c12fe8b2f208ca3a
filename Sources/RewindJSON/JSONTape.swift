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
        if tape.count &- top > lazyContainerEntries, !isObject || tape.entries[top].count >= 2 {
          // A long array or a large object: its values are decoded from the text, one at a
          // time, and the tape drops their entries once it has read them (it still reads every
          // one, for the same checks as any other text). An object keeps the hashes of its
          // keys, for the duplicate check. (An object of one member is never lazy: its entries
          // are its key's and a value that is lazy itself or within the limit.)
          if isObject, tape.keySets[top] == nil {
            tape.keySets[top] = Self.keyHashes(of: top, in: tape, bytes: bytes)
          }
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
        if isObject
          && (tape.entries[top].count > JSONTape.linearKeySearchLimit || tape.entries[top].isLazy)
        {
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
    let isLazy = entries[object].isLazy
    if members >= JSONTape.linearKeySearchLimit || isLazy {
      // Past this many members a linear search would make the document quadratic: the hashes
      // of the keys, as Swift strings, go into a set keyed by the object. A hash seen before is
      // a duplicate only if an earlier key is equal (a search, as rare as a repeated hash).
      let hash = JSONTape.keyHash(JSONTape.string(entries[keyIndex], in: bytes))
      if tape.keySets[object] == nil {
        tape.keySets[object] = Self.keyHashes(of: object, in: tape, bytes: bytes)
      }
      mayRepeat = !tape.keySets[object, default: []].insert(hash).inserted
    }
    if mayRepeat {
      let key = entries[keyIndex]
      var isRepeated = false
      if isLazy {
        // The earlier members are no longer on the tape: their keys are read from the text.
        JSONTextMember.forEach(in: bytes, object: entries[object].start, before: key.start) {
          isRepeated = Self.keysEqual($0.key, key, in: bytes)
          return !isRepeated
        }
      } else {
        var index = object &+ 1
        for _ in 0..<members where !isRepeated {
          isRepeated = Self.keysEqual(entries[index], key, in: bytes)
          index = entries[index &+ 1].next
        }
      }
      if isRepeated { throw JSONParseError(offset: key.start, reason: .invalidUTF8) }
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

  /// The hashes of the keys of the object at `object`, whose members are on the tape.
  private static func keyHashes(
    of object: Int, in tape: JSONTapeStorage, bytes: UnsafeRawBufferPointer
  ) -> Set<UInt64> {
    let entries = tape.entries
    let members = Int(entries[object].count)
    var hashes = Set<UInt64>(minimumCapacity: members * 2)
    var index = object &+ 1
    for _ in 0..<members {
      hashes.insert(JSONTape.keyHash(JSONTape.string(entries[index], in: bytes)))
      index = entries[index &+ 1].next
    }
    return hashes
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

  /// An array whose elements, or an object of two members or more whose members, take more
  /// entries than this is read lazily (``JSONTapeEntry/isLazy``): 1 Mi entries, 16 MiB. A line
  /// of two-byte values would otherwise cost eight times its length in tape, and an object of
  /// short keys five times.
  static let lazyContainerEntries = 1 << 20

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

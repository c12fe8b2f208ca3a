/// Checks single JSON tokens in place, as ``JSONParser`` checks them inside a document: for
/// readers that know the layout of a text and need to check only some of it.
package enum JSONScan {
  /// The end of the string whose opening quote is at `start` (after its closing quote), if it
  /// is a valid JSON string within `limits`.
  /// - Returns: The end offset, and whether the string has escapes.
  package static func string(
    in bytes: UnsafeRawBufferPointer, at start: Int, limits: JSONLimits
  ) -> (end: Int, isEscaped: Bool)? {
    guard start < bytes.count, bytes[start] == .quote else { return nil }
    var reader = JSONReader(bytes: bytes, limits: limits)
    reader.offset = start
    let isEscaped: Bool
    do {
      reader.offset += 1
      try reader.skipStringContent()
      if bytes[reader.offset] == .quote {
        guard reader.offset - start - 1 <= limits.maxStringBytes else { return nil }
        isEscaped = false
        reader.offset += 1
      } else {
        reader.offset = start
        _ = try reader.readString()
        isEscaped = true
      }
    } catch {
      return nil
    }
    return (reader.offset, isEscaped)
  }

  /// The offset of the first byte of the value that starts at or after `offset` (past any
  /// whitespace), in a text known to be valid.
  package static func valueStart(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    JSONLazyValues.elementStart(in: bytes, after: offset)
  }

  /// The offset after the closing quote of the string whose opening quote is at `quote`, in a
  /// text known to be valid. On any other bytes it reads none past `bytes.count`, and returns an
  /// offset past it when the string is not closed.
  package static func afterString(in bytes: UnsafeRawBufferPointer, at quote: Int) -> Int {
    var i = quote + 1
    while true {
      i = nextQuoteOrBackslash(in: bytes, from: i)
      guard i < bytes.count else { return i + 1 }
      switch bytes[i] {
      case .quote: return i + 1
      case .backslash: i += 2
      default: i += 1
      }
    }
  }

  /// Every byte of a word set to `"`, `\`, `{` and `}`.
  @usableFromInline static let quotes: UInt64 = 0x2222_2222_2222_2222
  @usableFromInline static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
  @usableFromInline static let openBraces: UInt64 = 0x7B7B_7B7B_7B7B_7B7B
  @usableFromInline static let closeBraces: UInt64 = 0x7D7D_7D7D_7D7D_7D7D
  @usableFromInline static let caseBits: UInt64 = 0x2020_2020_2020_2020

  /// The high bit of each zero byte of `word` set — exactly for the lowest zero byte (a borrow
  /// may mark a byte above it too), which is all the scans use.
  @inlinable @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }

  /// Where, from `start`, the first quote or backslash is (what ends or escapes inside a
  /// string), eight bytes at a time; `bytes.count` when none is.
  @inlinable @inline(__always)
  package static func nextQuoteOrBackslash(
    in bytes: UnsafeRawBufferPointer, from start: Int
  ) -> Int {
    guard let base = bytes.baseAddress else { return bytes.count }
    var i = start
    while i + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let hits = zeroBytes(word ^ quotes) | zeroBytes(word ^ backslashes)
      if hits != 0 { return i + hits.trailingZeroBitCount >> 3 }
      i += 8
    }
    while i < bytes.count, bytes[i] != .quote, bytes[i] != .backslash { i += 1 }
    return i
  }

  /// Where, from `start`, the first byte that opens or closes a string, an object or an array
  /// is (`"`, `[`, `]`, `{`, `}`), eight bytes at a time; `bytes.count` when none is.
  @inlinable @inline(__always)
  package static func nextStructural(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return bytes.count }
    var i = start
    while i + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      // `[` and `]` differ from `{` and `}` by one bit: folded onto them.
      let folded = word | caseBits
      let hits =
        zeroBytes(word ^ quotes) | zeroBytes(folded ^ openBraces) | zeroBytes(folded ^ closeBraces)
      if hits != 0 { return i + hits.trailingZeroBitCount >> 3 }
      i += 8
    }
    while i < bytes.count {
      switch bytes[i] {
      case .quote, .openBracket, .openBrace, .closeBracket, .closeBrace: return i
      default: i += 1
      }
    }
    return i
  }

  /// The end of the JSON value whose first byte is at `start`, in a text known to be valid
  /// (read before): after a string's closing quote, a container's closing bracket, or a scalar's
  /// last byte.
  package static func valueEnd(in bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
    var i = start
    var depth = 0
    while i < bytes.count {
      // Inside a container, only strings and brackets matter: skip to the next.
      if depth > 0 {
        i = nextStructural(in: bytes, from: i)
        guard i < bytes.count else { break }
      }
      switch bytes[i] {
      case .quote:
        i = afterString(in: bytes, at: i)
        if depth == 0 { return min(i, bytes.count) }
        continue
      case .openBracket, .openBrace:
        depth += 1
      case .closeBracket, .closeBrace:
        depth -= 1
        if depth == 0 { return i + 1 }
      default:
        if depth == 0 {
          while i < bytes.count {
            switch bytes[i] {
            case .comma, .closeBracket, .closeBrace, .space, .tab, .lineFeed, .carriageReturn:
              return i
            default: i += 1
            }
          }
          return i
        }
      }
      i += 1
    }
    return min(i, bytes.count)
  }

  /// Calls `body` with each member of the object that is the whole of `bytes` — a text known to
  /// be valid (read before) — in order: its key, and where its value's text is. Nothing is
  /// built but one key at a time, whatever the values hold; nothing is called when the text is
  /// not an object.
  package static func forEachMember(
    ofObjectIn bytes: UnsafeRawBufferPointer, _ body: (_ key: String, _ value: Range<Int>) -> Void
  ) {
    let start = JSONLazyValues.elementStart(in: bytes, after: 0)
    guard start < bytes.count, bytes[start] == .openBrace else { return }
    forEachChild(ofContainerAt: start, in: bytes) { key, value in
      body(key.map { self.key($0, in: bytes) } ?? "", value)
      return true
    }
  }

  /// Calls `body` with each member or element of the object or array whose `{` or `[` is at
  /// `start`, in a text known to be valid, in order, until it returns `false`: for a member,
  /// where its key's text is (quotes included); where the value's text is. Each value is
  /// scanned once.
  ///
  /// - Parameter from: Where to begin instead of the first child: the offset of a child's first
  ///   byte (its key's quote), found by an earlier call.
  package static func forEachChild(
    ofContainerAt start: Int, in bytes: UnsafeRawBufferPointer, from: Int? = nil,
    _ body: (_ key: Range<Int>?, _ value: Range<Int>) -> Bool
  ) {
    guard start < bytes.count, bytes[start] == .openBrace || bytes[start] == .openBracket else {
      return
    }
    let isObject = bytes[start] == .openBrace
    let close: UInt8 = isObject ? .closeBrace : .closeBracket
    var position = from ?? JSONLazyValues.elementStart(in: bytes, after: start + 1)
    while position < bytes.count, bytes[position] != close {
      var key: Range<Int>?
      var valueStart = position
      if isObject {
        guard bytes[position] == .quote else { return }
        let entry = JSONTextMember.key(at: position, in: bytes)
        key = entry.start..<entry.end
        valueStart = JSONTextMember.valueStart(after: entry, in: bytes)
      }
      let end = valueEnd(in: bytes, at: valueStart)
      guard body(key, valueStart..<end) else { return }
      position = nextChild(after: end, in: bytes)
    }
  }

  /// Where the child after the one that ends at `end` starts, in a container of a text known to
  /// be valid: past whitespace and a comma (at the closing bracket when there is none).
  package static func nextChild(after end: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    var position = JSONLazyValues.elementStart(in: bytes, after: end)
    if position < bytes.count, bytes[position] == .comma {
      position = JSONLazyValues.elementStart(in: bytes, after: position + 1)
    }
    return position
  }

  /// The key whose text (quotes included) is at `range` of a text known to be valid, unescaped.
  package static func key(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> String {
    JSONTape.string(JSONTextMember.key(at: range.lowerBound, in: bytes), in: bytes)
  }

  /// How many leading bytes `a` and `b` share (compared eight at a time).
  package static func commonPrefix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer)
    -> Int
  {
    let count = min(a.count, b.count)
    guard let x = a.baseAddress, let y = b.baseAddress else { return 0 }
    var i = 0
    while i + 8 <= count,
      x.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        == y.loadUnaligned(fromByteOffset: i, as: UInt64.self)
    {
      i += 8
    }
    while i < count, a[i] == b[i] { i += 1 }
    return i
  }

  /// How many trailing bytes `a` and `b` share, at most `limit`.
  package static func commonSuffix(
    _ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, limit: Int
  ) -> Int {
    let count = min(min(a.count, b.count), max(0, limit))
    guard let x = a.baseAddress, let y = b.baseAddress else { return 0 }
    var n = 0
    while n + 8 <= count,
      x.loadUnaligned(fromByteOffset: a.count - n - 8, as: UInt64.self)
        == y.loadUnaligned(fromByteOffset: b.count - n - 8, as: UInt64.self)
    {
      n += 8
    }
    while n < count, a[a.count - 1 - n] == b[b.count - 1 - n] { n += 1 }
    return n
  }

  /// Calls `body` with where each element's text is, in order, for the array that is the whole
  /// of `bytes` — a text known to be valid (read before). Nothing is built; nothing is called
  /// when the text is not an array.
  package static func forEachElement(
    ofArrayIn bytes: UnsafeRawBufferPointer, _ body: (_ element: Range<Int>) -> Void
  ) {
    let start = JSONLazyValues.elementStart(in: bytes, after: 0)
    guard start < bytes.count, bytes[start] == .openBracket else { return }
    var position = JSONLazyValues.elementStart(in: bytes, after: start + 1)
    while position < bytes.count, bytes[position] != .closeBracket {
      let end = valueEnd(in: bytes, at: position)
      body(position..<end)
      position = JSONLazyValues.elementStart(in: bytes, after: end)
      guard position < bytes.count, bytes[position] == .comma else { return }
      position = JSONLazyValues.elementStart(in: bytes, after: position + 1)
    }
  }

  /// Where the first member's key or element of the container whose opening bracket is at
  /// `start` is, or its closing bracket when it is empty, in a text known to be valid.
  package static func firstChild(ofContainerAt start: Int, in bytes: UnsafeRawBufferPointer) -> Int
  {
    JSONLazyValues.elementStart(in: bytes, after: start + 1)
  }

  /// Where the element after the one that starts at `start` is, or the array's closing bracket
  /// when it was the last, in a text known to be valid.
  package static func elementAfter(_ start: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    JSONLazyValues.nextElement(in: bytes, after: start)
  }

  /// Where the member after the one whose key's opening quote is at `keyStart` starts (its
  /// key's quote, or the object's closing brace when it was the last), in a text known to be
  /// valid.
  package static func memberAfter(_ keyStart: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    JSONTextMember.at(keyStart, in: bytes).next
  }

  /// Where the value of the member whose key's opening quote is at `keyStart` starts, in a text
  /// known to be valid: found without reading the value.
  package static func memberValue(at keyStart: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    JSONTextMember.valueStart(after: JSONTextMember.key(at: keyStart, in: bytes), in: bytes)
  }

  /// The key of the member whose key's opening quote is at `keyStart`, unescaped, in a text
  /// known to be valid: read without reading the value.
  package static func key(at keyStart: Int, in bytes: UnsafeRawBufferPointer) -> String {
    JSONTape.string(JSONTextMember.key(at: keyStart, in: bytes), in: bytes)
  }

  /// Whether the key of the member whose key's opening quote is at `keyStart` is `key`, scalar
  /// for scalar, in a text known to be valid: its bytes compared where it has no escapes,
  /// unescaped otherwise.
  package static func key(
    at keyStart: Int, in bytes: UnsafeRawBufferPointer, equals key: String
  ) -> Bool {
    let entry = JSONTextMember.key(at: keyStart, in: bytes)
    guard !entry.isEscaped else {
      return JSONTape.string(entry, in: bytes).unicodeScalars.elementsEqual(key.unicodeScalars)
    }
    var key = key
    return key.withUTF8 { UnsafeRawBufferPointer($0).elementsEqual(bytes[entry.contentRange]) }
  }
}

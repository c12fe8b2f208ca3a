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
  /// Arrays and objects: whether the tape holds no entries for the elements or members (a long
  /// array or a large object, decoded from its text one value at a time:
  /// ``JSONTape/lazyContainerEntries``). The bit of ``isEscaped``, which only strings have.
  var isLazy: Bool {
    @inline(__always) get { word & 0b1000 != 0 && (kind == .array || kind == .object) }
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

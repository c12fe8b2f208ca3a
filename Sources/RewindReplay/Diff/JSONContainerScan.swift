import RewindJSON

/// A forward scan of one object's or array's text that can stop at any byte and go on later:
/// where ``JSONTextNode/narrowed(_:_:)`` learns, in one pass, whether a child of two texts
/// that reaches into the bytes where they differ ends there or runs on into the bytes they end
/// with — without scanning the child whole, as ``JSONScan/valueEnd(in:at:)`` would, once in
/// each text.
///
/// Only the bytes before the limit given are read, so a scan stopped within the bytes two texts
/// start with is the scan of both, and goes on in either; and two scans in the same state at
/// the start of bytes two texts end with read the rest alike (``isInStep(with:shiftedBy:)``).
struct JSONContainerScan {
  /// The next byte to read.
  private(set) var position: Int
  /// Containers open, the scanned one included.
  private var depth = 0
  /// Whether the scan is inside a string.
  private var isInString = false
  /// Where the container ends (after its closing bracket), once the scan has read it.
  private(set) var end: Int?

  /// A scan of the container whose `{` or `[` is at `start`, in a text known to be valid.
  init(at start: Int) {
    position = start
  }

  /// Reads on to `limit` (never a byte at or past it), or until the container closes.
  mutating func advance(in bytes: UnsafeRawBufferPointer, upTo limit: Int) {
    guard end == nil, let base = bytes.baseAddress else { return }
    let limit = min(limit, bytes.count)
    var i = position
    defer { position = i }
    while i < limit {
      if isInString {
        // Eight bytes at a time while none is a quote or a backslash.
        while i + 8 <= limit {
          let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          let hits = Self.zeroBytes(word ^ Self.quotes) | Self.zeroBytes(word ^ Self.backslashes)
          if hits != 0 {
            i += hits.trailingZeroBitCount >> 3
            break
          }
          i += 8
        }
        guard i < limit else { return }
        switch bytes[i] {
        case UInt8(ascii: "\""):
          isInString = false
          i += 1
        // The escaped byte is skipped unread: it may lie past the limit.
        case UInt8(ascii: "\\"): i += 2
        default: i += 1
        }
      } else {
        // Eight bytes at a time while none opens or closes a string or a container.
        while i + 8 <= limit {
          let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
          // `[` and `]` differ from `{` and `}` by one bit: folded onto them.
          let folded = word | Self.caseBits
          let hits =
            Self.zeroBytes(word ^ Self.quotes) | Self.zeroBytes(folded ^ Self.openBraces)
            | Self.zeroBytes(folded ^ Self.closeBraces)
          if hits != 0 {
            i += hits.trailingZeroBitCount >> 3
            break
          }
          i += 8
        }
        guard i < limit else { return }
        switch bytes[i] {
        case UInt8(ascii: "\""): isInString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 {
            i += 1
            end = i
            return
          }
        default: break
        }
        i += 1
      }
    }
  }

  /// Whether `other`, a scan of the same container in another text whose bytes from here on
  /// are these moved by `shift`, is where this one is, in the same state: then it reads the rest
  /// as this one does, and ends `shift` bytes after it.
  func isInStep(with other: JSONContainerScan, shiftedBy shift: Int) -> Bool {
    end == nil && other.end == nil && position + shift == other.position && depth == other.depth
      && isInString == other.isInString
  }

  /// Every byte of a word set to `"`, `\`, `{` and `}`, and the bit that folds `[` and `]` onto
  /// `{` and `}`.
  private static let quotes: UInt64 = 0x2222_2222_2222_2222
  private static let backslashes: UInt64 = 0x5C5C_5C5C_5C5C_5C5C
  private static let openBraces: UInt64 = 0x7B7B_7B7B_7B7B_7B7B
  private static let closeBraces: UInt64 = 0x7D7D_7D7D_7D7D_7D7D
  private static let caseBits: UInt64 = 0x2020_2020_2020_2020

  /// The high bit of each zero byte of `word` set — exactly for the lowest zero byte (a borrow
  /// may mark a byte above it too), which is all the scan uses.
  @inline(__always)
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
  }
}

import RewindJSON

/// A forward scan of one object's or array's text that can stop at any byte and go on later:
/// where ``JSONTextNode/narrowed(_:_:)`` learns, in one pass, whether a child of two texts
/// that reaches into the bytes where they differ ends there or runs on into the bytes they end
/// with — without scanning the child whole, as ``JSONScan/valueEnd(in:at:)`` would, once in
/// each text.
///
/// Only the bytes before the limit given are read, so a scan stopped within the bytes two texts
/// start with is the scan of both, and goes on in either.
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

  /// In the container whose closing bracket is at `close`, in a text known to be valid: the end
  /// of the last child that does not start after `floor + 1` — the last whose start, or the
  /// byte before it, is not among the bytes from `floor` on — read backward from `close` over
  /// the children after it, reading no byte before `floor` and at most `budget` bytes; `nil`
  /// when that is not enough, or the container has no such child.
  ///
  /// The bytes from `floor` on being all it reads, the same bytes at the end of another text
  /// give the same answer there, moved by the difference of the two lengths.
  static func lastChildEnd(
    before close: Int, notAfter floor: Int, in bytes: UnsafeRawBufferPointer, isObject: Bool,
    budget: Int
  ) -> Int? {
    // Bytes before `stop` are not read; reaching `floor` (not the budget) means the child being
    // read starts at or before it.
    let stop = max(floor, close - budget)
    var i = close - 1
    /// Moves `i` back over whitespace; `false` when that reaches `stop`.
    func skipSpace() -> Bool {
      while i >= stop, Self.isSpace(bytes[i]) { i -= 1 }
      return i >= stop
    }
    /// Moves `i` from a string's closing quote to the byte before its opening quote; `false`
    /// when that needs a byte before `stop`.
    func skipString() -> Bool {
      i -= 1
      while i >= stop {
        if bytes[i] == UInt8(ascii: "\"") {
          // Escaped when an odd number of backslashes comes before it.
          var backslashes = 0
          var j = i - 1
          while j >= stop, bytes[j] == UInt8(ascii: "\\") {
            backslashes += 1
            j -= 1
          }
          guard j >= stop else { return false }
          if backslashes % 2 == 0 {
            i -= 1
            return true
          }
          i = j
        } else {
          i -= 1
        }
      }
      return false
    }
    while true {
      guard skipSpace() else { return nil }
      let last = bytes[i]
      if last == UInt8(ascii: "[") || last == UInt8(ascii: "{") { return nil }
      let childEnd = i + 1
      // The child's value, read backward to the byte before it.
      var whole = true
      switch last {
      case UInt8(ascii: "\""):
        whole = skipString()
      case UInt8(ascii: "]"), UInt8(ascii: "}"):
        var depth = 0
        scan: while i >= stop {
          switch bytes[i] {
          case UInt8(ascii: "\""):
            guard skipString() else {
              whole = false
              break scan
            }
            continue scan
          case UInt8(ascii: "]"), UInt8(ascii: "}"): depth += 1
          case UInt8(ascii: "["), UInt8(ascii: "{"):
            depth -= 1
            if depth == 0 {
              i -= 1
              break scan
            }
          default: break
          }
          i -= 1
        }
        if depth != 0 { whole = false }
      default:
        while i >= stop, !Self.endsScalar(bytes[i]) { i -= 1 }
        whole = i >= stop
      }
      if whole && isObject {
        // `"key" :` before the value.
        whole = skipSpace() && bytes[i] == UInt8(ascii: ":")
        if whole {
          i -= 1
          whole = skipSpace() && bytes[i] == UInt8(ascii: "\"") && skipString()
        }
      }
      // `i` is the byte before the child's start: the child starts after `floor + 1` when it is
      // at or after `floor`.
      guard whole, i >= floor else {
        return stop == floor ? childEnd : nil
      }
      // Left out: on to the child before it, past the comma.
      guard skipSpace(), bytes[i] == UInt8(ascii: ",") else { return nil }
      i -= 1
    }
  }

  /// JSON's whitespace.
  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
      || byte == UInt8(ascii: "\t")
  }

  /// A byte that cannot be part of a number or a literal: what comes before one.
  private static func endsScalar(_ byte: UInt8) -> Bool {
    isSpace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")
      || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
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

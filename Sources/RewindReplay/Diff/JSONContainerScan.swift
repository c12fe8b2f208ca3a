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
    guard end == nil else { return }
    // The bytes before the limit only: the searches stop there.
    let bytes = UnsafeRawBufferPointer(rebasing: bytes[..<min(limit, bytes.count)])
    var i = position
    defer { position = i }
    while i < bytes.count {
      if isInString {
        i = JSONScan.nextQuoteOrBackslash(in: bytes, from: i)
        guard i < bytes.count else { return }
        if bytes[i] == UInt8(ascii: "\\") {
          // The escaped byte is skipped unread: it may lie past the limit.
          i += 2
        } else {
          isInString = false
          i += 1
        }
      } else {
        i = JSONScan.nextStructural(in: bytes, from: i)
        guard i < bytes.count else { return }
        switch bytes[i] {
        case UInt8(ascii: "\""): isInString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        default:
          depth -= 1
          if depth == 0 {
            i += 1
            end = i
            return
          }
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
}

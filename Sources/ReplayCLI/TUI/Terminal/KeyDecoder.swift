/// Turns the bytes a terminal sends in raw mode into ``TerminalKey``s.
///
/// Knows UTF-8 text, control bytes, and the escape sequences of xterm-compatible terminals
/// and the Linux console: CSI (`ESC [`) arrows and `~` keys — Home as `ESC[H`, `ESC[1~` or
/// `ESC[7~`; End as `ESC[F`, `ESC[4~` or `ESC[8~`; Page Up/Down as `ESC[5~`/`ESC[6~` — and SS3
/// (`ESC O`) arrows, Home and End. Modifiers (`ESC[1;5C`, Ctrl-→) are dropped.
///
/// A lone Escape cannot be told from the start of a sequence until more bytes come or none
/// do: ``nextKey()`` leaves an incomplete sequence pending, and the reader calls
/// ``flushPending()`` when no byte followed within a few milliseconds.
///
///     var decoder = KeyDecoder()
///     decoder.feed(Array("\u{1B}[6~q".utf8))
///     decoder.nextKey()  // .pageDown
///     decoder.nextKey()  // .character("q")
///     decoder.nextKey()  // nil
package struct KeyDecoder: Sendable {
  /// Bytes fed and not yet decoded.
  private var buffer: [UInt8] = []

  /// A decoder with nothing pending.
  package init() {}

  /// Adds bytes read from the terminal.
  package mutating func feed(_ bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// Whether bytes are waiting that do not yet make a whole key (an Escape, a partial sequence
  /// or a partial UTF-8 character).
  package var hasPending: Bool { !buffer.isEmpty }

  /// Decodes every complete key fed so far.
  package mutating func keys() -> [TerminalKey] {
    var keys: [TerminalKey] = []
    while let key = nextKey() { keys.append(key) }
    return keys
  }

  /// The next complete key, or `nil` when the bytes left are none or an incomplete sequence.
  package mutating func nextKey() -> TerminalKey? {
    guard let (key, length) = Self.decode(buffer[...], isFinal: false) else { return nil }
    buffer.removeFirst(length)
    return key
  }

  /// Decodes what is pending as if no more bytes will come: a lone Escape becomes `.escape`, a
  /// cut-off sequence `.unknown`.
  package mutating func flushPending() -> [TerminalKey] {
    var keys: [TerminalKey] = []
    while let (key, length) = Self.decode(buffer[...], isFinal: true) {
      keys.append(key)
      buffer.removeFirst(length)
    }
    buffer.removeAll()
    return keys
  }

  /// The key at the start of `bytes` and how many bytes it takes, or `nil` when more bytes are
  /// needed (and `isFinal` is false) or there are none.
  private static func decode(_ bytes: ArraySlice<UInt8>, isFinal: Bool) -> (TerminalKey, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x1B: return decodeEscape(bytes, isFinal: isFinal)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x00: return (.control("@"), 1)
    case 0x01...0x1A:
      return (.control(Character(Unicode.Scalar(first - 1 + UInt8(ascii: "a")))), 1)
    case 0x1C...0x1F: return (.unknown, 1)
    case 0x20...0x7E: return (.character(Character(Unicode.Scalar(first))), 1)
    default: return decodeUTF8(bytes, isFinal: isFinal)
    }
  }

  /// A key starting with Escape: a CSI or SS3 sequence, Alt and a character, or Escape alone.
  private static func decodeEscape(
    _ bytes: ArraySlice<UInt8>, isFinal: Bool
  ) -> (TerminalKey, Int)? {
    let start = bytes.startIndex
    guard bytes.count > 1 else { return isFinal ? (.escape, 1) : nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      return decodeCSI(bytes, isFinal: isFinal)
    case UInt8(ascii: "O"):
      guard bytes.count > 2 else { return isFinal ? (.alt("O"), 2) : nil }
      return (cursorKey(bytes[start + 2]) ?? .unknown, 3)
    case 0x1B:
      return (.escape, 1)
    case 0x20...0x7E:
      return (.alt(Character(Unicode.Scalar(second))), 2)
    default:
      return (.escape, 1)
    }
  }

  /// `ESC [`, parameter bytes (0x30–0x3F), intermediate bytes (0x20–0x2F), a final byte.
  private static func decodeCSI(_ bytes: ArraySlice<UInt8>, isFinal: Bool) -> (TerminalKey, Int)? {
    var index = bytes.startIndex + 2
    var parameters = ""
    while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) {
      parameters.append(Character(Unicode.Scalar(bytes[index])))
      index += 1
    }
    guard index < bytes.endIndex else {
      return isFinal ? (.unknown, bytes.count) : nil
    }
    let final = bytes[index]
    let length = index - bytes.startIndex + 1
    guard (0x40...0x7E).contains(final) else { return (.unknown, length) }
    let firstNumber = Int(parameters.split(separator: ";").first ?? "")
    if let key = cursorKey(final) { return (key, length) }
    let key: TerminalKey
    switch final {
    case UInt8(ascii: "Z"): key = .backTab
    case UInt8(ascii: "~"):
      switch firstNumber {
      case 1, 7: key = .home
      case 2: key = .insert
      case 3: key = .delete
      case 4, 8: key = .end
      case 5: key = .pageUp
      case 6: key = .pageDown
      default: key = .unknown
      }
    default: key = .unknown
    }
    return (key, length)
  }

  /// The key of the final byte shared by `ESC O` and `ESC [` sequences: the arrows, Home, End.
  private static func cursorKey(_ final: UInt8) -> TerminalKey? {
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    default: return nil
    }
  }

  /// A character of two to four UTF-8 bytes; invalid bytes and C1 controls are `.unknown`.
  private static func decodeUTF8(_ bytes: ArraySlice<UInt8>, isFinal: Bool) -> (TerminalKey, Int)? {
    guard let first = bytes.first else { return nil }
    let length: Int
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (.unknown, 1)
    }
    guard bytes.count >= length else { return isFinal ? (.unknown, bytes.count) : nil }
    let scalars = String(decoding: bytes.prefix(length), as: UTF8.self).unicodeScalars
    guard scalars.count == 1, let scalar = scalars.first, scalar != "\u{FFFD}" else {
      return (.unknown, 1)
    }
    if (0x80...0x9F).contains(scalar.value) { return (.unknown, length) }
    return (.character(Character(scalar)), length)
  }
}

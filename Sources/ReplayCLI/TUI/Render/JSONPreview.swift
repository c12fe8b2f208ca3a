import RewindJSON
import RewindReplayService

/// Compact JSON for one line of the screen, written only as far as it can be seen: a folded
/// array of a million elements costs no more than the width of its row.
enum JSONPreview {
  /// The compact JSON text of the value whose text starts at `start` of `text` (JSON checked
  /// before, in any layout), cut to at most `width` columns with `…` when longer.
  ///
  /// Strings are escaped as in JSON (`\"`, `\\`, `\n`, `\u001b`), so the text is one line and
  /// holds no control characters, however the source wrote them (`\u0041` shows as `A`).
  /// - Complexity: O(`width`), whatever the size of the value.
  static func text(ofValueAt start: Int, in text: [UInt8], width: Int) -> String {
    guard width > 0 else { return "" }
    var writer = Writer(limit: width + 1)
    writer.write(jsonValueAt: start, in: text[...])
    return truncate(writer.text, toWidth: width)
  }

  /// A member key as the state pane shows it: bare when it is an identifier, else quoted.
  static func key(_ key: String) -> String {
    let isIdentifier =
      key.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
      && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    if isIdentifier { return key }
    var writer = Writer(limit: 200)
    writer.writeString(key)
    return writer.text
  }

  /// Accumulates text until it holds more than `limit` characters.
  private struct Writer {
    var text = ""
    /// How many characters `text` holds (counting a `String` is O(n)).
    private var count = 0
    let limit: Int

    /// A writer that stops after `limit` characters.
    init(limit: Int) { self.limit = limit }

    var isFull: Bool { count > limit }

    /// Appends `piece` unless the limit is passed.
    mutating func append(_ piece: String) {
      guard !isFull else { return }
      text += piece
      count += piece.count
    }

    /// Writes the value whose text starts at `start` of the checked JSON `bytes` compactly,
    /// stopping at its end or at the limit: whitespace between tokens dropped, strings written
    /// as ``writeString(_:)`` writes them.
    mutating func write(jsonValueAt start: Int, in bytes: ArraySlice<UInt8>) {
      var offset = start
      var depth = 0
      while offset < bytes.endIndex, !isFull {
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\""):
          offset = writeString(json: bytes, at: offset)
          if depth == 0 { return }
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
          offset += 1
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          append(byte == UInt8(ascii: "[") ? "[" : "{")
          depth += 1
          offset += 1
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          guard depth > 0 else { return }
          append(byte == UInt8(ascii: "]") ? "]" : "}")
          depth -= 1
          offset += 1
          if depth == 0 { return }
        case UInt8(ascii: ","), UInt8(ascii: ":"):
          guard depth > 0 else { return }
          append(byte == UInt8(ascii: ",") ? "," : ":")
          offset += 1
        default:
          // A number or a literal: ASCII, so one column a byte.
          var end = offset
          while end < bytes.endIndex, end - offset <= limit - count, !Self.endsScalar(bytes[end]) {
            end += 1
          }
          append(String(decoding: bytes[offset..<max(end, offset + 1)], as: UTF8.self))
          offset = max(end, offset + 1)
          if depth == 0 { return }
        }
      }
    }

    /// Whether `byte` ends a number or a literal: punctuation, a string or whitespace.
    private static func endsScalar(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"),
        UInt8(ascii: "\r"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["),
        UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"):
        return true
      default:
        return false
      }
    }

    /// Writes the string whose opening quote is at `quote` in the checked JSON `bytes`, as
    /// ``writeString(_:)`` writes its value, reading no further than the limit needs.
    /// - Returns: Where the text after the string starts (the end of `bytes` when the limit
    ///   stopped it).
    mutating func writeString(json bytes: ArraySlice<UInt8>, at quote: Int) -> Int {
      var piece = "\""
      var scalars = 0
      var nextCheck = max(1, limit - count)
      var offset = quote + 1
      while offset < bytes.endIndex, bytes[offset] != UInt8(ascii: "\"") {
        if scalars > nextCheck {
          // Characters are at most scalars: counted (O(n)) only at doubling intervals. A
          // character of more than 16 scalars (combining marks piled up) stops it too, so that
          // no string costs more than O(width).
          if count + piece.count > limit || scalars > 16 * (limit + 1) {
            append(piece + "\"")
            return bytes.endIndex
          }
          nextCheck *= 2
        }
        let (scalar, length) = Self.scalar(in: bytes, at: offset)
        Self.escape(scalar, into: &piece)
        scalars += 1
        offset += length
      }
      append(piece + "\"")
      return min(offset + 1, bytes.endIndex)
    }

    /// The character at `offset` inside a checked JSON string, and how many bytes it takes:
    /// an escape decoded, or one UTF-8 sequence.
    private static func scalar(
      in bytes: ArraySlice<UInt8>, at offset: Int
    ) -> (Unicode.Scalar, Int) {
      let byte = bytes[offset]
      guard byte == UInt8(ascii: "\\") else {
        guard byte >= 0x80 else { return (Unicode.Scalar(byte), 1) }
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        let end = min(offset + length, bytes.endIndex)
        let decoded = String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first
        return (decoded ?? "\u{FFFD}", end - offset)
      }
      guard offset + 1 < bytes.endIndex else { return ("\\", 1) }
      switch bytes[offset + 1] {
      case UInt8(ascii: "b"): return ("\u{08}", 2)
      case UInt8(ascii: "f"): return ("\u{0C}", 2)
      case UInt8(ascii: "n"): return ("\n", 2)
      case UInt8(ascii: "r"): return ("\r", 2)
      case UInt8(ascii: "t"): return ("\t", 2)
      case UInt8(ascii: "u"):
        guard let unit = hex(in: bytes, at: offset + 2) else { return ("\u{FFFD}", 2) }
        if (0xD800..<0xDC00).contains(unit), offset + 11 < bytes.endIndex,
          bytes[offset + 6] == UInt8(ascii: "\\"), bytes[offset + 7] == UInt8(ascii: "u"),
          let low = hex(in: bytes, at: offset + 8), (0xDC00..<0xE000).contains(low)
        {
          let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
          return (Unicode.Scalar(value) ?? "\u{FFFD}", 12)
        }
        return (Unicode.Scalar(unit) ?? "\u{FFFD}", 6)
      default:
        // `\"`, `\\` and `\/` stand for the byte after the backslash.
        return (Unicode.Scalar(bytes[offset + 1]), 2)
      }
    }

    /// The four hex digits at `offset` as a number, or `nil` when they are not there.
    private static func hex(in bytes: ArraySlice<UInt8>, at offset: Int) -> UInt32? {
      guard offset + 4 <= bytes.endIndex else { return nil }
      return UInt32(String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), radix: 16)
    }

    /// Writes `string` quoted and escaped as in JSON.
    mutating func writeString(_ string: String) {
      var piece = "\""
      for scalar in string.unicodeScalars {
        if count + piece.count > limit { break }
        Self.escape(scalar, into: &piece)
      }
      append(piece + "\"")
    }

    /// Appends `scalar` to `piece` as a JSON string holds it, escaping quotes, backslashes and
    /// control characters.
    private static func escape(_ scalar: Unicode.Scalar, into piece: inout String) {
      switch scalar {
      case "\"": piece += "\\\""
      case "\\": piece += "\\\\"
      case "\n": piece += "\\n"
      case "\r": piece += "\\r"
      case "\t": piece += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        piece += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: piece.unicodeScalars.append(scalar)
      }
    }
  }
}

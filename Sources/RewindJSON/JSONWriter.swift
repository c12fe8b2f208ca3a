/// Serializes ``JSONValue``s to compact UTF-8 (``JSONIndenter`` indents that for people).
///
/// Strings escape `"`, `\` and the control characters below U+0020 (`\b` `\t` `\n` `\f` `\r`
/// by name, the others as `\u00XX` with lowercase hex) and nothing else: `/`, DEL, non-ASCII
/// text and U+2028/U+2029 are written as raw UTF-8, which RFC 8259 allows. Numbers are written as
/// their literal text. Object members are written in their stored order, so the output is a pure
/// function of the value.
struct JSONWriter {
  var output: [UInt8]

  init(output: [UInt8] = []) {
    self.output = output
  }

  /// Writes `value`.
  ///
  /// Recurses once per nesting level; values from ``JSONParser`` are bounded by
  /// ``JSONLimits/maxDepth``.
  mutating func write(_ value: JSONValue) {
    switch value {
    case .null:
      append("null")
    case .bool(let flag):
      append(flag ? "true" : "false")
    case .number(let text):
      output.append(contentsOf: text.utf8)
    case .string(let text):
      writeString(text)
    case .array(let elements):
      guard !elements.isEmpty else { return append("[]") }
      output.append(.openBracket)
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(.comma) }
        write(element)
      }
      output.append(.closeBracket)
    case .object(let members):
      guard !members.isEmpty else { return append("{}") }
      output.append(.openBrace)
      for (index, member) in members.enumerated() {
        if index > 0 { output.append(.comma) }
        writeString(member.key)
        output.append(.colon)
        write(member.value)
      }
      output.append(.closeBrace)
    }
  }

  /// Writes a quoted, escaped string. Runs of bytes that need no escape are copied whole.
  mutating func writeString(_ text: String) {
    Self.appendString(text, to: &output)
  }

  /// Appends `text` quoted and escaped, as ``writeString(_:)`` writes it, to `output`.
  @inline(__always)
  static func appendString(_ text: String, to output: inout [UInt8]) {
    output.append(.quote)
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard byte < 0x20 || byte == .quote || byte == .backslash else { continue }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        appendEscape(for: byte, to: &output)
        runStart = index + 1
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
    output.append(.quote)
  }

  private static func appendEscape(for byte: UInt8, to output: inout [UInt8]) {
    output.append(.backslash)
    switch byte {
    case .quote, .backslash: output.append(byte)
    case 0x08: output.append(0x62)  // b
    case 0x09: output.append(0x74)  // t
    case 0x0A: output.append(0x6E)  // n
    case 0x0C: output.append(0x66)  // f
    case 0x0D: output.append(0x72)  // r
    default:
      let hexDigits: StaticString = "0123456789abcdef"
      output.append(contentsOf: [.lowercaseU, .digitZero, .digitZero])
      hexDigits.withUTF8Buffer { digits in
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
      }
    }
  }

  private mutating func append(_ literal: StaticString) {
    literal.withUTF8Buffer { output.append(contentsOf: $0) }
  }
}

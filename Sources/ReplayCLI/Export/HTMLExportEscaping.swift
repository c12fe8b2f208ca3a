import RewindJSON

/// Writes JSON so that it can sit inside an HTML `<script type="application/json">` element and
/// be nothing but data there.
///
/// The HTML parser ends a script element at the first `</script`, and treats `<!--` specially,
/// whatever JavaScript or JSON is inside. So every `<`, `>` and `&` is written as a JSON escape
/// (`\u003c`, `\u003e`, `\u0026`), as are U+2028 and U+2029 (line terminators to older
/// JavaScript). These characters can only occur inside JSON strings, where the escapes mean
/// the same characters: the text is still valid JSON, with the same value.
enum HTMLExportEscaping {
  /// The compact JSON text of `value`, as UTF-8, with `<`, `>`, `&`, U+2028 and U+2029 escaped.
  ///
  /// ```swift
  /// HTMLExportEscaping.scriptSafeJSON(.string("</script>"))  // "\u003c/script\u003e"
  /// ```
  /// - Complexity: O(*n*) in the size of the JSON text.
  static func scriptSafeJSON(_ value: JSONValue) -> [UInt8] {
    escapeForScript(value.serializedBytes)
  }

  /// `json` (UTF-8 JSON text) with `<`, `>`, `&`, U+2028 and U+2029 written as `\uXXXX`.
  static func escapeForScript(_ json: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(json.count + json.count / 64)
    json.withUnsafeBufferPointer { appendEscapedForScript($0, to: &output) }
    return output
  }

  /// Appends `json` to `output`, escaped as ``escapeForScript(_:)`` escapes it; the runs
  /// between the characters escaped are copied whole.
  static func appendEscapedForScript(_ json: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
    var copied = 0
    var index = 0
    func escape(_ escape: String, skipping count: Int) {
      output.append(contentsOf: json[copied..<index])
      output.append(contentsOf: escape.utf8)
      index += count
      copied = index
    }
    while index < json.count {
      switch json[index] {
      case UInt8(ascii: "<"): escape(#"\u003c"#, skipping: 1)
      case UInt8(ascii: ">"): escape(#"\u003e"#, skipping: 1)
      case UInt8(ascii: "&"): escape(#"\u0026"#, skipping: 1)
      case 0xE2
      where index + 2 < json.count && json[index + 1] == 0x80
        && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
        // U+2028 LINE SEPARATOR is E2 80 A8 in UTF-8, U+2029 PARAGRAPH SEPARATOR E2 80 A9.
        escape(json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#, skipping: 3)
      default: index += 1
      }
    }
    output.append(contentsOf: json[copied..<json.count])
  }
}

/// JSON text written into a page's `<script type="application/json">` element, escaped as it is
/// written (``HTMLExportEscaping``): escaping byte by byte, a piece at a time is escaping the
/// whole, so the data is never held apart from the page.
struct ScriptJSONWriter {
  /// The page so far.
  var bytes: [UInt8]

  /// Appends JSON text (or a piece of it).
  mutating func append(_ json: [UInt8]) {
    json.withUnsafeBufferPointer { HTMLExportEscaping.appendEscapedForScript($0, to: &bytes) }
  }

  /// Appends a piece of the document's own structure (`{"states":`, `,`), which holds nothing
  /// to escape.
  mutating func append(_ text: String) { append(Array(text.utf8)) }

  /// Appends a value's compact JSON text.
  mutating func append(_ value: JSONValue) { append(value.serializedBytes) }
}

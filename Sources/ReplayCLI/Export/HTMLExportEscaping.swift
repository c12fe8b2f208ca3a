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
    appendEscapedForScript(json, to: &output)
    return output
  }

  /// Appends `json` to `output`, escaped as ``escapeForScript(_:)`` escapes it.
  static func appendEscapedForScript(_ json: [UInt8], to output: inout [UInt8]) {
    var index = 0
    while index < json.count {
      let byte = json[index]
      switch byte {
      case UInt8(ascii: "<"): output.append(contentsOf: #"\u003c"#.utf8)
      case UInt8(ascii: ">"): output.append(contentsOf: #"\u003e"#.utf8)
      case UInt8(ascii: "&"): output.append(contentsOf: #"\u0026"#.utf8)
      case 0xE2
      where index + 2 < json.count && json[index + 1] == 0x80
        && (json[index + 2] == 0xA8 || json[index + 2] == 0xA9):
        // U+2028 LINE SEPARATOR is E2 80 A8 in UTF-8, U+2029 PARAGRAPH SEPARATOR E2 80 A9.
        output.append(contentsOf: (json[index + 2] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
        index += 2
      default: output.append(byte)
      }
      index += 1
    }
  }
}

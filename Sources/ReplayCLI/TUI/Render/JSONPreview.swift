import RewindJSON

/// Compact JSON for one line of the screen, written only as far as it can be seen: a folded
/// array of a million elements costs no more than the width of its row.
enum JSONPreview {
  /// The compact JSON text of `value`, cut to at most `width` columns with `…` when longer.
  ///
  /// Strings are escaped as in JSON (`\"`, `\\`, `\n`, `\u001b`), so the text is one line and
  /// holds no control characters.
  /// - Complexity: O(`width`), whatever the size of `value`.
  static func text(_ value: JSONValue, width: Int) -> String {
    guard width > 0 else { return "" }
    var writer = Writer(limit: width + 1)
    writer.write(value)
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

    /// Writes `value` as compact JSON, stopping at the limit.
    mutating func write(_ value: JSONValue) {
      guard !isFull else { return }
      switch value {
      case .null: append("null")
      case .bool(let flag): append(flag ? "true" : "false")
      case .number(let literal): append(literal)
      case .string(let string): writeString(string)
      case .array(let elements):
        append("[")
        for (index, element) in elements.enumerated() {
          if isFull { return }
          if index > 0 { append(",") }
          write(element)
        }
        append("]")
      case .object(let members):
        append("{")
        for (index, member) in members.enumerated() {
          if isFull { return }
          if index > 0 { append(",") }
          writeString(member.key)
          append(":")
          write(member.value)
        }
        append("}")
      }
    }

    /// Writes `string` quoted and escaped as in JSON.
    mutating func writeString(_ string: String) {
      var piece = "\""
      for scalar in string.unicodeScalars {
        if count + piece.count > limit { break }
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
      append(piece + "\"")
    }
  }
}

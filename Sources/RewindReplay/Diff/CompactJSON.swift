import RewindJSON

/// Writes a `JSONValue` as compact JSON text (no whitespace), for one-line diff output.
///
/// This is the diff's own small writer so that rendering does not depend on the shape of
/// RewindJSON's writer. Members are written in their stored order and numbers as their literal
/// text; strings escape `"`, `\` and control characters, so the text is always one line.
enum CompactJSON {
  /// The compact JSON text of `value`, or a prefix of it ending in `…` when it is longer than
  /// `maxWidth` characters.
  ///
  /// - Parameters:
  ///   - value: The value to write.
  ///   - maxWidth: The most characters to return, `…` included; values below 1 count as 1.
  /// - Complexity: O(min(*n*, `maxWidth`)) for a value whose text has *n* characters: writing
  ///   stops soon after the limit is passed.
  static func text(_ value: JSONValue, maxWidth: Int = .max) -> String {
    let width = max(1, maxWidth)
    // Stop writing well past the width, counted in scalars (never fewer than characters), so
    // that huge values cost no more than their visible prefix.
    let (scalarLimit, overflow) = width.multipliedReportingOverflow(by: 4)
    var writer = Writer(limit: overflow ? .max - 1 : scalarLimit)
    writer.write(value)
    let text = String(writer.scalars)
    guard writer.isTruncated || text.count > width else { return text }
    return String(text.prefix(width - 1)) + "…"
  }

  /// Appends `text` as a JSON string literal (quoted and escaped) to `output`.
  static func writeString(_ text: String, to output: inout String) {
    var writer = Writer(limit: .max - 1)
    writer.writeString(text)
    output.append(String(writer.scalars))
  }
}

/// Accumulates compact JSON text, stopping once more than `limit` scalars have been written.
private struct Writer {
  private(set) var scalars = String.UnicodeScalarView()
  /// How many scalars `scalars` holds (kept here because counting a view is O(n)).
  private var count = 0
  private let limit: Int
  private(set) var isTruncated = false

  init(limit: Int) {
    self.limit = limit
  }

  mutating func write(_ value: JSONValue) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .number(let literal): append(literal)
    case .string(let text): writeString(text)
    case .array(let elements):
      append("[")
      for (index, element) in elements.enumerated() where !isTruncated {
        if index > 0 { append(",") }
        write(element)
      }
      append("]")
    case .object(let members):
      append("{")
      for (index, member) in members.enumerated() where !isTruncated {
        if index > 0 { append(",") }
        writeString(member.key)
        append(":")
        write(member.value)
      }
      append("}")
    }
  }

  mutating func writeString(_ text: String) {
    append("\"")
    for scalar in text.unicodeScalars where !isTruncated {
      switch scalar {
      case "\"": append("\\\"")
      case "\\": append("\\\\")
      case "\n": append("\\n")
      case "\r": append("\\r")
      case "\t": append("\\t")
      case "\u{08}": append("\\b")
      case "\u{0C}": append("\\f")
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
      default: append(scalar)
      }
    }
    append("\"")
  }

  private mutating func append(_ text: String) {
    for scalar in text.unicodeScalars {
      append(scalar)
    }
  }

  private mutating func append(_ scalar: Unicode.Scalar) {
    guard !isTruncated else { return }
    guard count < limit else {
      isTruncated = true
      return
    }
    scalars.append(scalar)
    count += 1
  }
}

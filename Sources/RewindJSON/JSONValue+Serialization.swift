extension JSONValue {
  /// Appends the value's compact JSON text, in UTF-8, to `bytes`.
  ///
  /// The output has no whitespace, keeps object members in order, writes numbers as their
  /// literal text and escapes only what JSON requires: `"`, `\` and control characters.
  /// Non-ASCII text, `/` and U+2028/U+2029 are written raw, so the same value always gives the
  /// same bytes.
  ///
  /// Numbers are not re-validated: values from ``JSONParser`` and ``RewindJSONEncoder`` always
  /// hold valid literals, and a hand-built `.number` must too.
  /// - Complexity: O(*n*) in the size of the output.
  public func write(into bytes: inout [UInt8]) {
    var writer = JSONWriter(output: bytes)
    bytes = []
    writer.write(self)
    bytes = writer.output
  }

  /// The value's compact JSON text as UTF-8 bytes. See ``write(into:)``.
  public var serializedBytes: [UInt8] {
    var writer = JSONWriter()
    writer.write(self)
    return writer.output
  }

  /// The value's compact JSON text. See ``write(into:)``.
  public var jsonText: String {
    String(decoding: serializedBytes, as: UTF8.self)
  }

  /// The value as indented JSON text, for people to read.
  ///
  /// Each element and member goes on its own line, `indent` spaces deeper than its container;
  /// keys are followed by `": "`; empty arrays and objects stay `[]` and `{}`. There is no
  /// trailing newline.
  ///
  /// ```swift
  /// try JSONParser.parse(#"{"a":[1,2],"b":{}}"#).prettyText()
  /// // {
  /// //   "a": [
  /// //     1,
  /// //     2
  /// //   ],
  /// //   "b": {}
  /// // }
  /// ```
  /// - Parameter indent: Spaces per nesting level; negative counts as 0.
  public func prettyText(indent: Int = 2) -> String {
    let indented = serializedBytes.withUnsafeBytes {
      JSONIndenter.indented($0, indent: indent)
    }
    return String(decoding: indented, as: UTF8.self)
  }
}

extension JSONValue: CustomStringConvertible {
  /// The value's compact JSON text, the same as ``jsonText``.
  public var description: String { jsonText }
}

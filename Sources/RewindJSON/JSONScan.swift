/// Checks single JSON tokens in place, as ``JSONParser`` checks them inside a document: for
/// readers that know the layout of a text and need to check only some of it.
package enum JSONScan {
  /// The end of the string whose opening quote is at `start` (after its closing quote), if it
  /// is a valid JSON string within `limits`.
  /// - Returns: The end offset, and whether the string has escapes.
  package static func string(
    in bytes: UnsafeRawBufferPointer, at start: Int, limits: JSONLimits
  ) -> (end: Int, isEscaped: Bool)? {
    guard start < bytes.count, bytes[start] == .quote else { return nil }
    var reader = JSONReader(bytes: bytes, limits: limits)
    reader.offset = start
    let isEscaped: Bool
    do {
      reader.offset += 1
      try reader.skipStringContent()
      if bytes[reader.offset] == .quote {
        guard reader.offset - start - 1 <= limits.maxStringBytes else { return nil }
        isEscaped = false
        reader.offset += 1
      } else {
        reader.offset = start
        _ = try reader.readString()
        isEscaped = true
      }
    } catch {
      return nil
    }
    return (reader.offset, isEscaped)
  }

  /// The offset of the first byte of the value that starts at or after `offset` (past any
  /// whitespace), in a text known to be valid.
  package static func valueStart(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    JSONLazyValues.elementStart(in: bytes, after: offset)
  }

  /// The offset after the closing quote of the string whose opening quote is at `quote`, in a
  /// text known to be valid.
  private static func afterString(in bytes: UnsafeRawBufferPointer, at quote: Int) -> Int {
    var i = quote + 1
    while i < bytes.count, bytes[i] != .quote { i += bytes[i] == .backslash ? 2 : 1 }
    return i + 1
  }

  /// The end of the JSON value whose first byte is at `start`, in a text known to be valid
  /// (read before): after a string's closing quote, a container's closing bracket, or a scalar's
  /// last byte.
  package static func valueEnd(in bytes: UnsafeRawBufferPointer, at start: Int) -> Int {
    var i = start
    var depth = 0
    while i < bytes.count {
      switch bytes[i] {
      case .quote:
        i = afterString(in: bytes, at: i)
        if depth == 0 { return min(i, bytes.count) }
        continue
      case .openBracket, .openBrace:
        depth += 1
      case .closeBracket, .closeBrace:
        depth -= 1
        if depth == 0 { return i + 1 }
      default:
        if depth == 0 {
          while i < bytes.count {
            switch bytes[i] {
            case .comma, .closeBracket, .closeBrace, .space, .tab, .lineFeed, .carriageReturn:
              return i
            default: i += 1
            }
          }
          return i
        }
      }
      i += 1
    }
    return min(i, bytes.count)
  }

  /// Calls `body` with each member of the object that is the whole of `bytes` — a text known to
  /// be valid (read before) — in order: its key, and where its value's text is. Nothing is
  /// built but one key at a time, whatever the values hold; nothing is called when the text is
  /// not an object.
  package static func forEachMember(
    ofObjectIn bytes: UnsafeRawBufferPointer, _ body: (_ key: String, _ value: Range<Int>) -> Void
  ) {
    let start = JSONLazyValues.elementStart(in: bytes, after: 0)
    guard start < bytes.count, bytes[start] == .openBrace else { return }
    JSONTextMember.forEach(in: bytes, object: start) { member in
      body(
        JSONTape.string(member.key, in: bytes),
        member.valueStart..<valueEnd(in: bytes, at: member.valueStart))
      return true
    }
  }

  /// Calls `body` with where each element's text is, in order, for the array that is the whole
  /// of `bytes` — a text known to be valid (read before). Nothing is built; nothing is called
  /// when the text is not an array.
  package static func forEachElement(
    ofArrayIn bytes: UnsafeRawBufferPointer, _ body: (_ element: Range<Int>) -> Void
  ) {
    let start = JSONLazyValues.elementStart(in: bytes, after: 0)
    guard start < bytes.count, bytes[start] == .openBracket else { return }
    var position = JSONLazyValues.elementStart(in: bytes, after: start + 1)
    while position < bytes.count, bytes[position] != .closeBracket {
      let end = valueEnd(in: bytes, at: position)
      body(position..<end)
      position = JSONLazyValues.elementStart(in: bytes, after: end)
      guard position < bytes.count, bytes[position] == .comma else { return }
      position = JSONLazyValues.elementStart(in: bytes, after: position + 1)
    }
  }

  /// Where the first member's key or element of the container whose opening bracket is at
  /// `start` is, or its closing bracket when it is empty, in a text known to be valid.
  package static func firstChild(ofContainerAt start: Int, in bytes: UnsafeRawBufferPointer) -> Int
  {
    JSONLazyValues.elementStart(in: bytes, after: start + 1)
  }

  /// Where the element after the one that starts at `start` is, or the array's closing bracket
  /// when it was the last, in a text known to be valid.
  package static func elementAfter(_ start: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    JSONLazyValues.nextElement(in: bytes, after: start)
  }

  /// Where the member after the one whose key's opening quote is at `keyStart` starts (its
  /// key's quote, or the object's closing brace when it was the last), in a text known to be
  /// valid.
  package static func memberAfter(_ keyStart: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    JSONTextMember.at(keyStart, in: bytes).next
  }

  /// Where the value of the member whose key's opening quote is at `keyStart` starts, in a text
  /// known to be valid: found without reading the value.
  package static func memberValue(at keyStart: Int, in bytes: UnsafeRawBufferPointer) -> Int {
    JSONTextMember.valueStart(after: JSONTextMember.key(at: keyStart, in: bytes), in: bytes)
  }

  /// The key of the member whose key's opening quote is at `keyStart`, unescaped, in a text
  /// known to be valid: read without reading the value.
  package static func key(at keyStart: Int, in bytes: UnsafeRawBufferPointer) -> String {
    JSONTape.string(JSONTextMember.key(at: keyStart, in: bytes), in: bytes)
  }

  /// Whether the key of the member whose key's opening quote is at `keyStart` is `key`, scalar
  /// for scalar, in a text known to be valid: its bytes compared where it has no escapes,
  /// unescaped otherwise.
  package static func key(
    at keyStart: Int, in bytes: UnsafeRawBufferPointer, equals key: String
  ) -> Bool {
    let entry = JSONTextMember.key(at: keyStart, in: bytes)
    guard !entry.isEscaped else {
      return JSONTape.string(entry, in: bytes).unicodeScalars.elementsEqual(key.unicodeScalars)
    }
    var key = key
    return key.withUTF8 { UnsafeRawBufferPointer($0).elementsEqual(bytes[entry.contentRange]) }
  }
}

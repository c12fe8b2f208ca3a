import RewindJSON

/// Where the parts of an action line written by the recorder are:
/// `{"c":"XXXXXXXX","kind":"action","seq":N,"time":T,"type":"NAME","site":"S","cause":K,"action":VALUE}`,
/// with `time`, `site` and `cause` optional and `,"sanitized":true` optional at the end.
///
/// ``init(_:limits:)`` checks every byte outside `VALUE` as the JSON parser would check it
/// inside the whole line; a caller that loads `VALUE` with ``depth`` and ``elements`` (so that
/// the limits count the line around it) has then checked the whole line — at a third of the
/// cost, since the fixed members need no tape.
struct ActionLineLayout {
  /// The bytes of `VALUE`.
  var payload: Range<Int>
  /// The quoted `NAME`, quotes included.
  var type: Range<Int>
  /// Whether `NAME` has escapes.
  var typeIsEscaped: Bool
  /// The containers `VALUE` is nested in: the line's object.
  let depth = 1
  /// The line's members, which count against the element limit.
  var elements: Int

  /// Reads the layout of `line`, or returns `nil` when the line is laid out any other way (the
  /// caller then parses it whole).
  ///
  /// - Parameter verifiedSeq: The line's seq when the indexer already checked the line up to
  ///   it (``LogEntry/isRecorderLayout``): its checksum's form, `"kind":"action"` and the seq's
  ///   digits; the check resumes after them.
  init?(_ line: UnsafeRawBufferPointer, limits: JSONLimits, verifiedSeq: Int? = nil) {
    guard limits.maxDepth >= 1 else { return nil }
    var cursor = Cursor(line: line)
    let start: StaticString = #"{"c":"00000000","kind":"action","seq":"#
    if let seq = verifiedSeq, seq >= 0 {
      cursor.offset = RecordPeek.endOfActionSeq(seq)
      guard cursor.offset - start.utf8CodeUnitCount <= limits.maxNumberLength,
        cursor.offset <= line.count
      else { return nil }
    } else {
      guard cursor.skip(#"{"c":""#), cursor.skipHexDigits(),
        cursor.skip(#"","kind":"action","seq":"#),
        cursor.skipNumber(limit: limits.maxNumberLength)
      else { return nil }
    }
    elements = 3
    if cursor.skip(#","time":"#) {
      guard cursor.skipNumber(limit: limits.maxNumberLength) else { return nil }
      elements += 1
    }
    guard cursor.skip(#","type":"#),
      let (typeEnd, isEscaped) = JSONScan.string(in: line, at: cursor.offset, limits: limits)
    else { return nil }
    type = cursor.offset..<typeEnd
    typeIsEscaped = isEscaped
    cursor.offset = typeEnd
    if cursor.skip(#","site":"#) {
      guard let (siteEnd, _) = JSONScan.string(in: line, at: cursor.offset, limits: limits)
      else { return nil }
      cursor.offset = siteEnd
      elements += 2
    }
    if cursor.skip(#","cause":"#) {
      guard cursor.skipNumber(limit: limits.maxNumberLength) else { return nil }
      elements += 2
    }
    if cursor.skip(#","via":"viewer""#) { elements += 2 }
    guard cursor.skip(#","action":"#) else { return nil }
    elements += 2
    let sanitized: StaticString = #","sanitized":true}"#
    if cursor.endsWith(sanitized) {
      payload = cursor.offset..<(line.count - sanitized.utf8CodeUnitCount)
      elements += 1
    } else if cursor.endsWith("}") {
      payload = cursor.offset..<(line.count - 1)
    } else {
      return nil
    }
    guard elements <= limits.maxElements, !payload.isEmpty else { return nil }
  }

  /// The action's type name, unescaped.
  static func typeName(quoted: UnsafeRawBufferPointer, isEscaped: Bool) -> String {
    if !isEscaped {
      return String(
        decoding: UnsafeRawBufferPointer(rebasing: quoted.dropFirst().dropLast()), as: UTF8.self)
    }
    return (try? JSONParser.parse(quoted))?.stringValue ?? ""
  }

  /// A position in a line and the literal texts expected there.
  private struct Cursor {
    let line: UnsafeRawBufferPointer
    var offset = 0

    /// Moves past `text` when the line has it here.
    @inline(__always)
    mutating func skip(_ text: StaticString) -> Bool {
      guard RecordPeek.matches(text, in: line, at: offset) else { return false }
      offset += text.utf8CodeUnitCount
      return true
    }

    /// Moves past a number when the line has a valid JSON number here of at most `limit`
    /// characters: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func skipNumber(limit: Int) -> Bool {
      let start = offset
      var i = offset
      let end = line.count
      func digits() -> Int {
        let first = i
        while i < end && line[i] &- 0x30 < 10 { i += 1 }
        return i - first
      }
      if i < end && line[i] == UInt8(ascii: "-") { i += 1 }
      guard i < end else { return false }
      if line[i] == UInt8(ascii: "0") {
        i += 1
      } else if digits() == 0 {
        return false
      }
      if i < end && line[i] == UInt8(ascii: ".") {
        i += 1
        guard digits() > 0 else { return false }
      }
      if i < end && (line[i] == UInt8(ascii: "e") || line[i] == UInt8(ascii: "E")) {
        i += 1
        if i < end && (line[i] == UInt8(ascii: "+") || line[i] == UInt8(ascii: "-")) { i += 1 }
        guard digits() > 0 else { return false }
      }
      guard i - start <= limit else { return false }
      offset = i
      return true
    }

    /// Moves past eight lowercase hexadecimal digits when the line has them here.
    mutating func skipHexDigits() -> Bool {
      guard offset + 8 <= line.count else { return false }
      var isHex = true
      for k in 0..<8 {
        let byte = line[offset + k]
        isHex = isHex && (byte &- 0x30 < 10 || byte &- 0x61 < 6)
      }
      guard isHex else { return false }
      offset += 8
      return true
    }

    /// Whether the line ends with `text`, after the cursor.
    func endsWith(_ text: StaticString) -> Bool {
      text.withUTF8Buffer { text in
        guard line.count - text.count >= offset else { return false }
        let start = line.count - text.count
        for k in 0..<text.count where line[start + k] != text[k] { return false }
        return true
      }
    }
  }
}

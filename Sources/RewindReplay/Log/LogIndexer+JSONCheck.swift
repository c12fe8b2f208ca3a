import RewindJSON

/// The JSON check of a log's lines at open, for the lines the reading thread's pass had not
/// reached: many lines a call (``JSONValidator/linesAreValid(_:)``), one at a time after a group
/// with a line that is not valid JSON, so that its fault is found and reported as before.
extension LogIndexer {
  /// Bytes of lines checked at once here: the lines ahead of this one that are read, up to the
  /// last whole line in this many bytes.
  static let jsonGroupBytes = 32 << 10

  /// Whether `line`, starting at `start`, is valid JSON, checked here (the pass ahead had not
  /// reached it): with the lines after it that are read, in one pass, unless a line among those
  /// was found not to be valid (then one at a time).
  mutating func validate(_ line: UnsafeRawBufferPointer, at start: Int) -> Bool {
    if start < validJSONEnd { return true }
    if validator == nil { validator = JSONValidator(limits: limits.json) }
    if start >= singleJSONEnd {
      // Up to the last newline before the group's end (the line's own, at least).
      let memory = bytes.memory
      let lineEnd = start + line.count
      var end = min(readEnd, start + Self.jsonGroupBytes)
      while end > lineEnd, memory[end - 1] != UInt8(ascii: "\n") { end -= 1 }
      end = max(end, lineEnd)
      if validator?.linesAreValid(bytes.slice(start, end)) != false {
        validJSONEnd = end
        return true
      }
      singleJSONEnd = end
    }
    return validator?.isValid(line) ?? true
  }
}

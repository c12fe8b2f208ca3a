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
}

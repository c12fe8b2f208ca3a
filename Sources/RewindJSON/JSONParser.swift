/// Parses UTF-8 JSON text into a ``JSONValue``, strictly by RFC 8259.
///
/// The parser accepts exactly the JSON texts of RFC 8259 that are valid UTF-8 and rejects
/// everything else with a ``JSONParseError`` that names the byte offset and the reason:
/// leading zeros, `+1`, `.5`, `1.`, trailing commas, single quotes, comments, `NaN`,
/// raw control characters in strings, invalid escapes, unpaired `\u` surrogates, malformed
/// UTF-8 anywhere, a byte order mark and anything but whitespace after the value. Being stricter
/// than the RFC, it also rejects objects with a duplicate key: a log line whose meaning depends
/// on which duplicate a reader keeps is not evidence.
///
/// It never recurses: open arrays and objects live on an explicit stack, so deeply nested input
/// ends in ``JSONParseError/Reason/tooDeep(limit:)`` instead of a stack overflow, on any thread.
///
/// ```swift
/// let value = try JSONParser.parse(#"{"add":{"title":"Buy milk"}}"#)
/// value["add"]?["title"]?.stringValue  // "Buy milk"
/// ```
public enum JSONParser {
  /// Parses one JSON text from raw bytes.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8 JSON text. Whitespace may surround the value; nothing else may.
  ///   - limits: Bounds on depth, string and number length and value count.
  /// - Returns: The value, with numbers kept as their literal text.
  /// - Throws: ``JSONParseError`` with the offset, from the start of `bytes`, of the first
  ///   problem.
  /// - Complexity: O(*n*) in the length of `bytes`, in a single pass.
  public static func parse(
    _ bytes: UnsafeRawBufferPointer,
    limits: JSONLimits = .default
  ) throws(JSONParseError) -> JSONValue {
    var reader = JSONReader(bytes: bytes, limits: limits)
    return try reader.readDocument()
  }

  /// The error ``parse(_:limits:)`` throws for `bytes`, or `nil` when they are one valid JSON
  /// text — found by the same reading without keeping the values it reads, so that the exact
  /// error of a huge invalid text costs memory for its open objects' keys only.
  /// - Complexity: O(*n*) in the length of `bytes`, in a single pass.
  public static func firstError(
    in bytes: UnsafeRawBufferPointer,
    limits: JSONLimits = .default
  ) -> JSONParseError? {
    var reader = JSONReader(bytes: bytes, limits: limits)
    do {
      _ = try reader.readDocument(keepingValues: false)
      return nil
    } catch {
      return error
    }
  }

  /// Parses one JSON text from an array of bytes.
  ///
  /// - Throws: ``JSONParseError``; offsets count from the start of the array.
  /// - Complexity: O(*n*) in the number of bytes.
  public static func parse(
    _ bytes: [UInt8],
    limits: JSONLimits = .default
  ) throws(JSONParseError) -> JSONValue {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(JSONParseError) in try parse(buffer, limits: limits) }
    }
    return try result.get()
  }

  /// Parses one JSON text from any collection of bytes, such as `Data` or an `ArraySlice`.
  ///
  /// Contiguous collections are read in place; others are copied into an array first.
  /// - Throws: ``JSONParseError``; offsets count from the collection's first byte.
  /// - Complexity: O(*n*) in the number of bytes.
  public static func parse(
    _ bytes: some Collection<UInt8>,
    limits: JSONLimits = .default
  ) throws(JSONParseError) -> JSONValue {
    let inPlace = bytes.withContiguousStorageIfAvailable { buffer in
      Result { () throws(JSONParseError) in
        try parse(UnsafeRawBufferPointer(buffer), limits: limits)
      }
    }
    if let inPlace {
      return try inPlace.get()
    }
    return try parse(Array(bytes), limits: limits)
  }

  /// Parses one JSON text from a string, reading its UTF-8 form.
  ///
  /// - Throws: ``JSONParseError``; offsets count UTF-8 bytes from the start of `text`.
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  public static func parse(
    _ text: String,
    limits: JSONLimits = .default
  ) throws(JSONParseError) -> JSONValue {
    var text = text
    let result = text.withUTF8 { buffer in
      Result { () throws(JSONParseError) in
        try parse(UnsafeRawBufferPointer(buffer), limits: limits)
      }
    }
    return try result.get()
  }
}

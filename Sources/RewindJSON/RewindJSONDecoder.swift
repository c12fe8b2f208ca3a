/// Decodes `Decodable` values from JSON, with the same results as Foundation's `JSONDecoder`
/// with its default strategies.
///
/// `Date` is read as seconds since 2001 (its own `Codable`), `Data` from Base64, `URL` from a
/// string and `Decimal` from a number. Integers must be whole and in range: `1.0` and `1e2`
/// decode as `Int` like in Foundation, `300` as `Int8` is `DecodingError.dataCorrupted`, never a
/// trap. Errors are the standard `DecodingError`s with exact coding paths; their
/// ``Swift/DecodingError/summary`` reads like `add.title: key not found`.
///
/// ```swift
/// let action = try RewindJSONDecoder().decode(Action.self, from: Array(line.utf8))
/// ```
public struct RewindJSONDecoder: Sendable {
  /// Values that `init(from:)` implementations can read through `decoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable]

  /// How many tape entries an array's elements or an object's members may take before it is
  /// read lazily, one value at a time from the text (``JSONTapeEntry/isLazy``). Only for testing that path: the
  /// fuzz targets, a package of their own, set it low so that small inputs reach it.
  @_spi(Testing) public var lazyContainerEntries = JSONTape.lazyContainerEntries

  /// Creates a decoder.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
  }

  /// Decodes a `T` from a parsed value.
  ///
  /// The value is written out and read back as text: one decoder serves both entry points, and
  /// its errors are the same for a value and for its text.
  /// - Throws: `DecodingError` when the value does not have the shape `T` expects (or, built by
  ///   hand, is not valid JSON: a duplicate key, a malformed number), and any error `T`'s
  ///   `init(from:)` throws.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    // Numbers are written out as their text: one that is not a JSON literal could read back as
    // something else (`1,2` as two elements).
    var path: [any CodingKey] = []
    try Self.checkNumbers(in: value, path: &path)
    return try value.serializedBytes.withUnsafeBytes { bytes in
      let document = JSONTapeDocument(limits: .unlimited, userInfo: userInfo)
      guard document.load(bytes) else {
        var reason = "the value is not valid JSON"
        do {
          _ = try JSONParser.parse(bytes, limits: .unlimited)
        } catch {
          reason += ": \(error)"
        }
        throw DecodingError.dataCorrupted(
          DecodingError.Context(codingPath: [], debugDescription: reason))
      }
      return try document.decode(type, at: document.root)
    }
  }

  /// Parses `bytes` and decodes a `T` from them.
  ///
  /// - Throws: ``JSONParseError`` when `bytes` are not valid JSON within `limits`;
  ///   `DecodingError` when the JSON does not have the shape `T` expects.
  public func decode<T: Decodable>(
    _ type: T.Type,
    from bytes: UnsafeRawBufferPointer,
    limits: JSONLimits = .default
  ) throws -> T {
    let document = try loaded(bytes, limits: limits)
    return try document.decode(type, at: document.root)
  }

  /// Parses `bytes` and decodes a `T` from them through its ``JSONDirectDecodable/init(json:)``,
  /// as replay does for an app's actions and states: for testing that path against
  /// `init(from:)`.
  @_spi(Testing)
  public func decodeDirectly<T: JSONDirectDecodable>(
    _ type: T.Type, from bytes: UnsafeRawBufferPointer, limits: JSONLimits = .default
  ) throws -> T {
    let document = try loaded(bytes, limits: limits)
    return try T(json: JSONDirectReader(document: document, index: document.root))
  }

  /// A document with `bytes` loaded.
  /// - Throws: ``JSONParseError`` when `bytes` are not valid JSON within `limits`.
  private func loaded(
    _ bytes: UnsafeRawBufferPointer, limits: JSONLimits
  ) throws -> JSONTapeDocument {
    let document = JSONTapeDocument(
      limits: limits, userInfo: userInfo, lazyContainerEntries: lazyContainerEntries)
    guard document.load(bytes) else {
      // Loading only says whether the text is valid; the parser says where and why not. They
      // accept exactly the same texts (`JSONTapeDifferentialTests`).
      _ = try JSONParser.parse(bytes, limits: limits)
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [],
          debugDescription: "Rewind's JSON reader rejected text its parser accepts; please report"
            + " this with the input"))
    }
    return document
  }

  /// Parses `bytes` and decodes a `T` from them.
  ///
  /// - Throws: ``JSONParseError`` when `bytes` are not valid JSON within `limits`;
  ///   `DecodingError` when the JSON does not have the shape `T` expects.
  public func decode<T: Decodable>(
    _ type: T.Type,
    from bytes: [UInt8],
    limits: JSONLimits = .default
  ) throws -> T {
    try bytes.withUnsafeBytes { try decode(type, from: $0, limits: limits) }
  }

  /// Parses any collection of bytes, such as `Data`, and decodes a `T` from them.
  ///
  /// - Throws: ``JSONParseError`` when `bytes` are not valid JSON within `limits`;
  ///   `DecodingError` when the JSON does not have the shape `T` expects.
  public func decode<T: Decodable>(
    _ type: T.Type,
    from bytes: some Collection<UInt8>,
    limits: JSONLimits = .default
  ) throws -> T {
    let inPlace = try bytes.withContiguousStorageIfAvailable { buffer in
      try decode(type, from: UnsafeRawBufferPointer(buffer), limits: limits)
    }
    if let inPlace { return inPlace }
    return try decode(type, from: Array(bytes), limits: limits)
  }

  /// Throws at the first number whose text is not a JSON number literal.
  private static func checkNumbers(in value: JSONValue, path: inout [any CodingKey]) throws {
    switch value {
    case .null, .bool, .string: return
    case .number(let text):
      guard JSONNumberText.isValid(text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: path, debugDescription: "number text \"\(text)\" is not a JSON number"))
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        path.append(JSONIndexKey(index: index))
        try checkNumbers(in: element, path: &path)
        path.removeLast()
      }
    case .object(let members):
      for member in members {
        path.append(JSONKey(stringValue: member.key))
        try checkNumbers(in: member.value, path: &path)
        path.removeLast()
      }
    }
  }
}

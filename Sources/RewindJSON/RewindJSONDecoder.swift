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

  /// Creates a decoder.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
  }

  /// Decodes a `T` from a parsed value.
  ///
  /// - Throws: `DecodingError` when the value does not have the shape `T` expects, and any error
  ///   `T`'s `init(from:)` throws.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    let decoder = JSONDecoderImpl(value: value, path: .root, options: userInfo)
    return try decoder.decodeChild(type, from: value, parent: .root, key: nil)
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
    // Straight from the bytes when they load; any failure is decided by the `JSONValue` path,
    // which gives the exact error.
    let document = JSONTapeDocument(limits: limits, userInfo: userInfo)
    if document.load(bytes), let value = try? document.decode(type, at: document.root) {
      return value
    }
    return try decode(type, from: JSONParser.parse(bytes, limits: limits))
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
}

/// Encodes `Encodable` values as compact JSON, deterministically.
///
/// The output is what Foundation's `JSONEncoder` with its default strategies would decode to the
/// same value: `Date` as seconds since 2001 (its own `Codable`), `Data` as Base64, `URL` as its
/// absolute string, `Decimal` as a number, `Double` and `Float` as the shortest text that reads
/// back exactly (`1`, `0.1`, `1e-07`, `-0`). Unlike Foundation's, it is also deterministic:
/// object members come in the order they were encoded, and dictionaries and sets, whose order
/// Swift seeds differently in every process, are sorted (dictionaries with `Int` keys
/// numerically, other keys by UTF-8 bytes). Encoding a value gives the same bytes in every
/// process. `/` is not escaped.
///
/// ```swift
/// let line = try RewindJSONEncoder().encode(Action.add(title: "Buy milk"))
/// // {"add":{"title":"Buy milk"}}
/// ```
public struct RewindJSONEncoder: Sendable {
  /// Values that `encode(to:)` implementations can read through `encoder.userInfo`.
  public var userInfo: [CodingUserInfoKey: any Sendable]

  /// Creates an encoder.
  public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
    self.userInfo = userInfo
  }

  /// Encodes `value` as compact UTF-8 JSON text.
  ///
  /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` or `Float` (with the
  ///   coding path to it), a NaN `Decimal`, or a top-level value that encodes nothing; and any
  ///   error the value's `encode(to:)` throws.
  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    var output: [UInt8] = []
    try JSONStreamEncoder(userInfo: userInfo).encode(value, into: &output)
    return output
  }

  /// Encodes `value` as a ``JSONValue`` tree: its text, parsed.
  ///
  /// - Throws: The same errors as ``encode(_:)``, and `EncodingError.invalidValue` when a
  ///   ``JSONValue`` inside it holds a number that is not a JSON literal.
  public func encodeValue<T: Encodable>(_ value: T) throws -> JSONValue {
    let text = try encode(value)
    do {
      return try JSONParser.parse(text, limits: .unlimited)
    } catch {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: [],
          debugDescription: "the value's JSON does not read back (\(error)): a hand-built "
            + "JSONValue inside it may hold a number that is not a JSON literal"))
    }
  }
}

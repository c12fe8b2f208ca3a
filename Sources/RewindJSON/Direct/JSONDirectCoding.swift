/// A type that writes its own JSON, bypassing `Encodable`'s containers: the fast path of the
/// recorder for the app's actions.
///
/// `encode(to:)` stays the definition of the value's JSON; ``encodeJSON(to:)`` must write the
/// very bytes that Rewind's encoder gives for it (members in the order `encode(to:)` writes
/// them, the same keys, the same scalars). ``JSONDirectCoding/verify(_:)`` checks that on sample
/// values; call it in a test.
///
/// ```swift
/// extension TodoAction: JSONDirectEncodable {
///   func encodeJSON(to json: inout JSONDirectWriter) throws {
///     json.beginObject()
///     switch self {
///     case .add(let title):
///       json.key("add")
///       json.beginObject()
///       json.key("title")
///       json.string(title)
///       json.endObject()
///     // … one case per action
///     }
///     json.endObject()
///   }
/// }
/// ```
///
/// Whenever ``encodeJSON(to:)`` throws or writes something that is not one JSON value, the
/// recorder encodes the value with `encode(to:)` instead, so the log gets the Codable bytes or
/// the Codable error: a mistake costs speed, never a bad line.
public protocol JSONDirectEncodable: Encodable, SendableMetatype {
  /// Writes this value's JSON, exactly as Rewind's encoder writes `encode(to:)`'s.
  func encodeJSON(to json: inout JSONDirectWriter) throws
}

/// A type that reads itself from JSON, bypassing `Decodable`'s containers: the fast path of the
/// replay engine for the app's actions and states.
///
/// `init(from:)` stays the definition: ``init(json:)`` must accept no more than it accepts and
/// give the same value. Whenever ``init(json:)`` throws, the engine decodes with `init(from:)`
/// instead, so every error is Codable's exact error, with its coding path.
public protocol JSONDirectDecodable: Decodable, SendableMetatype {
  /// Reads a value from `json`, the value's JSON in the log.
  init(json: JSONDirectReader) throws
}

/// Both directions of the direct path.
public typealias JSONDirectCodable = JSONDirectEncodable & JSONDirectDecodable

import RewindJSON

// The direct path of Rewind's JSON coding, for apps that `import Rewind`: an action or state that
// writes and reads its own JSON, bypassing Codable's containers (see docs/recording.md).

/// A type that writes its own JSON, bypassing `Encodable`'s containers; see
/// ``RewindJSON/JSONDirectEncodable``.
public typealias JSONDirectEncodable = RewindJSON.JSONDirectEncodable
/// A type that reads itself from JSON, bypassing `Decodable`'s containers; see
/// ``RewindJSON/JSONDirectDecodable``.
public typealias JSONDirectDecodable = RewindJSON.JSONDirectDecodable
/// Both directions of the direct path.
public typealias JSONDirectCodable = RewindJSON.JSONDirectCodable
/// What ``JSONDirectEncodable/encodeJSON(to:)`` writes with.
public typealias JSONDirectWriter = RewindJSON.JSONDirectWriter
/// What ``JSONDirectDecodable/init(json:)`` reads from.
public typealias JSONDirectReader = RewindJSON.JSONDirectReader
/// A member's key, for ``RewindJSON/JSONDirectReader/onlyMember()``.
public typealias JSONDirectKey = RewindJSON.JSONDirectKey
/// The check of a type's direct path against its Codable path, for an app's tests.
public typealias JSONDirectCoding = RewindJSON.JSONDirectCoding

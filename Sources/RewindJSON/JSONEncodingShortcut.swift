import Foundation

/// A type that ``JSONEncoderImpl`` turns into a ``JSONValue`` directly instead of through its
/// own `encode(to:)`: the scalars, for speed; `Data`, `URL` and `Decimal`, to match the default
/// strategies of Foundation's `JSONEncoder`; and dictionaries and sets, so that their elements
/// come out in a fixed order instead of Swift's per-process hash order.
protocol JSONEncodingShortcut {
  func encodeJSON(
    with encoder: JSONEncoderImpl,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> JSONValue
}

extension JSONEncodingShortcut where Self: FixedWidthInteger {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    JSONScalars.number(self)
  }
}

extension JSONEncodingShortcut where Self: BinaryFloatingPoint & LosslessStringConvertible {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    throws -> JSONValue
  {
    try JSONScalars.number(self, parent: parent, key: key)
  }
}

extension Int: JSONEncodingShortcut {}
extension Int8: JSONEncodingShortcut {}
extension Int16: JSONEncodingShortcut {}
extension Int32: JSONEncodingShortcut {}
extension Int64: JSONEncodingShortcut {}
extension UInt: JSONEncodingShortcut {}
extension UInt8: JSONEncodingShortcut {}
extension UInt16: JSONEncodingShortcut {}
extension UInt32: JSONEncodingShortcut {}
extension UInt64: JSONEncodingShortcut {}
extension Double: JSONEncodingShortcut {}
extension Float: JSONEncodingShortcut {}

extension String: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    .string(self)
  }
}

extension Bool: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    .bool(self)
  }
}

extension JSONValue: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    self
  }
}

/// `Date` as its own `Codable` writes it (Foundation's `deferredToDate`): seconds since
/// 2001-01-01 as a number.
extension Date: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    throws -> JSONValue
  {
    try JSONScalars.number(timeIntervalSinceReferenceDate, parent: parent, key: key)
  }
}

/// `Data` as a Base64 string, Foundation's default `base64` strategy.
extension Data: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    .string(base64EncodedString())
  }
}

/// `URL` as its absolute string, as Foundation's `JSONEncoder` writes it.
extension URL: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    .string(absoluteString)
  }
}

/// `Decimal` as a number with its exact decimal digits, as Foundation's `JSONEncoder` writes it.
extension Decimal: JSONEncodingShortcut {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    throws -> JSONValue
  {
    let text = description
    guard !isNaN, JSONNumberText.isValid(text) else {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: parent.appending(key).keys,
          debugDescription: "Decimal \(text) cannot be encoded: it is not a JSON number"))
    }
    return .number(text)
  }
}

/// Dictionaries encode through their own `encode(to:)`, then have their entries sorted: keyed
/// ones (`String`, `Int` and other `CodingKeyRepresentable` keys) by key, `Int` keys by numeric
/// value and the others by the UTF-8 bytes of the key; the key-value arrays of other key types
/// by the JSON text of the key.
extension Dictionary: JSONEncodingShortcut where Key: Encodable, Value: Encodable {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    throws -> JSONValue
  {
    let encoded = try encoder.encodeWithCodable(self, parent: parent, key: key) ?? .object([])
    return JSONCanonicalOrder.dictionary(encoded, hasIntKeys: Key.self == Int.self)
  }
}

/// Sets encode through their own `encode(to:)`, then have their elements sorted by their JSON
/// text.
extension Set: JSONEncodingShortcut where Element: Encodable {
  func encodeJSON(with encoder: JSONEncoderImpl, parent: CodingPath, key: (any CodingKey)?)
    throws -> JSONValue
  {
    let encoded = try encoder.encodeWithCodable(self, parent: parent, key: key) ?? .array([])
    return JSONCanonicalOrder.set(encoded)
  }
}

/// The fixed orders of encoded dictionaries and sets.
enum JSONCanonicalOrder {
  static func dictionary(_ value: JSONValue, hasIntKeys: Bool) -> JSONValue {
    switch value {
    case .object(let members):
      if hasIntKeys {
        let sorted = members.map { (number: Int($0.key), member: $0) }.sorted {
          switch ($0.number, $1.number) {
          case (let left?, let right?): return left < right
          case (nil, _?): return false
          case (_?, nil): return true
          case (nil, nil): return $0.member.key.utf8.lexicographicallyPrecedes($1.member.key.utf8)
          }
        }
        return .object(sorted.map(\.member))
      }
      return .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    case .array(let flat) where flat.count % 2 == 0:
      let pairs = stride(from: 0, to: flat.count, by: 2).map {
        (text: flat[$0].serializedBytes, key: flat[$0], value: flat[$0 + 1])
      }
      let sorted = pairs.sorted { $0.text.lexicographicallyPrecedes($1.text) }
      return .array(sorted.flatMap { [$0.key, $0.value] })
    default:
      return value
    }
  }

  static func set(_ value: JSONValue) -> JSONValue {
    guard case .array(let elements) = value else { return value }
    let sorted = elements.map { (text: $0.serializedBytes, element: $0) }.sorted {
      $0.text.lexicographicallyPrecedes($1.text)
    }
    return .array(sorted.map(\.element))
  }
}

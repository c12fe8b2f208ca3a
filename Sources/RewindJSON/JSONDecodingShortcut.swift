import Foundation

/// A type that ``JSONTapeDecoder`` makes from its ``JSONValue`` directly instead of through its
/// own `init(from:)`: the integer widths and `Float`, for speed (`String`, `Bool`, `Int` and
/// `Double` it reads from the bytes itself), and `Date`, `Data`, `URL` and `Decimal`, to match the
/// default strategies of Foundation's `JSONDecoder`.
protocol JSONDecodingShortcut {
  static func decodeJSON(
    from value: JSONValue,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> Self
}

extension JSONDecodingShortcut where Self: FixedWidthInteger {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    throws -> Self
  {
    try JSONUnbox.integer(value, as: Self.self, parent: parent, key: key)
  }
}

extension Int8: JSONDecodingShortcut {}
extension Int16: JSONDecodingShortcut {}
extension Int32: JSONDecodingShortcut {}
extension Int64: JSONDecodingShortcut {}
extension UInt: JSONDecodingShortcut {}
extension UInt8: JSONDecodingShortcut {}
extension UInt16: JSONDecodingShortcut {}
extension UInt32: JSONDecodingShortcut {}
extension UInt64: JSONDecodingShortcut {}

extension Float: JSONDecodingShortcut {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    throws -> Float
  {
    try JSONUnbox.float(value, parent: parent, key: key)
  }
}

extension JSONValue: JSONDecodingShortcut {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    -> JSONValue
  {
    value
  }
}

/// `Date` as its own `Codable` reads it (Foundation's `deferredToDate`): seconds since
/// 2001-01-01.
extension Date: JSONDecodingShortcut {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    throws -> Date
  {
    Date(timeIntervalSinceReferenceDate: try JSONUnbox.double(value, parent: parent, key: key))
  }
}

/// `Data` from a Base64 string, Foundation's default `base64` strategy.
extension Data: JSONDecodingShortcut {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    throws -> Data
  {
    try JSONUnbox.string(value, as: "valid Base64, expected Data", parent: parent, key: key) {
      Data(base64Encoded: $0)
    }
  }
}

/// `URL` from a string, as Foundation's `JSONDecoder` reads it.
extension URL: JSONDecodingShortcut {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    throws -> URL
  {
    try JSONUnbox.string(value, as: "a valid URL, expected URL", parent: parent, key: key) {
      URL(string: $0)
    }
  }
}

/// `Decimal` from a number, keeping its decimal digits, as Foundation's `JSONDecoder` reads it.
extension Decimal: JSONDecodingShortcut {
  static func decodeJSON(from value: JSONValue, parent: CodingPath, key: (any CodingKey)?)
    throws -> Decimal
  {
    guard case .number(let text) = value else {
      throw JSONUnbox.mismatch(
        Decimal.self, expected: "Decimal", found: value, parent: parent, key: key)
    }
    guard JSONNumberText.isValid(text) else {
      throw JSONUnbox.corrupted(
        .invalidLiteral, text: text, type: Decimal.self, parent: parent, key: key)
    }
    guard let decimal = Decimal(string: text), !decimal.isNaN else {
      throw JSONUnbox.corrupted(
        .outOfRange, text: text, type: Decimal.self, parent: parent, key: key)
    }
    return decimal
  }
}

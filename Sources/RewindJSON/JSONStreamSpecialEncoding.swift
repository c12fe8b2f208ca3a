import Foundation

/// A type that ``JSONStreamValueEncoder`` writes its own way instead of through its
/// `encode(to:)`: `Date`, `Data`, `URL` and `Decimal` as Foundation's `JSONEncoder` writes them
/// with its default strategies; a ``JSONValue`` as it is; dictionaries and sets with their
/// entries in a fixed order instead of Swift's per-process hash order.
protocol JSONStreamSpecialEncoding {
  /// Writes the value, whose coding path is `path`, where the encoder writes now.
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) throws
}

/// `Date` as its own `Codable` writes it (Foundation's `deferredToDate`): seconds since
/// 2001-01-01 as a number.
extension Date: JSONStreamSpecialEncoding {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) throws {
    try encoder.appendFloatingPoint(timeIntervalSinceReferenceDate) { path }
  }
}

/// `Data` as a Base64 string, Foundation's default `base64` strategy.
extension Data: JSONStreamSpecialEncoding {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) {
    JSONWriter.appendString(base64EncodedString(), to: &encoder.state.pointee.output)
  }
}

/// `URL` as its absolute string, as Foundation's `JSONEncoder` writes it.
extension URL: JSONStreamSpecialEncoding {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) {
    JSONWriter.appendString(absoluteString, to: &encoder.state.pointee.output)
  }
}

/// `Decimal` as a number with its exact decimal digits, as Foundation's `JSONEncoder` writes it.
extension Decimal: JSONStreamSpecialEncoding {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) throws {
    let text = description
    guard !isNaN, JSONNumberText.isValid(text) else {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: path.path.keys,
          debugDescription: "Decimal \(text) cannot be encoded: it is not a JSON number"))
    }
    encoder.state.pointee.output.append(contentsOf: text.utf8)
  }
}

/// A ``JSONValue`` as its own compact text.
extension JSONValue: JSONStreamSpecialEncoding {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) {
    write(into: &encoder.state.pointee.output)
  }
}

/// Dictionaries encode through their own `encode(to:)`, then have their entries sorted: keyed
/// ones (`String`, `Int` and other `CodingKeyRepresentable` keys) by key, `Int` keys by numeric
/// value and the others by the UTF-8 bytes of the key; the key-value arrays of other key types
/// by the JSON text of the key.
extension Dictionary: JSONStreamSpecialEncoding where Key: Encodable, Value: Encodable {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) throws {
    try encoder.writeSorted(self, order: .dictionary(hasIntKeys: Key.self == Int.self), path: path)
  }
}

/// Sets encode through their own `encode(to:)`, then have their elements sorted by their JSON
/// text.
extension Set: JSONStreamSpecialEncoding where Element: Encodable {
  func writeJSON(to encoder: JSONStreamValueEncoder, path: JSONLazyPath) throws {
    try encoder.writeSorted(self, order: .set, path: path)
  }
}

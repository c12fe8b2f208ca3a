/// `JSONValue` is `Codable`, so a raw JSON payload can sit inside a `Codable` type.
///
/// With ``RewindJSONEncoder`` and ``RewindJSONDecoder`` the value is embedded and read back
/// exactly as it is, number literals and member order included. Other coders, such as
/// Foundation's, get an equivalent: numbers become `Int64`, `UInt64` or `Double`, whichever holds
/// the literal, and object members come back in the order of the decoder's `allKeys`.
extension JSONValue: Codable {
  /// Encodes the value.
  ///
  /// - Throws: `EncodingError.invalidValue` when a number literal is not a finite `Double`
  ///   and the encoder is not ``RewindJSONEncoder``.
  public func encode(to encoder: any Encoder) throws {
    if encoder is JSONStreamValueEncoder || encoder is JSONStreamSlotEncoder {
      // Rewind's encoder writes a JSONValue as it is (JSONStreamSpecialEncoding).
      var container = encoder.singleValueContainer()
      try container.encode(self)
      return
    }
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let flag):
      var container = encoder.singleValueContainer()
      try container.encode(flag)
    case .number(let text):
      var container = encoder.singleValueContainer()
      if let integer = Int64(text) {
        try container.encode(integer)
      } else if let integer = UInt64(text) {
        try container.encode(integer)
      } else if let number = try? JSONNumberText.double(text) {
        try container.encode(number)
      } else {
        throw EncodingError.invalidValue(
          text,
          EncodingError.Context(
            codingPath: encoder.codingPath,
            debugDescription: "number \(text) cannot be encoded as a Double"))
      }
    case .string(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements {
        try container.encode(element)
      }
    case .object(let members):
      var container = encoder.container(keyedBy: JSONKey.self)
      for member in members {
        try container.encode(member.value, forKey: JSONKey(stringValue: member.key))
      }
    }
  }

  /// Decodes any JSON value.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when the decoder holds nothing a JSON value can
  ///   represent.
  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: JSONKey.self) {
      self = .object(
        try container.allKeys.map {
          JSONMember($0.stringValue, try container.decode(JSONValue.self, forKey: $0))
        })
      return
    }
    if var container = try? decoder.unkeyedContainer() {
      var elements: [JSONValue] = []
      while !container.isAtEnd {
        elements.append(try container.decode(JSONValue.self))
      }
      self = .array(elements)
      return
    }
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let integer = try? container.decode(Int64.self) {
      self = .number(String(integer))
    } else if let integer = try? container.decode(UInt64.self) {
      self = .number(String(integer))
    } else if let number = try? container.decode(Double.self), number.isFinite {
      self = .number(JSONNumberText.text(number))
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "value is not null, a Boolean, a number or a string")
    }
  }
}

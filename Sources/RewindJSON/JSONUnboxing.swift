/// Conversions of JSON values to Swift scalars, with the `DecodingError`s Rewind reports.
///
/// Each takes the coding path of the value as a parent path and an optional last key, so that a
/// path is only built when an error needs it.
enum JSONUnbox {
  static func bool(_ value: JSONValue, parent: CodingPath, key: (any CodingKey)?) throws -> Bool {
    guard case .bool(let flag) = value else {
      throw mismatch(Bool.self, expected: "Bool", found: value, parent: parent, key: key)
    }
    return flag
  }

  static func string(_ value: JSONValue, parent: CodingPath, key: (any CodingKey)?) throws
    -> String
  {
    guard case .string(let text) = value else {
      throw mismatch(String.self, expected: "String", found: value, parent: parent, key: key)
    }
    return text
  }

  /// A string converted by `make`; `dataCorrupted` (`string is not <what>`) when it gives `nil`.
  static func string<T>(
    _ value: JSONValue, as what: String, parent: CodingPath, key: (any CodingKey)?,
    _ make: (String) -> T?
  ) throws -> T {
    guard let made = make(try string(value, parent: parent, key: key)) else {
      throw dataCorrupted("string is not \(what)", parent: parent, key: key)
    }
    return made
  }

  /// The number as a `T`, exactly; `1.0` and `1e2` are whole numbers and accepted, as with
  /// Foundation.
  static func integer<T: FixedWidthInteger>(
    _ value: JSONValue,
    as type: T.Type,
    parent: CodingPath,
    key: (any CodingKey)?
  ) throws -> T {
    guard case .number(let text) = value else {
      throw mismatch(T.self, expected: "\(T.self)", found: value, parent: parent, key: key)
    }
    do {
      return try JSONNumberText.integer(text, as: T.self)
    } catch {
      throw corrupted(error, text: text, type: T.self, parent: parent, key: key)
    }
  }

  static func double(_ value: JSONValue, parent: CodingPath, key: (any CodingKey)?) throws
    -> Double
  {
    guard case .number(let text) = value else {
      throw mismatch(Double.self, expected: "Double", found: value, parent: parent, key: key)
    }
    do {
      return try JSONNumberText.double(text)
    } catch {
      throw corrupted(error, text: text, type: Double.self, parent: parent, key: key)
    }
  }

  static func float(_ value: JSONValue, parent: CodingPath, key: (any CodingKey)?) throws -> Float {
    guard case .number(let text) = value else {
      throw mismatch(Float.self, expected: "Float", found: value, parent: parent, key: key)
    }
    do {
      return try JSONNumberText.float(text)
    } catch {
      throw corrupted(error, text: text, type: Float.self, parent: parent, key: key)
    }
  }

  /// `valueNotFound` for `null`, `typeMismatch` for anything else, with a message like
  /// `expected Int, found string`.
  static func mismatch(
    _ type: Any.Type,
    expected: String,
    found value: JSONValue,
    parent: CodingPath,
    key: (any CodingKey)?
  ) -> DecodingError {
    let context = DecodingError.Context(
      codingPath: parent.appending(key).keys,
      debugDescription: "expected \(expected), found \(value.kindName)")
    if case .null = value {
      return .valueNotFound(type, context)
    }
    return .typeMismatch(type, context)
  }

  /// `dataCorrupted` with a message like `number 300 does not fit in Int8`.
  static func corrupted(
    _ failure: JSONNumberText.Failure,
    text: String,
    type: Any.Type,
    parent: CodingPath,
    key: (any CodingKey)?
  ) -> DecodingError {
    let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
    let message: String
    switch failure {
    case .invalidLiteral: message = "\"\(shown)\" is not a valid JSON number"
    case .notWholeNumber: message = "number \(shown) is not a whole number, expected \(type)"
    case .outOfRange: message = "number \(shown) does not fit in \(type)"
    }
    return dataCorrupted(message, parent: parent, key: key)
  }

  static func dataCorrupted(
    _ message: String,
    parent: CodingPath,
    key: (any CodingKey)?
  ) -> DecodingError {
    .dataCorrupted(
      DecodingError.Context(codingPath: parent.appending(key).keys, debugDescription: message))
  }
}

extension DecodingError {
  /// The coding path to the value at fault, as `todos[2].title`: string keys joined by dots,
  /// array positions and integer keys in brackets. Empty for the top-level value.
  ///
  /// For `keyNotFound` the missing key is the last component.
  public var pathDescription: String {
    switch self {
    case .keyNotFound(let key, let context):
      return CodingPathText.describe(context.codingPath + [key])
    case .valueNotFound(_, let context), .typeMismatch(_, let context),
      .dataCorrupted(let context):
      return CodingPathText.describe(context.codingPath)
    @unknown default:
      return ""
    }
  }

  /// What is wrong, in one line: `key not found`, `expected Int, found string`,
  /// `number 300 does not fit in Int8`.
  ///
  /// Errors thrown by ``RewindJSONDecoder`` carry these phrases as their `debugDescription`;
  /// for others the `debugDescription` is used as it is.
  public var reasonDescription: String {
    switch self {
    case .keyNotFound:
      return "key not found"
    case .valueNotFound(let type, let context):
      return CodingPathText.firstLine(context.debugDescription) ?? "expected \(type), found null"
    case .typeMismatch(let type, let context):
      return CodingPathText.firstLine(context.debugDescription) ?? "expected \(type)"
    case .dataCorrupted(let context):
      return CodingPathText.firstLine(context.debugDescription) ?? "data corrupted"
    @unknown default:
      return "\(self)"
    }
  }

  /// ``pathDescription`` and ``reasonDescription`` as one line, such as
  /// `add.title: key not found`; just the reason for the top-level value.
  public var summary: String {
    CodingPathText.summary(path: pathDescription, reason: reasonDescription)
  }
}

extension EncodingError {
  /// The coding path to the value that could not be encoded, as `todos[2].price`. Empty for the
  /// top-level value.
  public var pathDescription: String {
    switch self {
    case .invalidValue(_, let context):
      return CodingPathText.describe(context.codingPath)
    @unknown default:
      return ""
    }
  }

  /// What is wrong, in one line, such as `Double.nan cannot be encoded: JSON has no NaN or
  /// infinity`.
  public var reasonDescription: String {
    switch self {
    case .invalidValue(let value, let context):
      return CodingPathText.firstLine(context.debugDescription) ?? "invalid value \(value)"
    @unknown default:
      return "\(self)"
    }
  }

  /// ``pathDescription`` and ``reasonDescription`` as one line, such as
  /// `items[1].price: Double.nan cannot be encoded: JSON has no NaN or infinity`.
  public var summary: String {
    CodingPathText.summary(path: pathDescription, reason: reasonDescription)
  }
}

/// Renders coding paths for people.
enum CodingPathText {
  /// `todos[2].title`: a key whose `intValue` is its whole meaning (spelled `2` or `Index 2`)
  /// is an array position or integer key and goes in brackets; other keys are joined by dots.
  static func describe(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue,
        key.stringValue == String(index) || key.stringValue == "Index \(index)"
      {
        text += "[\(index)]"
      } else {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      }
    }
    return text
  }

  static func firstLine(_ text: String) -> String? {
    let line = text.prefix { $0 != "\n" && $0 != "\r" }
    return line.isEmpty ? nil : String(line)
  }

  static func summary(path: String, reason: String) -> String {
    path.isEmpty ? reason : "\(path): \(reason)"
  }
}

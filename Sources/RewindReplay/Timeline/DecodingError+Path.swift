extension DecodingError {
  /// The coding path of the error as `todos[2].title` (or `add.title`): keys dotted, indices in
  /// brackets; synthesized enum payload keys such as `_0` are kept as they are.
  var rewindCodingPath: String {
    var path: [CodingKey]
    switch self {
    case .keyNotFound(let key, let context): path = context.codingPath + [key]
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      path = context.codingPath
    @unknown default: path = []
    }
    var text = ""
    for key in path {
      if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }

  /// What is wrong, in a few words: `key not found`, `expected Int, found a string`.
  var rewindReason: String {
    switch self {
    case .keyNotFound: return "key not found"
    case .typeMismatch(let type, let context):
      return "expected \(type): \(context.debugDescription)"
    case .valueNotFound(let type, _): return "expected \(type), found null"
    case .dataCorrupted(let context): return context.debugDescription
    @unknown default: return "\(self)"
    }
  }
}

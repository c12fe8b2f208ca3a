import RewindJSON

/// Why a recorded action or state does not decode with today's types, in the words every
/// command uses: the coding path, and the reason (`key not found`, `expected String, found
/// number`, `TodoAction has no case 'archive' (renamed or removed?)`).
enum DecodeFailureText {
  /// The coding path and reason of `error`, thrown decoding `payload` as `type`.
  static func describe(_ error: any Error, decoding payload: JSONValue, as type: Any.Type)
    -> (path: String, reason: String)
  {
    var onlyKey: String?
    if case .object(let members) = payload, members.count == 1 { onlyKey = members[0].key }
    return describe(error, onlyKey: onlyKey, as: type)
  }

  /// The same, for a value known by its only key (when it is an object with one member).
  static func describe(_ error: any Error, onlyKey: String?, as type: Any.Type)
    -> (path: String, reason: String)
  {
    guard let error = error as? DecodingError else { return ("", "\(error)") }
    var reason = error.reasonDescription
    // A case the type no longer has: Swift's synthesized decoding finds no key it knows
    // (`typeMismatch`, "Invalid number of keys found"); Rewind's says the data is corrupted.
    var unknownCase = false
    switch error {
    case .dataCorrupted(let context): unknownCase = context.codingPath.isEmpty
    case .typeMismatch(_, let context):
      unknownCase =
        context.codingPath.isEmpty && context.debugDescription.hasPrefix("Invalid number of keys")
    default: break
    }
    if unknownCase, let onlyKey {
      reason = "\(type) has no case '\(onlyKey)' (renamed or removed?)"
    }
    return (error.pathDescription, reason)
  }
}

import RewindReplay

/// What an option's value must look like; checked while parsing, so a bad value is a
/// ``UsageError/invalidValue(option:value:expected:suggestion:)`` naming the option.
package enum ValueKind: Sendable, Equatable {
  /// Any text.
  case text
  /// A whole number in decimal, at least `minimum` when one is given.
  case integer(minimum: Int? = nil)
  /// One of a fixed list of words, matched ignoring case and stored as listed.
  case choice([String])

  /// What a valid value is, to finish "expected …": `"an integer"`, `"a non-negative
  /// integer"`, `"one of tail, strict, prefix, salvage"`.
  package var expectation: String {
    switch self {
    case .text: return "text"
    case .integer(minimum: nil): return "an integer"
    case .integer(minimum: 0): return "a non-negative integer"
    case .integer(minimum: 1): return "a positive integer"
    case .integer(minimum: let minimum?): return "an integer of at least \(minimum)"
    case .choice(let words): return "one of " + words.joined(separator: ", ")
    }
  }

  /// Checks `raw` and returns it in its stored form (a choice in its listed spelling).
  ///
  /// - Parameter option: The option as the user spelled it, for the error.
  /// - Throws: ``UsageError/invalidValue(option:value:expected:suggestion:)`` when `raw` does not
  ///   fit, with the closest choice as the suggestion.
  package func validate(_ raw: String, for option: String) throws(UsageError) -> String {
    switch self {
    case .text:
      return raw
    case .integer(let minimum):
      guard let number = Int(raw), number >= (minimum ?? .min) else {
        throw .invalidValue(option: option, value: raw, expected: expectation)
      }
      return String(number)
    case .choice(let words):
      if let word = words.first(where: { $0.lowercased() == raw.lowercased() }) {
        return word
      }
      throw .invalidValue(
        option: option, value: raw, expected: expectation,
        suggestion: closestMatch(to: raw, in: words))
    }
  }
}

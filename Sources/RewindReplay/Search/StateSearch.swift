import RewindJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What to look for inside a state: text in any key or value, or a member with a given value.
///
/// Text matches ignore ASCII case (`milk` finds `"Buy Milk"`), and only ASCII case: the same rule
/// is applied to the state's text when the log is searched across time, so a state is said to
/// contain a match exactly when its tree has one.
public enum StateQuery: Sendable, Equatable, Codable, CustomStringConvertible {
  /// A key, or a string, number or `true`/`false`/`null` value, that contains the text.
  case text(String)
  /// A member named `key` whose value is `value` (a scalar, as the encoder writes it).
  case member(String, JSONValue)

  /// `NAME=VALUE` (VALUE as JSON: `42`, `"Buy milk"`, `true`; a word that is not JSON is taken
  /// as a string) is a member query; anything else is text (in quotes or not).
  public init(parsing text: String) {
    if let equals = text.firstIndex(of: "="), equals != text.startIndex {
      let name = String(text[..<equals]).trimmingCharacters(in: " ")
      let valueText = String(text[text.index(after: equals)...]).trimmingCharacters(in: " ")
      if !name.isEmpty, !name.contains(" "), !valueText.isEmpty {
        let value = (try? JSONParser.parse(valueText)) ?? .string(valueText)
        switch value {
        case .array, .object: break
        default:
          self = .member(name, value)
          return
        }
      }
    }
    // A quoted text is the text inside the quotes.
    if text.hasPrefix("\""), case .string(let unquoted)? = try? JSONParser.parse(text) {
      self = .text(unquoted)
      return
    }
    self = .text(text)
  }

  /// The query as typed: `milk`, `title="Buy milk"`.
  public var description: String {
    switch self {
    case .text(let text): return text
    case .member(let key, let value): return "\(key)=\(value.jsonText)"
    }
  }

  /// Every place in `state` that matches, in document order, at most `limit`.
  public func matches(in state: JSONValue, limit: Int = .max) -> [StateMatch] {
    var found: [StateMatch] = []
    func visit(_ value: JSONValue, at path: JSONPath, key: String?) -> Bool {
      if found.count >= limit { return false }
      if isMatch(key: key, value) { found.append(StateMatch(path: path, value: value)) }
      switch value {
      case .object(let members):
        for member in members
        where !visit(member.value, at: path.appending(.key(member.key)), key: member.key) {
          return false
        }
      case .array(let elements):
        for (index, element) in elements.enumerated()
        where !visit(element, at: path.appending(.index(index)), key: nil) {
          return false
        }
      default: break
      }
      return found.count < limit
    }
    _ = visit(state, at: .root, key: nil)
    return found
  }

  /// Whether the value under `key` (`nil` for an element or the root) matches.
  private func isMatch(key: String?, _ value: JSONValue) -> Bool {
    switch self {
    case .text(let needle):
      if let key, Self.contains(key, needle) { return true }
      switch value {
      case .string(let text): return Self.contains(text, needle)
      case .number(let text): return Self.contains(text, needle)
      case .bool(let flag): return Self.contains(flag ? "true" : "false", needle)
      case .null: return Self.contains("null", needle)
      case .array, .object: return false
      }
    case .member(let name, let wanted):
      guard key == name else { return false }
      return JSONPath.Component.scalar(value, matches: wanted.jsonText)
    }
  }

  /// Whether `text` contains `needle`, ignoring ASCII case.
  private static func contains(_ text: String, _ needle: String) -> Bool {
    guard !needle.isEmpty else { return true }
    return StateTextScan.contains(Array(text.utf8), Array(needle.utf8))
  }

  /// Whether the state written `text` (compact JSON, as the encoder writes it) has a match: a
  /// quick look at the bytes first (no match in the text means none in the tree), then the tree
  /// when the bytes hold one.
  public func isPresent(inText text: [UInt8]) -> Bool {
    switch self {
    case .text(let needle):
      // A string's text in JSON escapes quotes, backslashes and controls: look for the needle
      // as the encoder would write it inside a string, and as it is (numbers, keys).
      let raw = Array(needle.utf8)
      let escaped = Array(JSONValue.string(needle).jsonText.utf8.dropFirst().dropLast())
      guard
        StateTextScan.contains(text, raw)
          || (escaped != raw && StateTextScan.contains(text, escaped))
      else { return false }
    case .member(let name, _):
      let key = Array(JSONValue.string(name).jsonText.utf8) + [UInt8(ascii: ":")]
      guard StateTextScan.contains(text, key) else { return false }
    }
    guard let state = try? JSONParser.parse(text, limits: .unlimited) else { return false }
    return !matches(in: state, limit: 1).isEmpty
  }
}

extension ReplayTimeline {
  /// The nearest position after `position` (forward) or before it (backward) whose state has a
  /// match for `query` when `isPresent` is `false`, or none when it is `true`; `nil` when there
  /// is none. Forward, one walk from `position` on; backward, walks of 1,024 positions, the
  /// nearest first.
  /// - Throws: What rebuilding a state throws.
  public func presenceChangeInProcess(
    of query: StateQuery, from position: Int, direction: TimelineSearch.Direction,
    isPresent: Bool
  ) throws(ReplayError) -> Int? {
    var target: Int?
    switch direction {
    case .forward:
      guard position < log.positions.upperBound else { return nil }
      try forEachStateText(from: position + 1, through: log.positions.upperBound) { at, text in
        guard query.isPresent(inText: text) != isPresent else { return true }
        target = at
        return false
      }
    case .backward:
      let batch = 1_024
      var end = position - 1
      while end >= log.positions.lowerBound, target == nil {
        let first = max(log.positions.lowerBound, end - batch + 1)
        try forEachStateText(from: first, through: end) { at, text in
          if query.isPresent(inText: text) != isPresent { target = at }
          return true
        }
        end = first - 1
      }
    }
    return target
  }
}

/// A place in a state that matches a ``StateQuery``.
public struct StateMatch: Sendable, Equatable {
  /// Where it is.
  public var path: JSONPath
  /// The value there.
  public var value: JSONValue
}

/// Searching bytes for bytes, ignoring ASCII case.
enum StateTextScan {
  /// Whether `haystack` contains `needle`, ASCII letters compared without case.
  static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard haystack.count >= needle.count else { return false }
    let folded = needle.map(fold)
    // The first byte in either case, found with `memchr` (a vectorised scan in the C library).
    let first = folded[0]
    let other = first &- 0x61 < 26 ? first & ~0x20 : first
    return haystack.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return false }
      let end = bytes.count - folded.count
      func matches(at i: Int) -> Bool {
        var j = 1
        while j < folded.count, fold(bytes[i + j]) == folded[j] { j += 1 }
        return j == folded.count
      }
      for candidate in first == other ? [first] : [first, other] {
        var i = 0
        while i <= end {
          guard let found = memchr(base + i, Int32(candidate), end - i + 1) else { break }
          let at = base.distance(to: UnsafeRawPointer(found))
          if matches(at: at) { return true }
          i = at + 1
        }
      }
      return false
    }
  }

  /// An ASCII capital as its small letter; any other byte as it is.
  @inline(__always) static func fold(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }
}

extension String {
  /// The string without `character` at either end.
  fileprivate func trimmingCharacters(in character: Character) -> String {
    String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
  }
}

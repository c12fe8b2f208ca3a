import RewindJSON

/// Where `continue` and `reverse-continue` stop.
public enum Breakpoint: Sendable, Equatable, CustomStringConvertible {
  /// Stops at an action that changes the value at the path (a watchpoint).
  case watch(JSONPath)
  /// Stops at every action of this type (enum case name).
  case actionType(String)
  /// Stops where the condition becomes true: it holds after an action and did not hold before it.
  case condition(JSONPath, Comparison, JSONValue)

  /// How `break if PATH OP VALUE` compares.
  public enum Comparison: String, Sendable, CaseIterable {
    /// Equal (numbers by value, other values structurally).
    case equal = "=="
    /// Not equal.
    case notEqual = "!="
    /// Less than (numbers, or strings in code-point order).
    case less = "<"
    /// Less than or equal.
    case lessOrEqual = "<="
    /// Greater than.
    case greater = ">"
    /// Greater than or equal.
    case greaterOrEqual = ">="
    /// A string contains the text, or an array contains an element equal to the value.
    case contains
  }

  /// `watch todos.count`, `break type=move`, `break if todos.count > 3`.
  public var description: String {
    switch self {
    case .watch(let path): return "watch \(path.sessionText)"
    case .actionType(let name): return "break type=\(name)"
    case .condition(let path, let comparison, let value):
      return "break if \(path.sessionText) \(comparison.rawValue) \(value.jsonText)"
    }
  }

  /// Parses what follows `break`: `type=NAME` or `if PATH OP VALUE`. VALUE is JSON (`3`,
  /// `"Buy milk"`, `true`, `null`); a word that is not JSON is refused with its quoted form as
  /// the suggestion, and so is an operator that is not one of ``Comparison``'s, so no condition
  /// is set that compares with something the user did not mean.
  /// - Throws: A message saying what is wrong and what to write instead.
  public static func parseBreak(_ text: String) throws(BreakpointParseError) -> Breakpoint {
    let trimmed = text.trimmingCharacters(in: " ")
    if trimmed.hasPrefix("type=") {
      let name = String(trimmed.dropFirst(5))
      guard !name.isEmpty else {
        throw BreakpointParseError("expected an action type after 'type='")
      }
      return .actionType(name)
    }
    guard trimmed.hasPrefix("if ") else {
      throw BreakpointParseError("expected 'break type=NAME' or 'break if PATH OP VALUE'")
    }
    let (path, comparison, value) = try condition(Array(trimmed.dropFirst(3)))
    return .condition(path, comparison, value)
  }

  /// The symbols an operator is written with; a run of them is one operator (`>>` is not `>`).
  private static let operatorSymbols: Set<Character> = ["=", "!", "<", ">"]

  /// `PATH OP VALUE`, split at its operator: the first run of `=!<>` outside the path's brackets
  /// and quotes (spaces or none around it), or the word `contains` between spaces.
  private static func condition(
    _ characters: [Character]
  ) throws(BreakpointParseError) -> (JSONPath, Comparison, JSONValue) {
    let example = "for example: break if todos.count > 3"
    guard let (start, end) = operatorRange(characters) else {
      let words = String(characters).split(separator: " ")
      if words.count >= 3 {
        throw BreakpointParseError(
          "'\(words[1])' is not an operator: use one of \(operators)")
      }
      throw BreakpointParseError("expected 'break if PATH OP VALUE', \(example)")
    }
    let symbol = String(characters[start..<end])
    guard let comparison = Comparison(rawValue: symbol) else {
      let hint = Self.likelyOperator[symbol].map { "did you mean '\($0)'? Operators are " }
      throw BreakpointParseError(
        "'\(symbol)' is not an operator: \(hint ?? "use one of ")\(operators)")
    }
    let pathText = String(characters[..<start]).trimmingCharacters(in: " ")
    guard !pathText.isEmpty else {
      throw BreakpointParseError("expected a path before '\(symbol)', \(example)")
    }
    let path: JSONPath
    do { path = try JSONPath.parse(pathText) } catch {
      throw BreakpointParseError(error.description)
    }
    let valueText = String(characters[end...]).trimmingCharacters(in: " ")
    guard !valueText.isEmpty else {
      throw BreakpointParseError("expected a value after '\(symbol)', \(example)")
    }
    return (path, comparison, try value(valueText, after: "\(pathText) \(symbol)"))
  }

  /// Whether `text` is written as a condition (`todos.count > 3`, `filter==all`): it has an
  /// operator outside brackets and quotes. Such text is no path to watch.
  public static func isCondition(_ text: String) -> Bool {
    operatorRange(Array(text)) != nil
  }

  /// Where the operator is in `characters`, or `nil` when there is none.
  private static func operatorRange(_ characters: [Character]) -> (Int, Int)? {
    var depth = 0
    var quoted = false
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if quoted {
        if character == "\\" { index += 1 } else if character == "\"" { quoted = false }
      } else if character == "\"" {
        quoted = true
      } else if character == "[" {
        depth += 1
      } else if character == "]" {
        depth -= 1
      } else if depth == 0, operatorSymbols.contains(character) {
        var end = index + 1
        while end < characters.count, operatorSymbols.contains(characters[end]) { end += 1 }
        return (index, end)
      } else if depth == 0, character == " ", index > 0 {
        let word = Array(Comparison.contains.rawValue) + [" "]
        let after = index + 1
        if characters.count > after + word.count,
          Array(characters[after..<after + word.count]) == word
        {
          return (after, after + word.count - 1)
        }
      }
      index += 1
    }
    return nil
  }

  /// The value of a condition: JSON. Anything else is refused, a bare word with its quoted form
  /// as the suggestion (`activ` compared as a string never matched the `"active"` meant, and
  /// gave no sign of it).
  private static func value(
    _ text: String, after condition: String
  ) throws(BreakpointParseError) -> JSONValue {
    if let parsed = try? JSONParser.parse(text) { return parsed }
    if let first = text.first, operatorSymbols.contains(first) {
      throw BreakpointParseError(
        "'\(text)' is not a value: write one operator between the path and the value "
          + "(\(operators))")
    }
    let quoted = JSONValue.string(text.first == "\"" ? String(text.dropFirst()) : text).jsonText
    throw BreakpointParseError(
      "'\(text)' is not a value: did you mean \(quoted)? A string is quoted "
        + "(break if \(condition) \(quoted)); numbers, true, false and null are not")
  }

  /// Every operator, as listed in messages.
  private static let operators = Comparison.allCases.map(\.rawValue).joined(separator: " ")

  /// What a mistyped operator most likely meant.
  private static let likelyOperator: [String: String] = [
    "=": "==", "===": "==", "=>": ">=", "=<": "<=", ">>": ">", "<<": "<", "!": "!=",
    "!==": "!=", "<>": "!=", "><": "!=", ">==": ">=", "<==": "<=",
  ]
}

/// A `break` command that could not be parsed.
public struct BreakpointParseError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public var description: String
  init(_ description: String) { self.description = description }
}

extension Breakpoint.Comparison {
  /// Whether `actual OP expected` holds.
  public func holds(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
    switch self {
    case .equal: return Self.equal(actual, expected)
    case .notEqual: return !Self.equal(actual, expected)
    case .contains:
      switch (actual, expected) {
      case (.string(let text), .string(let part)): return text.contains(part)
      case (.array(let elements), _): return elements.contains { Self.equal($0, expected) }
      default: return false
      }
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let order = Self.order(actual, expected) else { return false }
      switch self {
      case .less: return order < 0
      case .lessOrEqual: return order <= 0
      case .greater: return order > 0
      default: return order >= 0
      }
    }
  }

  /// Why `actual OP expected` cannot hold for the kinds of the two values (a number compared
  /// with a string, `>` on an array), with what was likely meant; `nil` when it can. A value that
  /// is `null` may later be anything, so it is never a mismatch.
  /// - Parameter path: How the user wrote the path, for the message.
  public func mismatch(_ actual: JSONValue, _ expected: JSONValue, at path: String) -> String? {
    let here = "\(path) is \(Self.article(actual.kindName)) here"
    switch (self, actual, expected) {
    case (_, .null, _), (.contains, .array, _), (.contains, .string, .string), (_, _, .null):
      return nil
    case (.contains, .string, _):
      return "\(here): 'contains' looks in it for a string, and \(expected.jsonText) is "
        + "\(Self.article(expected.kindName))\(Self.suggestion(expected, like: actual))"
    case (.contains, _, _): return "\(here): 'contains' looks in a string or an array"
    case (.less, .array, _), (.lessOrEqual, .array, _), (.greater, .array, _),
      (.greaterOrEqual, .array, _):
      return "\(here): '\(rawValue)' compares numbers or strings; did you mean \(path).count?"
    default:
      guard actual.kindName != expected.kindName else { return nil }
      return "\(here) and \(expected.jsonText) is \(Self.article(expected.kindName)): "
        + "'\(rawValue)' compares values of one kind\(Self.suggestion(expected, like: actual))"
    }
  }

  /// "a number", "an array".
  private static func article(_ kind: String) -> String {
    ("aeiou".contains(kind.first ?? "x") ? "an " : "a ") + kind
  }

  /// `; did you mean 3?` when `value` written as `other`'s kind reads as it (`"3"` for a number,
  /// `3` for a string).
  private static func suggestion(_ value: JSONValue, like other: JSONValue) -> String {
    switch (value, other) {
    case (.string(let text), .number), (.string(let text), .bool):
      if let parsed = try? JSONParser.parse(text), parsed.kindName == other.kindName {
        return "; did you mean \(parsed.jsonText)?"
      }
    case (.number, .string), (.bool, .string):
      return "; did you mean \(JSONValue.string(value.jsonText).jsonText)?"
    default: break
    }
    return ""
  }

  private static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
    if case .number(let x) = a, case .number(let y) = b, let p = Double(x), let q = Double(y) {
      return p == q
    }
    return a == b
  }

  private static func order(_ a: JSONValue, _ b: JSONValue) -> Int? {
    switch (a, b) {
    case (.number(let x), .number(let y)):
      guard let p = Double(x), let q = Double(y) else { return nil }
      return p < q ? -1 : (p > q ? 1 : 0)
    case (.string(let x), .string(let y)):
      return x < y ? -1 : (x > y ? 1 : 0)
    default: return nil
    }
  }
}

extension JSONPath {
  /// The path as typed in a session: `todos[2].title`, or `.` for the whole state.
  public var sessionText: String { components.isEmpty ? "." : description }
}

extension String {
  fileprivate func trimmingCharacters(in character: Character) -> String {
    var text = Substring(self)
    while text.first == character { text.removeFirst() }
    while text.last == character { text.removeLast() }
    return String(text)
  }
}

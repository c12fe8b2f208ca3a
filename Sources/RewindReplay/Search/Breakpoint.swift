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
  /// `"Buy milk"`, `true`), or a bare word taken as a string.
  /// - Throws: A message saying what is wrong.
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
    let condition = trimmed.dropFirst(3)
    let rest = Array(condition.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true))
    if rest.count == 3, let comparison = Comparison(rawValue: String(rest[1])) {
      let path: JSONPath
      do { path = try JSONPath.parse(String(rest[0])) } catch {
        throw BreakpointParseError(error.description)
      }
      return .condition(path, comparison, literal(String(rest[2])))
    }
    // Written without spaces around a symbol: `todos.count>3`, `filter=="all"`.
    if let (path, comparison, value) = joinedCondition(condition) {
      return .condition(path, comparison, literal(value))
    }
    guard rest.count == 3 else {
      throw BreakpointParseError(
        "expected 'break if PATH OP VALUE', for example: break if todos.count > 3")
    }
    let ops = Comparison.allCases.map(\.rawValue).joined(separator: " ")
    throw BreakpointParseError("unknown operator '\(rest[1])': use one of \(ops)")
  }

  /// `PATH OP VALUE` split at its first symbol operator (`==`, `!=`, `<=`, `>=`, `<`, `>`) outside
  /// the path's brackets and quotes, spaces or none around it; `nil` when there is none, or the
  /// text before it is not a path or nothing follows it.
  private static func joinedCondition(
    _ text: Substring
  ) -> (JSONPath, Comparison, String)? {
    let characters = Array(text)
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
      } else if depth == 0, "=!<>".contains(character) {
        let pair = index + 1 < characters.count ? String(characters[index...index + 1]) : ""
        let symbol = Comparison(rawValue: pair) != nil ? pair : String(character)
        guard let comparison = Comparison(rawValue: symbol) else { return nil }
        let path = String(characters[..<index]).trimmingCharacters(in: " ")
        let value = String(characters[(index + symbol.count)...]).trimmingCharacters(in: " ")
        guard !value.isEmpty, let parsed = try? JSONPath.parse(path) else { return nil }
        return (parsed, comparison, value)
      }
      index += 1
    }
    return nil
  }

  /// A value typed by a user: JSON when it parses, else the text as a string.
  public static func literal(_ text: String) -> JSONValue {
    (try? JSONParser.parse(text)) ?? .string(text)
  }
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

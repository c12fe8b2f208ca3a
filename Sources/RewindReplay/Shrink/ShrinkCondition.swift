import RewindJSON

/// What `replay shrink --until` keeps true while it removes actions.
public enum ShrinkCondition: Sendable, Equatable, CustomStringConvertible {
  /// The reducer traps.
  case crash
  /// The reducer traps while applying an action of this type.
  case crashIn(type: String)
  /// The condition holds for the state after the last action (and the reducer does not trap).
  case predicate(JSONPath, Breakpoint.Comparison, JSONValue)

  /// Parses `crash`, `type=NAME` or `PATH OP VALUE`.
  public static func parse(_ text: String) throws(BreakpointParseError) -> ShrinkCondition {
    if text == "crash" { return .crash }
    if text.hasPrefix("type=") {
      let name = String(text.dropFirst(5))
      guard !name.isEmpty else {
        throw BreakpointParseError("expected an action type after 'type='")
      }
      return .crashIn(type: name)
    }
    let parsed: Breakpoint
    do {
      parsed = try Breakpoint.parseBreak("if " + text)
    } catch {
      // The session's wording names its command; a condition here is written without it.
      throw BreakpointParseError(error.description.replacingOccurrences(of: "break if ", with: ""))
    }
    switch parsed {
    case .condition(let path, let comparison, let value): return .predicate(path, comparison, value)
    default: throw BreakpointParseError("expected crash, type=NAME or 'PATH OP VALUE'")
    }
  }

  /// `crash`, `type=move`, `todos.count > 3`.
  public var description: String {
    switch self {
    case .crash: return "crash"
    case .crashIn(let type): return "type=\(type)"
    case .predicate(let path, let comparison, let value):
      return "\(path.sessionText) \(comparison.rawValue) \(value.jsonText)"
    }
  }

  /// Whether the outcome of a replay — the final state's JSON text, or the error — satisfies
  /// the condition. Only the value at a predicate's path is built from the text.
  public func isSatisfied(by outcome: Result<[UInt8], ReplayError>) -> Bool {
    switch (self, outcome) {
    case (.crash, .failure(.reducerCrashed)): return true
    case (.crashIn(let type), .failure(.reducerCrashed(let report))):
      return report.type == type
    case (.predicate(let path, let comparison, let expected), .success(let state)):
      return (try? path.value(inText: state)).map { comparison.holds($0, expected) } ?? false
    default: return false
    }
  }
}

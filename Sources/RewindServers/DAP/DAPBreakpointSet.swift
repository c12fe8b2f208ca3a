/// Which DAP breakpoints the debugger's watchpoints and breakpoints were set for: each
/// `set…Breakpoints` request replaces its own kind's (and, for a source's conditions, that
/// source's), and a stop names its reason after the kind that triggered.
package struct DAPBreakpointSet: Sendable {
  /// The request a breakpoint came from.
  package enum Kind: Sendable, Equatable, Hashable {
    /// `setFunctionBreakpoints`: an action type (or a `if COND` name).
    case function
    /// `setDataBreakpoints`: a watchpoint on a state path.
    case data
    /// `setBreakpoints` of the source at this path: a condition (`break if`).
    case source(String)

    /// The `stopped` event's reason for a hit.
    package var stopReason: String {
      switch self {
      case .function: return "function breakpoint"
      case .data: return "data breakpoint"
      case .source: return "breakpoint"
      }
    }
  }

  /// The kind of each debugger id.
  private var kinds: [Int: Kind] = [:]

  /// An empty set.
  package init() {}

  /// Records that the debugger's breakpoint `id` is of `kind`.
  package mutating func record(_ id: Int, as kind: Kind) { kinds[id] = kind }

  /// Forgets the breakpoints of `kind` and returns their debugger ids, ascending.
  package mutating func removeAll(of kind: Kind) -> [Int] {
    let ids = kinds.filter { $0.value == kind }.keys.sorted()
    for id in ids { kinds[id] = nil }
    return ids
  }

  /// The stop reason for breakpoints `ids` triggering: the first known one's kind
  /// (`"breakpoint"` for one set in the debug console).
  package func reason(for ids: [Int]) -> String {
    ids.lazy.compactMap { kinds[$0] }.first?.stopReason ?? "breakpoint"
  }
}

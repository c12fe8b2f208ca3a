import RewindJSON

/// Why a ``Debugger`` operation could not be done.
public enum DebuggerError: Error, Sendable {
  /// It needs the app's reducer, which this binary does not have for the log's app.
  case noReducer
  /// A position outside the log.
  case positionOutOfRange(Int, valid: ClosedRange<Int>)
  /// Text that names no position (``Debugger/position(_:in:)``): the text, and the log's
  /// positions.
  case notAPosition(String, valid: ClosedRange<Int>)
  /// `next` at the last position.
  case atLastPosition(Int)
  /// `back` at the first position.
  case atFirstPosition(Int)
  /// `continue` with no watchpoint or breakpoint set.
  case nothingToStopAt
  /// No watchpoint or breakpoint with that id (the ids there are).
  case noSuchBreakpoint(String, ids: [Int])
  /// No action with that seq (the log's seqs, when it has any).
  case noSuchAction(Int, valid: ClosedRange<Int>?)
  /// `unskip` of an action that is not skipped.
  case notSkipped(Int)
  /// `skip` of an action that is skipped already.
  case alreadySkipped(Int)
  /// `action` at the initial state, which no action led to.
  case atInitialState(Int)
  /// A state path that leads nowhere in the state.
  case badPath(StatePathError)
  /// `find` found no action matching the query, going that way from the position; with a known
  /// action type close to a `type=` query's, when there is one.
  case noMatch(ActionQuery, TimelineSearch.Direction, from: Int, suggestion: String?)
  /// `search -n` or `search -b` found no position, going that way from `from`, where the state
  /// starts or stops having a match for the query (whether it has one at `from`).
  case stateMatchUnchanged(StateQuery, TimelineSearch.Direction, from: Int, isPresent: Bool)
  /// `where N` for an action whose line has no call site: the log was recorded without
  /// origins (``Rewind/RecordingOptions/recordsOrigins``), or the action came from elsewhere.
  case noCallSite(seq: Int, logHasSites: Bool)
  /// The engine failed (an action that does not decode, a damaged line).
  case replay(ReplayError)
}

extension DebuggerError: CustomStringConvertible {
  /// What went wrong, in one line, in the words every front end shows (the REPL, the TUI's status
  /// line, the HTML page, a protocol server's error message). ``noReducer`` is said here without
  /// the apps this binary knows, which a front end may add.
  public var message: String {
    switch self {
    case .noReducer:
      return "this replay binary does not know the log's app: only the recorded states (the "
        + "header's and the checkpoints') can be shown"
    case .positionOutOfRange(let n, let range):
      return
        "position \(n) is out of range: valid positions are \(range.lowerBound)…\(range.upperBound)"
    case .notAPosition(let text, let range):
      return
        "'\(text)' is not a position: use \(range.lowerBound)…\(range.upperBound), first or last"
    case .atLastPosition(let last):
      return "already at the last position (\(last)); 'back' steps backward"
    case .atFirstPosition(let first):
      return "already at the first position (\(first)); 'next' steps forward"
    case .nothingToStopAt:
      return
        "nothing to stop at: set a watchpoint ('watch PATH') or a breakpoint ('break type=NAME')"
    case .noSuchBreakpoint(let name, let ids):
      let list = ids.map(String.init).joined(separator: ", ")
      return "no watchpoint or breakpoint '\(name)'"
        + (list.isEmpty ? ": none is set" : "; ids: \(list)")
    case .noSuchAction(let seq, let range):
      return "no action \(seq): actions are "
        + (range.map { "\($0.lowerBound)…\($0.upperBound)" } ?? "none")
    case .notSkipped(let seq):
      return "action \(seq) is not skipped"
    case .alreadySkipped(let seq):
      return "action \(seq) is skipped already ('unskip \(seq)' replays it again)"
    case .atInitialState(let position):
      return
        "position \(position) is the initial state: no action led here ('next' shows the first)"
    case .badPath(let error):
      return error.messageWithSuggestion
    case .noMatch(let query, let direction, let from, let suggestion):
      return "no action \(direction == .backward ? "before" : "after") position \(from) matches "
        + "'\(query.description)'" + (suggestion.map { "; did you mean type=\($0)?" } ?? "")
    case .stateMatchUnchanged(let query, let direction, let from, let isPresent):
      let side = direction == .backward ? "before" : "after"
      return isPresent
        ? "every state \(side) position \(from) has a match for '\(query.description)', as the "
          + "one at \(from) does"
        : "no state \(side) position \(from) has a match for '\(query.description)'"
    case .noCallSite(let seq, let logHasSites):
      return logHasSites
        ? "action \(seq) has no call site: it was not dispatched through a dispatch that records "
          + "one (a recorded import, or an app's own store that passes no origin)"
        : "action \(seq) has no call site: the log was recorded without origins (turn on "
          + "RecordingOptions.recordsOrigins in the app; docs/recording.md)"
    case .replay(let error):
      return error.location.map { "\($0): \(error.message)" } ?? error.message
    }
  }

  /// ``message``.
  public var description: String { message }
}

extension StatePathError {
  /// The error's text and, for a key that is not there, the closest key that is:
  /// `no key 'todo' in the state; keys: todos, filter; did you mean 'todos'?`.
  public var messageWithSuggestion: String {
    if case .noSuchKey(let key, _, let available) = self,
      let suggestion = closestMatch(to: key, in: available)
    {
      return "\(description); did you mean '\(suggestion)'?"
    }
    return description
  }
}

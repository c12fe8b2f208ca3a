import RewindJSON
import RewindReplay

extension ReplaySession {
  func diff(_ arguments: [String]) throws(SessionFailure) {
    let words = arguments
    let from: Int
    let to: Int
    switch words.count {
    case 0:
      guard position > log.positions.lowerBound else {
        throw SessionFailure(
          "position \(position) is the initial state: no action led here; use 'diff N' to compare with another position"
        )
      }
      from = position - 1
      to = position
    case 1:
      from = try parsePosition(words[0])
      to = position
    case 2:
      from = try parsePosition(words[0])
      to = try parsePosition(words[1])
    default:
      throw SessionFailure("usage: diff [N [M]] [--json]")
    }
    let diff = try perform { () throws(DebuggerError) in try debugger.diff(from: from, to: to) }
    if wantsJSON {
      writeJSON(diff.jsonValue)
    } else {
      if words.count > 0 { output.writeLine("position \(from) → \(to):") }
      output.writeLine(inert(JSONDiff.render(diff.changes), keepingNewlines: true))
    }
  }

  func parsePosition(_ text: String) throws(SessionFailure) -> Int {
    try perform { () throws(DebuggerError) in try Debugger.position(text, in: log) }
  }
}

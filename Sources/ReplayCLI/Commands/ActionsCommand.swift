import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay actions LOG`: the actions, as lines or JSON, in a seq range or of one type.
  func runActions() throws(CommandFailure) -> Int32 {
    let opened = try openLog()
    let log = opened.log
    reportFaults(log)
    let from: Int?
    let to: Int?
    do throws(UsageError) {
      from = try arguments.int("from")
      to = try arguments.int("to")
    } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    let type = arguments.string("type")
    guard log.actionCount > 0 else { return ExitStatus.success }
    let first = max(from ?? log.firstSeq, log.firstSeq)
    let last = min(to ?? log.lastSeq, log.lastSeq)
    guard first <= last else {
      // The range as asked (one end may be open): the log's range is not to blame.
      let asked = "\(from.map(String.init) ?? "")…\(to.map(String.init) ?? "")"
      if let from, let to, from > to {
        output.emit(Diagnostic.warning("--from \(from) is after --to \(to): no actions to list"))
      } else {
        output.emit(
          Diagnostic.warning(
            "no actions in seq \(asked): the log's actions are \(log.firstSeq)…\(log.lastSeq)"))
      }
      return ExitStatus.success
    }
    let width = String(last).count
    var matched = 0
    for seq in first...last {
      let action: RecordedAction
      do { action = try log.action(at: seq) } catch { throw .replay(error) }
      if let type, !log.action(action, isOfType: type) { continue }
      matched += 1
      if wantsJSON {
        output.writeLine(action.jsonValue.jsonText)
      } else {
        output.writeLine(ActionFormatter.line(action, seqWidth: width))
      }
    }
    if let type, matched == 0 {
      var types: Set<String> = []
      for seq in first...last { if let name = try? log.actionType(at: seq) { types.insert(name) } }
      let suggestion =
        closestMatch(to: type, in: types.sorted()).map { "; did you mean '\($0)'?" } ?? ""
      output.emit(
        Diagnostic.warning(
          "no action of type '\(inert(type))' in seq \(first)…\(last)\(suggestion)"))
    }
    return ExitStatus.success
  }
}

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
    // A page of the range at a time (``ActionsRequest``, as the MCP server's `actions` tool
    // asks for it), written as it comes.
    let service = ReplayService(opened: opened)
    var request = ActionsRequest(
      from: first, to: last, query: type.map { .type($0) }, limit: ActionsRequest.maxLimit)
    var matched = 0
    while true {
      let page: ActionsResponse
      do { page = try service.perform(request) } catch { throw opened.commandFailure(error) }
      for detail in page.actions {
        matched += 1
        if wantsJSON {
          output.writeLine(detail.action.jsonValue.jsonText)
        } else {
          output.writeLine(ActionFormatter.line(detail.action, seqWidth: width))
        }
      }
      guard let next = page.nextFrom else { break }
      request.from = next
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

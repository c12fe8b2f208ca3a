import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay history LOG PATH [--from N] [--to M] [--limit K] [--json]`: a ``HistoryRequest``,
  /// rendered as a session's `history` is.
  func runHistory() throws(CommandFailure) -> Int32 {
    let opened = try openLog()
    reportFaults(opened.log)
    let path: JSONPath
    do throws(StatePathError) {
      path = try JSONPath.parse(arguments.positional("PATH") ?? "")
    } catch {
      throw .diagnostic(Diagnostic.error(ReplaySession.pathMessage(error)))
    }
    var request = HistoryRequest(path)
    if let from = arguments.string("from") {
      request.from = try parsePosition(from, in: opened.log)
    }
    if let to = arguments.string("to") { request.to = try parsePosition(to, in: opened.log) }
    do throws(UsageError) { request.limit = try arguments.int("limit") } catch {
      throw .diagnostic(Diagnostic.error(error.message))
    }
    let service = ReplayService(opened: opened)
    let response: HistoryResponse
    do { response = try service.perform(request) } catch { throw opened.commandFailure(error) }
    if wantsJSON {
      output.writeLine(response.jsonValue.jsonText)
    } else {
      for line in service.textLines(of: response) { output.writeLine(line.text, to: line.channel) }
    }
    return response.crash == nil ? ExitStatus.success : ExitStatus.reducerCrashed
  }
}

import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay info LOG`: the log's summary, and for a cut-off log whether its last action crashes
  /// the reducer; a recordings folder lists its sessions, and any other folder of logs its logs.
  func runInfo() throws(CommandFailure) -> Int32 {
    let argument = arguments.positional("LOG") ?? ""
    if let sessions = RecordingsFolderArgument.sessions(at: argument) {
      output.writeLine(
        wantsJSON
          ? RecordingsFolderArgument.json(argument, sessions).jsonText
          : RecordingsFolderArgument.text(argument, sessions))
      return ExitStatus.success
    }
    if let logs = RecordingsFolderArgument.logs(at: argument) {
      output.writeLine(
        wantsJSON
          ? RecordingsFolderArgument.json(anyFolder: argument, logs, recovery: recovery).jsonText
          : RecordingsFolderArgument.text(anyFolder: argument, logs, recovery: recovery))
      return ExitStatus.success
    }
    let opened = try openLog()
    let check = LastActionCheck.run(opened)
    if wantsJSON {
      var summary = opened.log.summaryJSON(appKnown: opened.timeline != nil)
      if let check, case .object(var members) = summary {
        members.append(JSONMember("replay", check.json))
        summary = .object(members)
      }
      output.writeLine(summary.jsonText)
    } else {
      let note = opened.noTimelineReason.map { _ in
        "known to this replay binary, but recorded with other type names"
      }
      output.writeLine(
        LogSummary.text(
          opened.log, app: opened.timeline == nil ? nil : opened.log.app, appNote: note,
          lastAction: check))
    }
    return ExitStatus.success
  }
}

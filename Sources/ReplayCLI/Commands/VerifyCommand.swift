import RewindJSON
import RewindReplay
import RewindReplayService

extension CommandInvocation {
  /// `replay verify LOG [--json]`.
  func runVerify() throws(CommandFailure) -> Int32 {
    let opened = try openLog(usesCheckpoints: false, needsInitialState: true)
    reportFaults(opened.log)
    // Actions the recorder left out (denied or unregistered types) are replayed as nothing: what
    // the checkpoints after them show is whether that mattered. (The recovery mode's own faults
    // were warned about above.)
    if let suspect = opened.log.suspectFrom, opened.log.faults.isEmpty {
      output.emit(
        Diagnostic(
          .note, at: nil,
          "\(opened.log.path) has actions that were not recorded (skipped lines, from position "
            + "\(suspect)): replay leaves them out, so the states from there on are the app's only "
            + "where a checkpoint says so",
          hints: [
            Diagnostic.Hint(
              "replay actions \(opened.log.path)", comment: "lists them as (not recorded: …)")
          ]))
    }
    let response: VerifyResponse
    do { response = try ReplayService(opened: opened).perform(VerifyRequest()) } catch {
      throw opened.commandFailure(error)
    }
    if wantsJSON {
      output.writeLine(response.jsonValue.jsonText)
    } else {
      for line in response.textLines { output.writeLine(line) }
    }
    return response.isReproduced ? ExitStatus.success : ExitStatus.different
  }
}

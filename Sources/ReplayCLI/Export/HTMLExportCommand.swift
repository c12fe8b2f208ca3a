import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService

extension ReplayProgram {
  /// `--html FILE` of `replay export`: write the log as one self-contained HTML page.
  static let htmlOption = OptionSpec.option(
    "html", valueName: "FILE",
    help: "Write one self-contained HTML page (timeline, actions, states, diffs) to FILE.")
}

extension CommandInvocation {
  /// `replay export LOG --html FILE`: writes the page, then says what it holds on stdout (and,
  /// for an app this binary does not know, warns that states are shown only where recorded).
  /// - Throws: `CommandFailure` when the log cannot be read or the file cannot be written.
  func exportHTML(_ opened: OpenedLog, to destination: String) throws(CommandFailure) {
    let log = opened.log
    let progress =
      ProgressLine.isAvailable ? ProgressLine(output: output, label: "exporting states") : nil
    // The cost chart's figures: one timed pass, as `replay profile --repeat 1 --json`.
    let costs = { () -> JSONValue? in
      opened.timeline == nil || log.isInitialStateMissing
        ? nil
        : (try? ReplayService(opened: opened).perform(ProfileRequest(passes: 1, top: 20)))?
          .jsonValue
    }
    let html: [UInt8]
    do {
      html = try HTMLExport.render(
        log: log, timeline: opened.timeline, progress: progress.map { line in line.update },
        costs: costs)
    } catch {
      throw .replay(error)
    }
    try OutputFile.write(
      html, to: destination, inputs: [log.path], replacesLogs: arguments.flag("overwrite"))
    if opened.timeline == nil {
      var warning = opened.missingAppDiagnostic
      warning.severity = .warning
      let count = log.checkpointSeqs.count
      warning.notes = [
        "the page shows the actions, and states only at the header and the \(count) recorded "
          + "checkpoint\(count == 1 ? "" : "s")"
      ]
      output.emit(warning)
    }
    let actions = "\(log.actionCount) action\(log.actionCount == 1 ? "" : "s")"
    output.writeLine(
      "wrote \(inert(destination)): an HTML page of \(actions) (\(Self.byteText(html.count)))")
    if let isolated = opened.timeline as? IsolatedTimeline {
      if let crash = isolated.knownCrash?.report, let seq = crash.seq {
        output.writeLine(
          "note: \(crash.headline); the page shows states up to position \(seq - 1) and the "
            + "crash report at action \(seq)")
      } else if log.isCutOff && log.actionCount > 0 {
        output.writeLine(
          "note: action \(log.lastSeq), the last one recorded, replays without a crash: the app "
            + "stopped somewhere else (in a view, an effect, or killed by the system)")
      }
    } else if opened.timeline != nil && log.isCutOff && log.actionCount > 0 {
      output.writeLine(
        "note: the log was cut off in action \(log.lastSeq): the page shows states up to "
          + "position \(log.lastSeq - 1)")
    }
  }

  /// A size for people: `812 bytes`, `48.2 KB`, `19.7 MB`.
  static func byteText(_ count: Int) -> String {
    if count < 1000 { return count == 1 ? "1 byte" : "\(count) bytes" }
    let units = ["KB", "MB", "GB"]
    var value = Double(count) / 1000
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return "\((value * 10).rounded() / 10) \(units[unit])"
  }
}

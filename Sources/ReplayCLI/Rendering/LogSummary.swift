import RewindJSON
import RewindReplay
import RewindReplayService

/// What `replay info` and the session's `info` show about a log.
enum LogSummary {
  /// The summary as aligned `key: value` lines.
  ///
  /// - Parameter lastAction: What replaying a cut-off log's last action showed (the `crashed at`
  ///   row, with the crash report's lines below it).
  /// - Parameter isLive: Whether a running app is still writing the log (`replay listen`): a
  ///   log without its end record is then not cut off.
  static func text(
    _ log: ReplayLog, app: String?, appNote: String? = nil, lastAction: LastActionCheck? = nil,
    isLive: Bool = false
  ) -> String {
    var rows: [(String, String)] = [
      ("log", inert(log.path)),
      (
        "app",
        "\(inert(log.header.app)) (\(inert(log.header.stateType)), \(inert(log.header.actionType)))"
          + (app == nil ? " — \(appNote ?? "not known to this replay binary")" : "")
      ),
      ("session", inert(log.header.session)),
      (
        "recorded at",
        log.header.recordedAt.isEmpty
          ? "unknown (the header has no recordedAt)" : inert(log.header.recordedAt)
      ),
    ]
    if let build = log.recordedBy { rows.append(("recorded by", inert(build))) }
    if let migration = log.migration {
      rows.append(("migrated", "schema \(migration.description), by this replay's migrations"))
    }
    if log.header.segment > 0 { rows.append(("segment", "\(log.header.segment) (a rotated file)")) }
    if log.joinedFiles > 0 {
      rows.append(
        ("files", "\(log.joinedFiles + 1) rotated files of the session, joined (a bundle)"))
    }
    let count = log.actionCount
    rows.append(
      ("actions", count == 0 ? "none" : "\(count) (seq \(log.firstSeq)…\(log.lastSeq))"))
    if log.isInitialStateMissing {
      let from = log.checkpointSeqs.first.map { "from the checkpoint at seq \($0) on" } ?? "none"
      rows.append(
        (
          "initial state",
          "not in the file (the app stopped before the rotation wrote it); states that can be "
            + "rebuilt: \(from)"
        ))
    }
    rows.append(("checkpoints", checkpointsText(log)))
    rows.append(
      (
        "ended",
        isLive && log.isCutOff
          ? "not yet: the app is still recording (a live session, replay listen)" : endText(log)
      ))
    let crashLines = lastAction?.rows.more ?? []
    if let lastAction { rows.append(("crashed at", lastAction.rows.value)) }
    rows.append(
      (
        "bad lines",
        log.faults.isEmpty ? "none" : "\(log.faults.count) (\(log.recovery.rawValue) recovery)"
      ))
    if let suspect = log.suspectFrom {
      rows.append(("suspect", "states from position \(suspect) on may differ from the live app's"))
    }
    let width = rows.map(\.0.count).max() ?? 0
    var lines = rows.map {
      "\($0.0 + ":")\(String(repeating: " ", count: width - $0.0.count + 2))\($0.1)"
    }
    if let index = rows.firstIndex(where: { $0.0 == "crashed at" }) {
      lines.insert(contentsOf: crashLines.map { "  " + $0 }, at: index + 1)
    }
    for fault in log.faults { lines.append("  " + inert(fault.description)) }
    return lines.joined(separator: "\n")
  }

  private static func checkpointsText(_ log: ReplayLog) -> String {
    let seqs = log.checkpointSeqs
    let skipped = log.skippedCheckpoints > 0 ? ", \(log.skippedCheckpoints) skipped" : ""
    guard !seqs.isEmpty else { return "none" + skipped }
    let shown = seqs.prefix(6).map(String.init).joined(separator: ", ")
    return "\(seqs.count) (seq \(shown)\(seqs.count > 6 ? ", …" : ""))" + skipped
  }

  /// How the log ended: cleanly, or cut off while the app ran its last action.
  static func endText(_ log: ReplayLog) -> String {
    if let reason = log.endReason {
      return reason == "closed" ? "cleanly (end record)" : "end record (\(inert(reason)))"
    }
    if let signal = log.signal {
      let type = (try? log.actionType(at: signal.seq)).map { " (\(inert($0)))" } ?? ""
      let address = signal.address.map { " at address \(inert($0))" } ?? ""
      return
        "cut off by a crash — the app died of \(inert(signal.signal))\(address) while running action "
        + "\(signal.seq)\(type) (its recorder's signal record, line \(signal.line))"
    }
    if log.recovery == .prefix, let fault = log.faults.first {
      return "not read to the end: --recovery prefix stopped at line \(fault.line)"
    }
    if let fault = log.faults.last, case .cutOff = fault.reason {
      return "cut off — the app died while writing line \(fault.line), after action "
        + "\(log.lastSeq) (the partial line was dropped)"
    }
    let noAction = "cut off — no end record: the app crashed or was killed before any action"
    guard log.actionCount > 0 else { return noAction }
    let last: String
    do throws(ReplayError) { last = try log.actionType(at: log.lastSeq) ?? "?" } catch {
      return noAction
    }
    return "cut off — no end record: the app crashed or was killed while running action "
      + "\(log.lastSeq) (\(inert(last)))"
  }
}

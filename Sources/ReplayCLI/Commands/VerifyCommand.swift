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
    guard let timeline = opened.timeline else { throw .diagnostic(opened.missingAppDiagnostic) }
    let report: VerifyReport
    do { report = try Verifier.verify(timeline) } catch {
      // A reducer that crashes is what verify looks for: the log no longer replays.
      guard case .reducerCrashed(let crash) = error else { throw .replay(error) }
      if wantsJSON {
        output.writeLine(
          JSONValue.object([
            JSONMember("path", .string(opened.log.path)), JSONMember("reproduced", .bool(false)),
            JSONMember("crash", crash.json),
          ]).jsonText)
      } else {
        output.writeLine("\(inert(opened.log.path)): does not replay: \(crash.headline)")
        for line in crash.lines().dropFirst() { output.writeLine(line) }
      }
      return ExitStatus.different
    }
    // A cut-off log's last action comes after its last checkpoint: replayed once more (in the
    // worker), it says whether the app's crash is the reducer's.
    let lastAction = report.isReproduced ? LastActionCheck.run(opened) : nil
    if wantsJSON {
      var json = Self.json(report)
      if case .object(var members) = json, let lastAction {
        members.append(JSONMember("lastAction", lastAction.json))
        json = .object(members)
      }
      output.writeLine(json.jsonText)
    } else {
      report.forEachLine { output.writeLine(inert($0, keepingNewlines: true)) }
      if let lastAction { output.writeLine(Self.lastActionText(lastAction)) }
    }
    return report.isReproduced ? ExitStatus.success : ExitStatus.different
  }

  /// What replaying a cut-off log's last action showed, in `verify`'s words.
  static func lastActionText(_ check: LastActionCheck) -> String {
    switch check {
    case .crashed(let report):
      var action = report.seq.map { "action \($0)" } ?? "an action"
      if let type = report.type { action += " (\(inert(type)))" }
      return "the log ends where the app crashed: \(action) crashes the app's reducer again "
        + "(\(report.signal)\(report.message.map { ": \(inert($0))" } ?? "")); replay it to see where"
    case .replays:
      return "note: " + check.rows.value.replacingOccurrences(of: "no — ", with: "")
    case .failed:
      return "note: the last action was not replayed: " + check.rows.value
    }
  }

  static func json(_ report: VerifyReport) -> JSONValue {
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    var members: [JSONMember] = [
      JSONMember("path", .string(report.path)),
      JSONMember("reproduced", .bool(report.isReproduced)),
      JSONMember("checkpointsCompared", number(report.checkpointsCompared)),
      JSONMember("hasCheckpoints", .bool(report.hasCheckpoints)),
    ]
    if let divergence = report.divergence {
      members.append(
        JSONMember(
          "divergence",
          .object([
            JSONMember("seq", number(divergence.seq)),
            JSONMember("line", number(divergence.line)),
            JSONMember(
              "actions", .array([number(divergence.lastMatching + 1), number(divergence.seq)])),
            JSONMember("patch", JSONPatch(changes: divergence.changes).jsonValue),
          ])))
    } else {
      members.append(JSONMember("divergence", .null))
    }
    members.append(
      JSONMember(
        "undecodable",
        .array(
          report.undecodable.map {
            .object([
              JSONMember("seq", number($0.seq)), JSONMember("error", .string($0.error.message)),
            ])
          })))
    return .object(members)
  }
}

import RewindJSON
import RewindReplay

extension CommandContext {
  /// `replay verify LOG [--json]`.
  func runVerify() throws(CommandFailure) -> Int32 {
    let opened = try openLog(usesCheckpoints: false)
    reportFaults(opened.log)
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
    if wantsJSON {
      output.writeLine(Self.json(report).jsonText)
    } else {
      output.writeLine(inert(report.text, keepingNewlines: true))
    }
    return report.isReproduced ? ExitStatus.success : ExitStatus.different
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

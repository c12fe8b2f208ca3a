import RewindJSON
import RewindReplay

extension ReplayLog {
  /// The build that recorded the log, as a line: `todo 1.0 (3), schema 1`; `nil` without a
  /// build stamp.
  package var recordedBy: String? {
    guard let stamp = header.build else { return nil }
    return "\(header.app) \(stamp.summary)"
  }

  /// The summary as one JSON object (`info --json`).
  package func summaryJSON(appKnown: Bool) -> JSONValue {
    let log = self
    func number(_ n: Int) -> JSONValue { .number(String(n)) }
    var members: [JSONMember] = [
      JSONMember("path", .string(log.path)),
      JSONMember("app", .string(log.header.app)),
      JSONMember("appKnown", .bool(appKnown)),
      JSONMember("actionType", .string(log.header.actionType)),
      JSONMember("stateType", .string(log.header.stateType)),
      JSONMember("session", .string(log.header.session)),
      JSONMember("recordedAt", .string(log.header.recordedAt)),
      JSONMember("build", log.header.build?.json ?? .null),
      JSONMember(
        "recordedBy", log.recordedBy.map(JSONValue.string) ?? .null),
      JSONMember(
        "migratedFrom",
        log.migration.map { JSONValue.number(String($0.from)) } ?? .null),
      JSONMember("version", number(log.header.version)),
      JSONMember("segment", number(log.header.segment)),
      JSONMember("joinedFiles", number(log.joinedFiles)),
      JSONMember("initialStateMissing", .bool(log.isInitialStateMissing)),
      JSONMember("actions", number(log.actionCount)),
      JSONMember("firstSeq", number(log.firstSeq)),
      JSONMember("lastSeq", number(log.lastSeq)),
      JSONMember("checkpoints", .array(log.checkpointSeqs.map(number))),
      JSONMember("skippedCheckpoints", number(log.skippedCheckpoints)),
      JSONMember("cleanEnd", .bool(log.hasEndRecord)),
      JSONMember("endReason", log.endReason.map(JSONValue.string) ?? .null),
      JSONMember(
        "signal",
        log.signal.map { signal in
          .object([
            JSONMember("seq", .number(String(signal.seq))),
            JSONMember("signal", .string(signal.signal)),
            JSONMember("address", signal.address.map(JSONValue.string) ?? .null),
            JSONMember("line", .number(String(signal.line))),
          ])
        } ?? .null),
      JSONMember("recovery", .string(log.recovery.rawValue)),
      JSONMember(
        "badLines",
        .array(
          log.faults.map { fault in
            .object([
              JSONMember("line", number(fault.line)),
              JSONMember("byteOffset", number(fault.byteOffset)),
              JSONMember("reason", .string(fault.reason.summary)),
            ])
          })),
      JSONMember("suspectFrom", log.suspectFrom.map(number) ?? .null),
    ]
    if log.ignoredLines > 0 { members.append(JSONMember("ignoredLines", number(log.ignoredLines))) }
    return .object(members)
  }
}

import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// How the reader takes lines that are not the usual `record\n`: CRLF endings, blank lines,
/// records of unknown kinds, and records out of place.
@Suite struct LogLayoutTests {
  @Test func crlfLineEndingsAreRead() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.end(seq: 1)
    let crlf = text.bytes.flatMap { $0 == UInt8(ascii: "\n") ? [0x0D, 0x0A] : [$0] }
    let log = try ReplayLog(name: "crlf.jsonl", contents: crlf, recovery: .strict)
    #expect(log.actionCount == 1)
    #expect(log.hasEndRecord)
    #expect(
      try Timeline(log: log, reducer: todoReducer).state(at: 1).todos.map(\.title) == ["Buy milk"])
  }

  @Test func blankLinesAreSkippedButCounted() throws {
    var text = LogText()
    text.header()
    text.raw("")
    text.raw("   ")
    text.action(seq: 1, .add(title: "Buy milk"))
    text.end(seq: 1)
    let log = try ReplayLog(name: "blank.jsonl", contents: text.bytes, recovery: .strict)
    #expect(log.actionCount == 1)
    #expect(try log.action(at: 1).line == 4)
  }

  @Test func recordsOfAnUnknownKindAreCountedAndIgnored() throws {
    var text = LogText()
    text.header()
    text.record(#""kind":"annotation","text":"from a newer recorder""#)
    text.action(seq: 1, .toggle(id: 1))
    text.end(seq: 1)
    let log = try ReplayLog(name: "newer.jsonl", contents: text.bytes, recovery: .strict)
    #expect(log.ignoredLines == 1)
    #expect(log.actionCount == 1)
    #expect(log.faults.isEmpty)
  }

  @Test func secondHeaderIsAMisplacedRecord() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.header()
    text.action(seq: 2, .toggle(id: 1))
    let error = expectReplayError {
      try ReplayLog(name: "x.jsonl", contents: text.bytes, recovery: .strict)
    }
    #expect(
      error?.faultError?.fault
        == LogFault(
          path: "x.jsonl", line: 3, byteOffset: text.start(ofLine: 3),
          reason: .misplacedRecord(
            "a second header not after a rotated file's end record (a log holds one recording, "
              + "or the rotated files of one, joined in order)")))
  }

  /// A bundle: the rotated files of one session, joined in order. Each header continues the
  /// `seq`s after the previous file's `end` record of reason `rotated`, and its state is the
  /// checkpoint before its first action.
  @Test func theRotatedFilesOfOneSessionJoinedInOrderAreOneLog() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.end(seq: 1, reason: "rotated")
    text.header(
      firstSeq: 2,
      state: #"{"todos":[{"id":1,"title":"Buy milk","done":false}],"filter":"all","nextID":2}"#)
    text.action(seq: 2, .toggle(id: 1))
    text.end(seq: 2)
    let log = try ReplayLog(name: "bundle.jsonl", contents: text.bytes, recovery: .strict)
    #expect(log.joinedFiles == 1)
    #expect(log.firstSeq == 1)
    #expect(log.lastSeq == 2)
    #expect(log.checkpointSeqs == [1])
    #expect(log.checkpointLine(at: 1) == 4)
    #expect(log.endReason == "closed")
  }

  @Test(arguments: [
    ("s-2", 2, "misplaced record: a header of session s-2 after a rotated file of session s-1"),
    ("s-1", 3, "the next rotated file starts at seq 3, but the last action is 1"),
  ])
  func aJoinedFileOfAnotherSessionOrSeqIsRefused(
    session: String, firstSeq: Int, message: String
  ) throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.end(seq: 1, reason: "rotated")
    text.header(firstSeq: firstSeq, session: session)
    text.action(seq: firstSeq, .toggle(id: 1))
    let error = expectReplayError {
      try ReplayLog(name: "x.jsonl", contents: text.bytes, recovery: .strict)
    }
    #expect(error?.faultError?.fault.line == 4)
    let description = error?.faultError?.fault.description ?? ""
    #expect(description.contains(message), "\(description)")
  }

  @Test func recordAfterTheEndRecordIsAMisplacedRecord() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.end(seq: 1)
    text.action(seq: 2, .toggle(id: 1))
    let error = expectReplayError {
      try ReplayLog(name: "x.jsonl", contents: text.bytes, recovery: .strict)
    }
    #expect(
      error?.faultError?.fault
        == LogFault(
          path: "x.jsonl", line: 4, byteOffset: text.start(ofLine: 4),
          reason: .misplacedRecord("an action line after the end record at line 3")))
  }

  @Test func checkpointBeforeItsActionIsAnInvalidRecord() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.checkpoint(seq: 2, state: "{}")
    text.action(seq: 2, .toggle(id: 1))
    let error = expectReplayError {
      try ReplayLog(name: "x.jsonl", contents: text.bytes, recovery: .strict)
    }
    #expect(
      error?.faultError?.fault.reason
        == .invalidRecord("a checkpoint for seq 2 after action 1: it must follow its action"))
    #expect(error?.faultError?.intactActions == 1)
  }

  @Test func endRecordWithTheWrongSeqIsAnInvalidRecord() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.end(seq: 7)
    text.raw("")
    let error = expectReplayError {
      try ReplayLog(name: "x.jsonl", contents: text.bytes, recovery: .strict)
    }
    #expect(
      error?.faultError?.fault.reason
        == .invalidRecord("the end record says seq 7 but the last action is 1"))
  }

  @Test func unchecksummedLineInAChecksummedLogIsAFault() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.raw(#"{"kind":"action","seq":2,"type":"toggle","action":{"toggle":{"id":1}}}"#)
    text.action(seq: 3, .toggle(id: 1))
    let error = expectReplayError { try ReplayLog(name: "x.jsonl", contents: text.bytes) }
    #expect(
      error?.faultError
        == FaultError(
          fault: LogFault(
            path: "x.jsonl", line: 3, byteOffset: text.start(ofLine: 3), reason: .missingChecksum),
          recovery: .tail, intactActions: 1, droppedLines: 2))
  }

  @Test func skippedActionKeepsSeqsContinuousAndMarksLaterStatesSuspect() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.record(#""kind":"skipped","seq":2,"time":0.5,"type":"rename","reason":"denied""#)
    text.action(seq: 3, .toggle(id: 1))
    text.end(seq: 3)
    let log = try ReplayLog(name: "x.jsonl", contents: text.bytes, recovery: .strict)
    #expect(log.actionCount == 3)
    #expect(log.suspectFrom == 2)
    #expect(try log.action(at: 2).status == .skipped(reason: "denied"))
    #expect(try log.action(at: 2).type == "rename")
    let state = try Timeline(log: log, reducer: todoReducer).state(at: 3)
    #expect(state.todos == [Todo(id: 1, title: "Buy milk", done: true)])
  }

  @Test func actionOfALogWithoutActionsSaysItHasNone() throws {
    var text = LogText()
    text.header()
    let log = try ReplayLog(name: "empty.jsonl", contents: text.bytes)
    for seq in [0, 1] {
      let error = expectReplayError { try log.action(at: seq) }
      guard case .noActions("empty.jsonl", 0)? = error else {
        Issue.record("expected noActions, got \(String(describing: error))")
        continue
      }
      #expect(error?.message == "the log has no actions")
      #expect(error?.hint == "it holds only its initial state, at position 0")
    }
  }
}

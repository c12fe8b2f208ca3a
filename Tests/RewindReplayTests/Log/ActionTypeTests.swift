import Foundation
import Rewind
import RewindJSON
import Testing

@testable import RewindReplay

/// `ReplayLog.actionType(at:)` reads an action's `type` without building its payload, and must
/// say what `action(at:).type` says, for every kind of line.
@Suite struct ActionTypeTests {
  /// Every seq of `log`: the cheap read agrees with the full one.
  private func expectAgreement(_ log: ReplayLog) throws {
    for seq in log.firstSeq...log.lastSeq {
      #expect(try log.actionType(at: seq) == log.action(at: seq).type, "seq \(seq)")
    }
  }

  @Test func readsTheRecordersLines() throws {
    var composer = LogComposer(
      header: .init(
        app: "todo", actionType: "TodoAction", stateType: "TodoState", state: .object([]),
        session: "s", recordedAt: "2026-01-01T00:00:00Z"))
    composer.appendAction(.object([JSONMember("add", .object([]))]), time: 0.5)
    composer.appendAction(.object([JSONMember("tab\t\"quoted\"", .object([]))]), time: 1)
    composer.appendAction(.object([JSONMember("é", .array([.number("1")]))]), time: nil)
    let log = try ReplayLog(name: "recorded.jsonl", contents: composer.finished())
    #expect(try log.actionType(at: 1) == "add")
    #expect(try log.actionType(at: 2) == "tab\t\"quoted\"")
    #expect(try log.actionType(at: 3) == "é")
    try expectAgreement(log)
  }

  @Test func readsHandWrittenLines() throws {
    let text =
      [
        #"{"kind":"header","format":"rewind","version":1,"app":"todo","actionType":"TodoAction","stateType":"TodoState","session":"s","recordedAt":"2026-01-01T00:00:00Z","firstSeq":1,"state":{}}"#,
        #"{ "type" : "add", "kind":"action", "seq":1, "action": {"add": {"title": [1, 2, 3]}} }"#,
        #"{"kind":"skipped","seq":2,"type":"secret","reason":"denied"}"#,
        #"{"kind":"action","seq":3,"type":7,"action":{"x":{}}}"#,
        #"{"kind":"action","seq":4,"action":{"x":{}}}"#,
        #"{"kind":"action","seq":5,"type":"caf\u00e9","action":{"x":{"type":"inner"}}}"#,
      ].joined(separator: "\n") + "\n"
    let log = try ReplayLog(name: "hand.jsonl", contents: Array(text.utf8))
    #expect(try log.actionType(at: 1) == "add")
    #expect(try log.actionType(at: 2) == "secret")
    #expect(try log.actionType(at: 3) == nil)
    #expect(try log.actionType(at: 4) == nil)
    #expect(try log.actionType(at: 5) == "café")
    try expectAgreement(log)
  }

  /// A checksummed line whose action is not valid JSON (a duplicate key, which the checksum
  /// does not catch), and a hand-written action line without an `action`: both throw, as
  /// `action(at:)` does, though their `type` can be read.
  @Test func aLineWhoseActionDoesNotReadThrowsLikeActionAt() throws {
    var composer = LogComposer(
      header: .init(
        app: "todo", actionType: "TodoAction", stateType: "TodoState", state: .object([]),
        session: "s", recordedAt: "2026-01-01T00:00:00Z"))
    composer.appendAction(
      .object([JSONMember("add", .object([JSONMember("a", .null), JSONMember("a", .null)]))]),
      time: 0.5)
    let recorded = try ReplayLog(name: "duplicate.jsonl", contents: composer.finished())
    #expect(throws: ReplayError.self) { try recorded.action(at: 1) }
    #expect(throws: ReplayError.self) { try recorded.actionType(at: 1) }

    let text =
      #"{"kind":"header","format":"rewind","version":1,"app":"a","actionType":"A","stateType":"S","session":"s","recordedAt":"2026-01-01T00:00:00Z","firstSeq":1,"state":{}}"#
      + "\n" + #"{"kind":"action","seq":1,"type":"go"}"# + "\n"
    let handWritten = try ReplayLog(name: "no-action.jsonl", contents: Array(text.utf8))
    #expect(throws: ReplayError.self) { try handWritten.action(at: 1) }
    #expect(throws: ReplayError.self) { try handWritten.actionType(at: 1) }
  }

  @Test func aSeqOutsideTheLogThrowsLikeActionAt() throws {
    let log = try ReplayLog(
      name: "one.jsonl",
      contents: Array(
        (#"{"kind":"header","format":"rewind","version":1,"app":"a","actionType":"A","stateType":"S","session":"s","recordedAt":"2026-01-01T00:00:00Z","firstSeq":1,"state":{}}"#
          + "\n" + #"{"kind":"action","seq":1,"type":"go","action":{"go":{}}}"# + "\n").utf8))
    #expect(throws: ReplayError.self) { try log.actionType(at: 9) }
  }
}

import Foundation
import RewindJSON
import RewindReplay
import Testing

@testable import ReplayCLI

@Suite struct ShrinkTests {
  @Test func theCrashLogShrinksToTheFewActionsThatReproduceTheMoveCrash() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let directory = try PowerTools.temporaryDirectory()
    let out = directory.appendingPathComponent("min.jsonl").path
    let result = PowerTools.run(["shrink", PowerTools.fixture("todo-crash.jsonl"), "-o", out])
    #expect(result.status == 0, "stderr: \(result.err)")
    #expect(result.out.hasPrefix("shrunk 38 → "))
    let log = try ReplayLog(path: out, recovery: .strict)
    #expect((1...3).contains(log.actionCount))
    #expect(log.checkpointSeqs.isEmpty)
    #expect(log.hasEndRecord)
    #expect(log.firstSeq == 1)
    #expect(try log.action(at: log.lastSeq).type == "move")
    // Replaying the shrunk log crashes the same way, in a worker.
    let replayed = PowerTools.run(["state", out, "--isolate"])
    #expect(replayed.status == 3)
    #expect(replayed.err.contains("the app's reducer crashed on action"))
    #expect(replayed.err.contains("(type \"move\", log line"))
  }

  @Test func shrinkingIsDeterministic() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let directory = try PowerTools.temporaryDirectory()
    let first = directory.appendingPathComponent("a.jsonl").path
    let second = directory.appendingPathComponent("b.jsonl").path
    let arguments = [
      "shrink", PowerTools.fixture("todo-session.jsonl"), "--until", "todos.count >= 6",
    ]
    let a = PowerTools.run(arguments + ["-o", first])
    let b = PowerTools.run(arguments + ["-o", second])
    #expect(a.status == 0 && b.status == 0, "stderr: \(a.err) \(b.err)")
    let logA = try ReplayLog(path: first)
    let logB = try ReplayLog(path: second)
    #expect(logA.actionCount == 6)
    let actionsA = try (1...logA.lastSeq).map { try logA.action(at: $0).payload }
    let actionsB = try (1...logB.lastSeq).map { try logB.action(at: $0).payload }
    #expect(actionsA == actionsB)
  }

  /// The new log's header takes the recorded state's text as it is — unless that text, put
  /// together from a `state` record's parts, has line breaks between its tokens, which would
  /// break the header's line: then it is written again, compactly.
  @Test func theNewHeadersStateIsOneLineWhateverTheRecordedTextHolds() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let directory = try PowerTools.temporaryDirectory()
    let log = directory.appendingPathComponent("parted.jsonl").path
    try [
      #"{"kind":"header","format":"rewind","version":2,"session":"s","app":"counter","#
        + #""actionType":"CounterAction","stateType":"CounterState","#
        + #""recordedAt":"2026-11-21T10:00:00Z","firstSeq":3,"stateFollows":true}"#,
      #"{"kind":"state","seq":2,"part":0,"parts":2,"text":"{\"count\":\n"}"#,
      #"{"kind":"state","seq":2,"part":1,"parts":2,"text":"2}"}"#,
      #"{"kind":"action","seq":3,"type":"increment","action":{"increment":{}}}"#,
      #"{"kind":"action","seq":4,"type":"increment","action":{"increment":{}}}"#,
    ].joined(separator: "\n").appending("\n").write(toFile: log, atomically: true, encoding: .utf8)
    let out = directory.appendingPathComponent("min.jsonl").path
    let result = PowerTools.run(["shrink", log, "--until", "count >= 3", "-o", out])
    #expect(result.status == 0, "stderr: \(result.err)")
    let shrunk = try ReplayLog(path: out, recovery: .strict)
    #expect(shrunk.header.state == .object([JSONMember("count", .number("2"))]))
    #expect(shrunk.actionCount == 1)
  }

  @Test func aConditionTheWholeLogDoesNotReachIsAnError() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let result = PowerTools.run([
      "shrink", PowerTools.fixture("counter.jsonl"), "--until", "count > 1000",
    ])
    #expect(result.status == 2)
    #expect(result.err.contains("does not reach the condition 'count > 1000'"))
  }

  @Test func ddminFindsOneMinimalSubsequence() {
    // Holds when the subsequence contains both 3 and 7.
    let result = DeltaDebugging.minimize(Array(0..<40), maxTests: 1000) { candidate in
      candidate.contains(3) && candidate.contains(7)
    }
    #expect(result.items == [3, 7])
    #expect(!result.budgetExhausted)
    let limited = DeltaDebugging.minimize(Array(0..<40), maxTests: 2) { $0.contains(3) }
    #expect(limited.budgetExhausted)
    #expect(limited.tests == 2)
  }

  @Test(arguments: [
    ("crash", ShrinkCondition.crash), ("type=move", .crashIn(type: "move")),
  ])
  func conditionsParse(text: String, expected: ShrinkCondition) throws {
    #expect(try ShrinkCondition.parse(text) == expected)
  }

  /// A predicate is checked on the final state's text: the value at its path, a count, and a
  /// path the state lacks (not satisfied), as on the parsed state.
  @Test func aPredicateIsCheckedOnTheStatesText() throws {
    let state = Array(#"{"todos":[{"title":"a"},{"title":"b"}],"filter":"all"}"#.utf8)
    func holds(_ condition: String) throws -> Bool {
      try ShrinkCondition.parse(condition).isSatisfied(by: .success(state))
    }
    #expect(try holds(#"filter == "all""#))
    #expect(try !holds(#"filter == "done""#))
    #expect(try holds("todos.count > 1"))
    #expect(try holds(#"todos[1].title == "b""#))
    #expect(try !holds("todos[5].title == 1"))
    #expect(try !holds("missing == 1"))
    #expect(try !ShrinkCondition.parse("crash").isSatisfied(by: .success(state)))
  }

  /// A condition that does not parse is explained in shrink's words, not the session's; one
  /// written without spaces around its operator parses.
  @Test func aConditionThatDoesNotParseIsExplainedWithoutTheSessionsCommand() throws {
    #expect(try ShrinkCondition.parse(#"filter=="all""#).description == #"filter == "all""#)
    #expect {
      try ShrinkCondition.parse("filter all")
    } throws: { error in
      let text = "\(error)"
      return !text.contains("break") && text.contains("PATH OP VALUE")
    }
  }
}

import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

private func fixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// `replay diff`'s engine on the divergent fixtures and on hand-made pairs.
@Suite struct LogDiffTests {
  /// A log of `actions` for the counter app, made in memory.
  private func counterLog(_ name: String, _ actions: [CounterAction]) throws -> ReplayLog {
    var text =
      #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"counter","actionType":"CounterAction","stateType":"CounterState","firstSeq":1,"state":{"count":0}}"#
      + "\n"
    let encoder = RewindJSONEncoder()
    for (n, action) in actions.enumerated() {
      let json = try encoder.encodeValue(action)
      let type = if case .object(let members) = json { members[0].key } else { "?" }
      text +=
        #"{"kind":"action","seq":\#(n + 1),"type":"\#(type)","action":\#(json.jsonText)}"#
        + "\n"
    }
    text += #"{"kind":"end","seq":\#(actions.count),"reason":"closed"}"# + "\n"
    return try ReplayLog(name: name, contents: Array(text.utf8))
  }

  private func diff(_ a: ReplayLog, _ b: ReplayLog) throws -> LogDiff {
    let app = ReplayApp(name: "counter", reducer: counterReducer)
    return try LogDiff(a, b, timelines: (try app.timeline(for: a), try app.timeline(for: b)))
  }

  @Test func identicalLogsAreEquivalent() throws {
    let actions: [CounterAction] = [.increment, .add(5), .decrement]
    let result = try diff(counterLog("a", actions), counterLog("b", actions))
    #expect(result.isEquivalent)
    #expect(result.firstDivergence == nil)
    #expect(result.hunks.isEmpty)
  }

  @Test func oneInsertionIsOneStretchOnlyInB() throws {
    let a: [CounterAction] = (1...100).map { .add($0) }
    var b = a
    b.insert(.decrement, at: 40)
    let result = try diff(counterLog("a", a), counterLog("b", b))
    #expect(
      result.hunks == [LogDiff.Hunk(seqsInA: nil, seqsInB: 41...41, beforeA: 41, beforeB: 41)])
    #expect(result.firstDivergence?.a == 41)
    #expect(result.firstDivergence?.b == 41)
    #expect(!result.isEquivalent)
    #expect(JSONDiff.render(result.finalChanges?.all) == "count: 5050 → 5049")
  }

  @Test func oneDeletionIsOneStretchOnlyInA() throws {
    let a: [CounterAction] = (1...100).map { .add($0) }
    var b = a
    b.remove(at: 9)
    let result = try diff(counterLog("a", a), counterLog("b", b))
    #expect(
      result.hunks == [LogDiff.Hunk(seqsInA: 10...10, seqsInB: nil, beforeA: 10, beforeB: 10)])
    #expect(JSONDiff.render(result.finalChanges?.all) == "count: 5050 → 5040")
  }

  @Test func disjointLogsAreOneStretch() throws {
    let result = try diff(
      counterLog("a", [.increment, .increment]), counterLog("b", [.add(2), .add(3), .add(4)]))
    #expect(result.hunks == [LogDiff.Hunk(seqsInA: 1...2, seqsInB: 1...3, beforeA: 1, beforeB: 1)])
    #expect(result.firstDivergence?.a == 1)
  }

  @Test func theDivergentFixturesDivergeAtAction200() throws {
    let a = try ReplayLog(path: fixture("todo-session.jsonl"))
    let b = try ReplayLog(path: fixture("todo-session-b.jsonl"))
    let app = ReplayApp(name: "todo", reducer: todoReducer)
    let result = try LogDiff(a, b, timelines: (try app.timeline(for: a), try app.timeline(for: b)))
    #expect(result.firstDivergence?.a == 200)
    #expect(result.firstDivergence?.b == 200)
    // The states compared at the divergence are those after each side's first stretch
    // (A 200…223, B 200…201), and the changes are exactly theirs.
    #expect(result.divergencePositions?.a == 223)
    #expect(result.divergencePositions?.b == 201)
    let stateA = try app.timeline(for: a).stateJSON(at: 223)
    let stateB = try app.timeline(for: b).stateJSON(at: 201)
    #expect(result.divergenceChanges?.all == JSONDiff.diff(stateA, stateB))
    #expect(result.finalChanges != nil)
    let withoutReducer = try LogDiff(a, b, timelines: nil)
    #expect(withoutReducer.divergencePositions == nil)
    #expect(withoutReducer.hunks == result.hunks)
    #expect(!withoutReducer.comparedStates)
  }

  @Test func theFixturesDiffTheSameOpenedWithOrWithoutTheirIdentities() throws {
    // `replay diff` opens its logs with `identifiesActions`; other callers may not.
    let app = ReplayApp(name: "todo", reducer: todoReducer)
    let pairs = [
      ("todo-session.jsonl", "todo-session-b.jsonl"), ("todo-session-b.jsonl", "todo-crash.jsonl"),
      ("todo-session.jsonl", "todo-origins.jsonl"), ("todo-crash.jsonl", "todo-crash.jsonl"),
    ]
    for (nameA, nameB) in pairs {
      var found: [String] = []
      for identifies in [false, true] {
        let a = try ReplayLog(path: fixture(nameA), identifiesActions: identifies)
        let b = try ReplayLog(path: fixture(nameB), identifiesActions: identifies)
        // (The crash fixture's app trapped: its states are compared in `DiffCrashTests`.)
        let withStates = !nameA.contains("crash") && !nameB.contains("crash")
        let result = try LogDiff(
          a, b,
          timelines: withStates ? (try app.timeline(for: a), try app.timeline(for: b)) : nil)
        found.append(
          "\(result.hunks) \(String(describing: result.divergencePositions)) "
            + "\(JSONDiff.render(result.divergenceChanges?.all)) "
            + "\(JSONDiff.render(result.finalChanges?.all)) \(result.isEquivalent)")
      }
      #expect(found[0] == found[1], "\(nameA) \(nameB)")
      #expect(found[0].contains("Hunk") == (nameA != nameB), "\(nameA) \(nameB): \(found[0])")
    }
  }

  @Test func tenChangesInALongLogAreTenStretches() throws {
    let a: [CounterAction] = (0..<20_000).map { .add($0 % 97) }
    var b = a
    for position in stride(from: 1_000, through: 19_000, by: 2_000) { b[position] = .decrement }
    let result = try LogDiff(counterLog("a", a), counterLog("b", b), timelines: nil)
    #expect(result.hunks.count == 10)
    #expect(result.hunks.allSatisfy { $0.seqsInA?.count == 1 && $0.seqsInB?.count == 1 })
  }

  /// A todo log of three actions whose second is `second`, checksummed or hand-written.
  private func todoLog(
    _ name: String, second: String, checksummed: Bool, limits: ReaderLimits = .default
  ) throws -> ReplayLog {
    var text = LogText(checksummed: checksummed)
    text.header()
    text.action(seq: 1, type: "add", json: #"{"add":{"title":"milk"}}"#)
    text.action(seq: 2, type: "add", json: second)
    text.action(seq: 3, type: "toggle", json: #"{"toggle":{"id":1}}"#)
    text.end(seq: 3)
    return try ReplayLog(name: name, contents: text.bytes, limits: limits)
  }

  @Test func checksummedAndHandWrittenLinesOfTheSameActionsAreEqual() throws {
    // A checksummed line is identified by its action's bytes, unparsed; a hand-written one by
    // its parsed, compact JSON: the two meet when the hand-written one has extra spaces.
    let recorded = try todoLog("a", second: #"{"add":{"title":"eggs"}}"#, checksummed: true)
    let edited = try todoLog("b", second: #"{ "add" : { "title" : "eggs" } }"#, checksummed: false)
    let result = try LogDiff(recorded, edited, timelines: nil)
    #expect(result.hunks.isEmpty)
    let changed = try todoLog("c", second: #"{ "add" : { "title" : "ham" } }"#, checksummed: false)
    #expect(
      try LogDiff(recorded, changed, timelines: nil).hunks == [
        LogDiff.Hunk(seqsInA: 2...2, seqsInB: 2...2, beforeA: 2, beforeB: 2)
      ])
  }

  @Test func matchedPairsAreCheckedBeforeBetweenAndAfterTheHunks() {
    // Old 0 1 [2] 3 4 and new 0 1 [2 3] 4 5: the pairs (0,0) (1,1) (3,4) (4,5) are matched.
    let hunks = [ArrayAlignment.Hunk(old: 2..<3, new: 2..<4)]
    var checked: [[Int]] = []
    #expect(
      ReplayLog.matchedPairsAreEqual(hunks, oldCount: 5, newCount: 6) { old, new in
        checked.append([old, new])
        return true
      })
    #expect(checked == [[0, 0], [1, 1], [3, 4], [4, 5]])
    // A pair that turns out different (a hash collision), before or after a hunk, is reported.
    #expect(!ReplayLog.matchedPairsAreEqual(hunks, oldCount: 5, newCount: 6) { old, _ in old != 1 })
    #expect(!ReplayLog.matchedPairsAreEqual(hunks, oldCount: 5, newCount: 6) { old, _ in old != 4 })
    // No hunks: the sequences pair up whole.
    var whole: [[Int]] = []
    _ = ReplayLog.matchedPairsAreEqual([], oldCount: 2, newCount: 2) {
      whole.append([$0, $1])
      return true
    }
    #expect(whole == [[0, 0], [1, 1]])
  }

  @Test func aSanitizedLineIsComparedByItsActionAlone() throws {
    // The recorder's `,"sanitized":true` after the action is not part of the action.
    var text = LogText()
    text.header()
    text.action(seq: 1, type: "add", json: #"{"add":{"title":"milk"}}"#)
    text.record(
      #""kind":"action","seq":2,"time":0.5,"type":"add","action":{"add":{"title":"eggs"}},"sanitized":true"#
    )
    text.action(seq: 3, type: "toggle", json: #"{"toggle":{"id":1}}"#)
    text.end(seq: 3)
    let sanitized = try ReplayLog(name: "a", contents: text.bytes)
    let plain = try todoLog("b", second: #"{"add":{"title":"eggs"}}"#, checksummed: true)
    #expect(try LogDiff(sanitized, plain, timelines: nil).hunks.isEmpty)
    let other = try todoLog("c", second: #"{"add":{"title":"eggs!"}}"#, checksummed: true)
    #expect(try LogDiff(sanitized, other, timelines: nil).hunks.count == 1)
  }

  @Test func aChecksummedLineThatIsNotJSONFailsWhenItsActionIsDecoded() throws {
    // Only a crafted file has a matching checksum over invalid JSON. Opening the log finds it,
    // unless told not to check; then comparing actions takes the bytes as they are, and
    // rebuilding the states decodes the action and names the line.
    do {
      _ = try todoLog("a", second: #"{"add":{"title":"eggs"]]"#, checksummed: true)
      Issue.record("a log with a checksummed line that is not JSON opened")
    } catch {
      #expect("\(error)".hasPrefix("a:3 (byte "), "\(error)")
      #expect("\(error)".contains("invalid JSON"), "\(error)")
    }
    var unchecked = ReaderLimits.default
    unchecked.checksJSONAtOpen = false
    let broken = try todoLog(
      "a", second: #"{"add":{"title":"eggs"]]"#, checksummed: true, limits: unchecked)
    #expect(try LogDiff(broken, broken, timelines: nil).hunks.isEmpty)
    let app = ReplayApp(name: "todo", reducer: todoReducer)
    do {
      _ = try LogDiff(
        broken, broken, timelines: (try app.timeline(for: broken), try app.timeline(for: broken)))
      Issue.record("rebuilding the states decoded an invalid line")
    } catch {
      let message = "\(error)"
      #expect(message.hasPrefix("a:3 (byte "), "\(message)")
      #expect(message.contains("invalid JSON"), "\(message)")
    }
  }
}

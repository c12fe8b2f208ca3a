import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// `history PATH` and `blame PATH` against a brute-force oracle: every state rebuilt on its own
/// and the value at the path compared with the one before, on the todo fixture and on generated
/// logs.
@Suite struct ValueHistoryTests {
  /// The changes the oracle finds: for every position after `first`, the value at `path` there
  /// against the one before (each state rebuilt and parsed whole).
  static func oracle(
    _ log: ReplayLog, _ path: JSONPath, from first: Int, through last: Int
  ) throws -> [ValueHistory.Change] {
    try oracle(states(log), path, from: first, through: last)
  }

  /// Every state of `log`, rebuilt and parsed, by position.
  static func states(_ log: ReplayLog) throws -> [JSONValue] {
    let timeline = Timeline(log: log, reducer: todoReducer)
    return try log.positions.map { try timeline.stateJSON(at: $0) }
  }

  /// The oracle's changes from the states of every position, `states[0]` the first's.
  static func oracle(
    _ states: [JSONValue], _ path: JSONPath, from first: Int, through last: Int
  ) -> [ValueHistory.Change] {
    var previous = states[first].valueIfPresent(at: path)
    var changes: [ValueHistory.Change] = []
    guard first < last else { return [] }
    for position in (first + 1)...last {
      let current = states[position].valueIfPresent(at: path)
      if current != previous {
        changes.append(ValueHistory.Change(seq: position, before: previous, after: current))
      }
      previous = current
    }
    return changes
  }

  /// The todo ids that ever exist in `log`: those its `add`s made, 1 up to the last `nextID`.
  static func ids(_ log: ReplayLog) throws -> ClosedRange<Int> {
    let timeline = Timeline(log: log, reducer: todoReducer)
    let last = try timeline.state(at: log.positions.upperBound)
    return 1...max(1, last.nextID - 1)
  }

  static func logs() throws -> [(String, ReplayLog)] {
    var logs = [("todo-session", try ReplayLog(path: LogFixture.path("todo-session.jsonl")))]
    for seed: UInt64 in [3, 29] {
      let recorded = try TodoRecording.record(actions: 300, seed: seed, checkpointInterval: 50)
      logs.append(
        ("generated \(seed)", try ReplayLog(name: "generated.jsonl", contents: recorded.bytes)))
    }
    return logs
  }

  @Test func everyPathsHistoryIsWhatEveryStateSays() throws {
    for (name, log) in try Self.logs() {
      let debugger = Debugger(log: log, timeline: Timeline(log: log, reducer: todoReducer))
      let states = try Self.states(log)
      var paths = ["filter", "nextID", "todos.count", "todos[0].title"]
      for id in try Self.ids(log).prefix(8) {
        paths += ["todos[id=\(id)].title", "todos[id=\(id)]", "todos[id=\(id)].done"]
      }
      let range = log.positions
      for text in paths {
        let path = try JSONPath.parse(text)
        let found = try debugger.history(of: path).history
        let expected = Self.oracle(
          states, path, from: range.lowerBound, through: range.upperBound)
        #expect(found.changes == expected, "\(name): \(text)")
        #expect(found.through == range.upperBound && !found.isTruncated, "\(name): \(text)")
      }
    }
  }

  @Test func aTodosTitleHistoryIsItsAddEveryRenameAndItsRemoval() throws {
    for (name, log) in try Self.logs() {
      let debugger = Debugger(log: log, timeline: Timeline(log: log, reducer: todoReducer))
      var renamesSeen = 0
      for id in try Self.ids(log).prefix(12) {
        let changes = try debugger.history(of: JSONPath.parse("todos[id=\(id)].title")).history
          .changes
        for (n, change) in changes.enumerated() {
          let payload = try #require(try log.action(at: change.seq).payload)
          let action = try JSONDecoder().decode(
            TodoAction.self, from: Data(payload.serializedBytes))
          switch action {
          case .add: #expect(n == 0 && change.before == nil, "\(name) id \(id): \(change)")
          case .rename(let renamed, let title):
            #expect(renamed == id && change.after == .string(title), "\(name) id \(id)")
            renamesSeen += 1
          case .remove(let removed): #expect(removed == id && change.after == nil)
          case .clearCompleted: #expect(change.after == nil, "\(name) id \(id)")
          default: Issue.record("\(name) id \(id): \(action) changed the title")
          }
        }
      }
      #expect(renamesSeen > 0, "\(name) has renames")
    }
  }

  @Test func aRangeAndALimitCutTheHistory() throws {
    let log = try ReplayLog(path: LogFixture.path("todo-session.jsonl"))
    let debugger = Debugger(log: log, timeline: Timeline(log: log, reducer: todoReducer))
    let path = try JSONPath.parse("filter")
    let all = try Self.oracle(log, path, from: 0, through: 340)
    let ranged = try debugger.history(of: path, from: 100, through: 200).history
    #expect(ranged.changes == all.filter { (101...200).contains($0.seq) })
    #expect(ranged.initial == (try debugger.value(at: path, position: 100)))
    let limited = try debugger.history(of: path, limit: 3).history
    #expect(limited.changes == Array(all.prefix(3)))
    #expect(limited.isTruncated && limited.through == all[3].seq - 1)
  }

  @Test func blameIsTheLastTwoChangesUpToTheCursor() throws {
    let log = try ReplayLog(path: LogFixture.path("todo-session.jsonl"))
    let debugger = Debugger(log: log, timeline: Timeline(log: log, reducer: todoReducer))
    _ = try debugger.move(to: 120)
    let path = try JSONPath.parse("filter")
    let blamed = try debugger.blame(path).history
    #expect(blamed.changes == Array(try Self.oracle(log, path, from: 0, through: 120).suffix(2)))
    #expect(blamed.changes.last?.seq == 120)
  }

  @Test func identityStepsParseFindAndSayWhatIsMissing() throws {
    let path = try JSONPath.parse(#"todos[title="Buy milk"].done"#)
    #expect(path.components[1] == .matching(key: "title", value: #""Buy milk""#))
    #expect(path.description == #"todos[title="Buy milk"].done"#)
    #expect(
      try JSONPath.parse("todos[ id = 42 ]").components[1] == .matching(key: "id", value: "42"))
    let state = try JSONParser.parse(
      #"{"todos":[{"id":1,"title":"a"},{"id":42.0,"title":"b"}],"n":[]}"#)
    #expect(try state.value(at: JSONPath.parse("todos[id=42].title")) == .string("b"))
    let text = Array(state.jsonText.utf8)
    #expect(try JSONPath.parse("todos[id=42].title").value(inText: text) == .string("b"))
    #expect(throws: StatePathError.noMatchingElement("[id=7]", in: "todos", count: 2)) {
      try state.value(at: JSONPath.parse("todos[id=7]"))
    }
    #expect(throws: StatePathError.noMatchingElement("[id=7]", in: "todos", count: 2)) {
      try JSONPath.parse("todos[id=7]").value(inText: text)
    }
    for bad in ["todos[id=]", "todos[=3]", "todos[id=abc]", #"todos[id="x]"#, "todos[id=[1]]"] {
      #expect(throws: StatePathError.self, "\(bad)") { try JSONPath.parse(bad) }
    }
  }
}

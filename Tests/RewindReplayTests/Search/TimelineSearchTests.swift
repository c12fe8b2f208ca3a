import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

private func fixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// `continue` and `reverse-continue` against brute force: stepping one position at a time and
/// checking each breakpoint by hand.
@Suite struct TimelineSearchTests {
  private static let log: ReplayLog? = try? ReplayLog(path: fixture("todo-session.jsonl"))

  private static let breakpointSets: [[Breakpoint]] = [
    [.watch(JSONPath([.key("todos"), .key("count")]))],
    [.watch(JSONPath([.key("filter")]))],
    [.watch(JSONPath([.key("todos"), .index(0), .key("title")]))],
    [.actionType("move")],
    [.actionType("clearCompleted"), .watch(JSONPath([.key("nextID")]))],
    [.condition(JSONPath([.key("todos"), .key("count")]), .greaterOrEqual, .number("10"))],
    [.condition(JSONPath([.key("filter")]), .equal, .string("completed"))],
    [.condition(JSONPath([.key("todos"), .index(0), .key("title")]), .contains, .string("milk"))],
  ]

  /// The brute-force answer: the first position after (or before) `start` where a breakpoint
  /// triggers, computed from every state in order.
  private func bruteForce(
    _ states: [JSONValue], _ types: [String?], from start: Int, forward: Bool,
    _ breakpoints: [Breakpoint]
  ) -> Int? {
    let positions =
      forward
      ? Array(stride(from: start + 1, to: states.count, by: 1))
      : Array(stride(from: start - 1, through: 1, by: -1))
    for q in positions {
      for breakpoint in breakpoints {
        switch breakpoint {
        case .actionType(let name):
          if types[q] == name { return q }
        case .watch(let path):
          if states[q].valueIfPresent(at: path) != states[q - 1].valueIfPresent(at: path) {
            return q
          }
        case .condition(let path, let comparison, let value):
          let now = states[q].valueIfPresent(at: path).map { comparison.holds($0, value) } ?? false
          let before =
            states[q - 1].valueIfPresent(at: path).map { comparison.holds($0, value) } ?? false
          if now && !before { return q }
        }
      }
    }
    return nil
  }

  @Test(arguments: 0..<8)
  func searchesMatchBruteForceFromEveryStartInBothDirections(set: Int) throws {
    let log = try #require(Self.log)
    let timeline = Timeline(log: log, reducer: todoReducer, stride: 16)
    let states = try log.positions.map { try timeline.stateJSON(at: $0) }
    let types = try log.positions.map { $0 == 0 ? nil : try log.action(at: $0).type }
    let breakpoints = Self.breakpointSets[set]
    let numbered = breakpoints.enumerated().map { (id: $0.offset + 1, breakpoint: $0.element) }
    for start in stride(from: 0, through: log.lastSeq, by: 7) {
      for forward in [true, false] {
        let expected = bruteForce(states, types, from: start, forward: forward, breakpoints)
        let hit = try TimelineSearch.run(
          timeline, from: start, direction: forward ? .forward : .backward, breakpoints: numbered)
        #expect(hit?.position == expected, "set \(set), from \(start), forward \(forward)")
      }
    }
  }

  @Test func aReverseContinueAcrossTheWholeLogStopsAtTheLastChange() throws {
    let log = try #require(Self.log)
    let timeline = Timeline(log: log, reducer: todoReducer)
    let hit = try TimelineSearch.run(
      timeline, from: log.lastSeq, direction: .backward,
      breakpoints: [(1, .watch(JSONPath([.key("filter")])))])
    let position = try #require(hit?.position)
    #expect(try log.action(at: position).type == "setFilter")
    #expect(hit?.reasons.first?.text.hasPrefix("filter: ") == true)
  }

  @Test(arguments: [
    ("type=move", Breakpoint.actionType("move")),
    (
      "if todos.count > 3",
      .condition(JSONPath([.key("todos"), .key("count")]), .greater, .number("3"))
    ),
    (
      #"if filter == "completed""#,
      .condition(JSONPath([.key("filter")]), .equal, .string("completed"))
    ),
    (
      #"if todos[0].title contains "milk""#,
      .condition(JSONPath([.key("todos"), .index(0), .key("title")]), .contains, .string("milk"))
    ),
    // Symbols need no spaces around them.
    (
      "if todos.count>3",
      .condition(JSONPath([.key("todos"), .key("count")]), .greater, .number("3"))
    ),
    (#"if filter=="all""#, .condition(JSONPath([.key("filter")]), .equal, .string("all"))),
    (
      #"if todos[0].title!= "a <= b""#,
      .condition(
        JSONPath([.key("todos"), .index(0), .key("title")]), .notEqual, .string("a <= b"))
    ),
    ("if nextID>=10", .condition(JSONPath([.key("nextID")]), .greaterOrEqual, .number("10"))),
  ])
  func breakCommandsParse(text: String, expected: Breakpoint) throws {
    #expect(try Breakpoint.parseBreak(text) == expected)
  }

  @Test func badBreakCommandsSayWhatIsWrong() {
    #expect(throws: BreakpointParseError.self) { try Breakpoint.parseBreak("if todos.count ~ 3") }
    #expect(throws: BreakpointParseError.self) { try Breakpoint.parseBreak("when x") }
    #expect(throws: BreakpointParseError.self) { try Breakpoint.parseBreak("type=") }
    do {
      let parsed = try Breakpoint.parseBreak("if todos.count => 3")
      Issue.record("parsed as \(parsed)")
    } catch {
      #expect(
        error.description
          == "'=>' is not an operator: did you mean '>='? Operators are == != < <= > >= contains")
    }
    #expect(throws: BreakpointParseError.self) { try Breakpoint.parseBreak("if todos.count>") }
  }
}

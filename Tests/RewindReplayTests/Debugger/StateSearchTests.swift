import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// `search` inside the state, at the cursor and across time, against an oracle that parses
/// every state whole.
@Suite struct StateSearchTests {
  static func log() throws -> ReplayLog {
    let recorded = try TodoRecording.record(actions: 400, seed: 17, checkpointInterval: 50)
    return try ReplayLog(name: "generated.jsonl", contents: recorded.bytes)
  }

  static let queries = [
    "bike", "BIKE", "Zoë", #"Read "Dune""#, "#7", "done", "true", "nextID", "filter",
    "completed", #"title="Buy milk""#, "done=true", "id=12", "nothing like this",
  ]

  @Test func theQuickLookAtTheTextAgreesWithTheTree() throws {
    let log = try Self.log()
    let timeline = Timeline(log: log, reducer: todoReducer)
    for position in stride(from: 0, through: log.positions.upperBound, by: 7) {
      let text = try timeline.stateJSONText(at: position)
      let state = try JSONParser.parse(text)
      for query in Self.queries.map(StateQuery.init(parsing:)) {
        #expect(
          query.isPresent(inText: text) == !query.matches(in: state).isEmpty,
          "\(query) at \(position)")
      }
    }
  }

  @Test func searchingAcrossTimeStopsWhereHavingAMatchChanges() throws {
    let log = try Self.log()
    let timeline = Timeline(log: log, reducer: todoReducer)
    let states = try log.positions.map { try timeline.stateJSON(at: $0) }
    for text in ["bike", "Zoë", "done=true", "completed"] {
      let query = StateQuery(parsing: text)
      let present = states.map { !query.matches(in: $0).isEmpty }
      for start in [0, 60, 200, log.positions.upperBound] {
        let debugger = Debugger(log: log, timeline: timeline)
        _ = try debugger.move(to: start)
        let forward = (start + 1..<present.count).first { present[$0] != present[start] }
        if let forward {
          let moved = try debugger.searchState(query, .forward)
          #expect(debugger.position == forward && moved.isPresent == present[forward], "\(text)")
        } else {
          #expect(throws: DebuggerError.self) { try debugger.searchState(query, .forward) }
        }
        _ = try debugger.move(to: start)
        let backward = (0..<start).last { present[$0] != present[start] }
        if let backward {
          _ = try debugger.searchState(query, .backward)
          #expect(debugger.position == backward, "\(text) back from \(start)")
        } else {
          #expect(throws: DebuggerError.self) { try debugger.searchState(query, .backward) }
        }
      }
    }
  }

  @Test func aTitleAddedAtKIsFoundAtKAndBackwardAtTheLastPositionThatHasIt() throws {
    let log = try ReplayLog(path: LogFixture.path("todo-session.jsonl"))
    let timeline = Timeline(log: log, reducer: todoReducer)
    let states = try log.positions.map { try timeline.stateJSON(at: $0) }
    var titles: Set<String> = []
    for state in states {
      for match in StateQuery(parsing: "title").matches(in: state) {
        if case .string(let title) = match.value { titles.insert(title) }
      }
    }
    var checked = 0
    for title in titles.sorted() where checked < 6 {
      let query = StateQuery(parsing: title)
      let present = states.map { !query.matches(in: $0).isEmpty }
      // A title the session adds after the start and no longer has at the end.
      guard !present[0], !present[present.count - 1],
        let added = present.firstIndex(of: true), let lastHad = present.lastIndex(of: true)
      else { continue }
      let debugger = Debugger(log: log, timeline: timeline)
      let moved = try debugger.searchState(query, .forward)
      #expect(debugger.position == added && moved.isPresent, "\(title)")
      #expect(
        try debugger.searchState(query).matches.allSatisfy {
          $0.value.jsonText.contains(title) || $0.path.sessionText.contains(title)
        })
      _ = try debugger.move(to: log.positions.upperBound)
      let back = try debugger.searchState(query, .backward)
      #expect(debugger.position == lastHad && back.isPresent, "\(title)")
      checked += 1
    }
    #expect(checked >= 2)
  }

  @Test func queriesParseAsTextOrAMember() {
    #expect(StateQuery(parsing: "milk") == .text("milk"))
    #expect(StateQuery(parsing: #"title="Buy milk""#) == .member("title", .string("Buy milk")))
    #expect(StateQuery(parsing: "id=12") == .member("id", .number("12")))
    #expect(StateQuery(parsing: "filter=active") == .member("filter", .string("active")))
    #expect(StateQuery(parsing: "title = Buy milk") == .member("title", .string("Buy milk")))
    #expect(StateQuery(parsing: "a b=c") == .text("a b=c"))
    #expect(StateQuery(parsing: "=x") == .text("=x"))
    #expect(StateQuery(parsing: #""Buy milk""#) == .text("Buy milk"))
  }
}

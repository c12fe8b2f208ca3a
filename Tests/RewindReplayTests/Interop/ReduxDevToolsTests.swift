import Foundation
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

private func fixture(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

@Suite struct ReduxDevToolsTests {
  @Test(arguments: [
    (#"{"add":{"title":"Buy milk"}}"#, #"{"type":"add","payload":{"title":"Buy milk"}}"#),
    (#"{"clearCompleted":{}}"#, #"{"type":"clearCompleted"}"#),
    (#"{"setFilter":{"_0":"active"}}"#, #"{"type":"setFilter","payload":{"_0":"active"}}"#),
    (#""reset""#, #"{"type":"@@rewind/raw","payload":"reset"}"#),
    (#"{"a":1,"b":2}"#, #"{"type":"@@rewind/raw","payload":{"a":1,"b":2}}"#),
  ])
  func actionsMapBothWays(rewind: String, redux: String) throws {
    let action = try JSONParser.parse(rewind)
    #expect(ReduxDevTools.reduxAction(action).jsonText == redux)
    #expect(try ReduxDevTools.rewindAction(JSONParser.parse(redux), index: 1) == action)
  }

  @Test func aJavaScriptStyleActionBecomesAnEnumCase() throws {
    let action = try JSONParser.parse(#"{"type":"toggle","payload":{"id":3}}"#)
    #expect(try ReduxDevTools.rewindAction(action, index: 1).jsonText == #"{"toggle":{"id":3}}"#)
    #expect(throws: InteropError.self) {
      try ReduxDevTools.rewindAction(JSONParser.parse(#"{"kind":"x"}"#), index: 4)
    }
  }

  @Test func exportThenImportGivesTheSameActionsAndStates() throws {
    let log = try ReplayLog(path: fixture("todo-session.jsonl"))
    let timeline = Timeline(log: log, reducer: todoReducer)
    var actions: [(action: JSONValue, state: JSONValue, timestamp: Double)] = []
    for seq in log.firstSeq...log.lastSeq {
      let record = try log.action(at: seq)
      actions.append((try #require(record.payload), try timeline.stateJSON(at: seq), Double(seq)))
    }
    let document = ReduxDevTools.export(
      initialState: log.header.state, actions: actions, startedAt: 0)
    // The file is what DevTools writes: a payload string holding the lifted state.
    let lifted = try JSONParser.parse(try #require(document["payload"]?.stringValue))
    #expect(
      lifted["stagedActionIds"].flatMap { if case .array(let a) = $0 { a.count } else { nil } }
        == 341)
    #expect(lifted["currentStateIndex"]?.intValue == 340)
    #expect(lifted["nextActionId"]?.intValue == 341)

    let session = try ReduxDevTools.import(JSONParser.parse(document.serializedBytes))
    #expect(session.initialState == log.header.state)
    #expect(session.actions.count == 340)
    for (n, entry) in session.actions.enumerated() {
      #expect(entry.action == actions[n].action)
      #expect(entry.state == actions[n].state)
    }
  }

  @Test func skippedActionsAreLeftOutAndCounted() throws {
    let lifted = #"""
      {"actionsById":{"0":{"type":"PERFORM_ACTION","action":{"type":"@@INIT"}},
       "1":{"type":"PERFORM_ACTION","action":{"type":"increment"}},
       "2":{"type":"PERFORM_ACTION","action":{"type":"add","payload":{"_0":5}}}},
       "computedStates":[{"state":{"count":0}},{"state":{"count":1}},{"state":{"count":1}}],
       "stagedActionIds":[0,1,2],"skippedActionIds":[2]}
      """#
    let session = try ReduxDevTools.import(JSONParser.parse(lifted))
    #expect(session.skippedCount == 1)
    #expect(session.actions.map(\.action.jsonText) == [#"{"increment":{}}"#])
    #expect(session.initialState.jsonText == #"{"count":0}"#)
  }

  @Test func notAnExportIsAClearError() throws {
    #expect(throws: InteropError.self) { try ReduxDevTools.import(JSONParser.parse(#"{"a":1}"#)) }
    do {
      _ = try ReduxDevTools.import(JSONParser.parse(#"{"payload":"{nope"}"#))
      Issue.record("expected an error")
    } catch {
      #expect("\(error)".hasPrefix("\"payload\" is not valid JSON"))
    }
  }
}

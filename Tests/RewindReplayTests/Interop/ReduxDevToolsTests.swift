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

private func document(_ name: String) throws -> JSONValue {
  try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: fixture(name)))))
}

/// The two shapes Redux DevTools writes (`Fixtures/redux-devtools/`, built as its exporters
/// build them), `jsan` markers, the action mapping rule and what it refuses to lose.
@Suite struct ReduxDevToolsTests {
  static func rewindAction(_ text: String, lenient: Bool = false) throws -> JSONValue {
    var warnings: [String] = []
    return try ReduxDevTools.rewindAction(
      JSONParser.parse(text), at: "payload[0]", lenient: lenient, warnings: &warnings)
  }

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
    #expect(try Self.rewindAction(redux) == action)
  }

  @Test(arguments: [
    // Classic Redux: the data beside `type` are the case's labelled values.
    (#"{"type":"toggle","id":1}"#, #"{"toggle":{"id":1}}"#),
    (#"{"type":"rename","id":2,"title":"x"}"#, #"{"rename":{"id":2,"title":"x"}}"#),
    (#"{"type":"clearCompleted"}"#, #"{"clearCompleted":{}}"#),
    // A Flux Standard Action: its payload; a value that is not an object is the one unlabelled
    // value; `error: false` says nothing.
    (#"{"type":"toggle","payload":{"id":3}}"#, #"{"toggle":{"id":3}}"#),
    (#"{"type":"setFilter","payload":"active"}"#, #"{"setFilter":{"_0":"active"}}"#),
    (#"{"type":"add","payload":{"title":"a"},"error":false}"#, #"{"add":{"title":"a"}}"#),
    // Both: everything but `type`, payload included, by label.
    (#"{"type":"x","payload":1,"id":2}"#, #"{"x":{"payload":1,"id":2}}"#),
  ])
  func reduxActionsMapByTheDocumentedRule(redux: String, rewind: String) throws {
    #expect(try Self.rewindAction(redux).jsonText == rewind)
  }

  @Test func whatARewindActionCannotHoldIsRefusedOrWarnedAbout() throws {
    for text in [
      #"{"type":"toggle","payload":{"id":1},"meta":{"source":"keyboard"}}"#,
      #"{"type":"toggle","payload":"boom","error":true}"#,
    ] {
      #expect {
        try Self.rewindAction(text)
      } throws: { error in
        "\(error)".hasPrefix("payload[0] (type \"toggle\"): its \"")
          && "\(error)".contains("--lenient drops it")
      }
      var warnings: [String] = []
      let kept = try ReduxDevTools.rewindAction(
        JSONParser.parse(text), at: "payload[0]", lenient: true, warnings: &warnings)
      #expect(kept.jsonText.hasPrefix(#"{"toggle":"#))
      #expect(warnings.count == 1 && warnings[0].hasPrefix("payload[0] (type \"toggle\"): its"))
    }
    #expect(throws: InteropError.self) { try Self.rewindAction(#"{"kind":"x"}"#) }
  }

  @Test func aBareArrayNamesItsElementsNotAPayload() throws {
    // A document that is the array itself, not `{"payload": …}`: its elements are named as such.
    do {
      _ = try ReduxDevTools.import(try JSONParser.parse(Array("[1,2,3]".utf8)))
      Issue.record("a bare array of numbers imported")
    } catch {
      #expect("\(error)".hasPrefix("(document)[0]: not an action"), "\(error)")
    }
  }

  @Test func theActionsExportImportsWithItsPreloadedState() throws {
    let session = try ReduxDevTools.import(document("redux-devtools/actions-export.json"))
    #expect(session.shape == .actions)
    #expect(
      session.initialState?.jsonText
        == #"{"todos":[{"id":1,"title":"Read the manual","done":false}],"filter":"all","nextID":2}"#
    )
    #expect(
      session.actions.map(\.action.jsonText) == [
        #"{"add":{"title":"Buy milk"}}"#, #"{"add":{"title":"Call mum"}}"#,
        #"{"toggle":{"id":1}}"#, #"{"setFilter":{"_0":"active"}}"#,
        #"{"rename":{"id":2,"title":"Call dad"}}"#, #"{"add":{"title":"Water the plants"}}"#,
        #"{"toggle":{"id":3}}"#, #"{"clearCompleted":{}}"#, #"{"setFilter":{"_0":"all"}}"#,
      ])
    #expect(session.actions.allSatisfy { $0.state == nil && $0.timestamp == nil })
    #expect(session.startedAt == nil && session.skippedCount == 0 && session.warnings.isEmpty)
    // Every action decodes as the todo app's.
    for entry in session.actions {
      _ = try RewindJSONDecoder().decode(TodoAction.self, from: entry.action)
    }

    let bare = try ReduxDevTools.import(
      document("redux-devtools/actions-export-no-preloaded-state.json"))
    #expect(bare.initialState == nil)
    #expect(bare.actions.map(\.action) == session.actions.map(\.action))

    #expect {
      try ReduxDevTools.import(document("redux-devtools/actions-export-with-meta.json"))
    } throws: { error in
      "\(error)".hasPrefix(#"payload[1] (type "toggle"): its "meta" ({"source":"keyboard"})"#)
    }
  }

  @Test func aLiftedStateWithJSANReferencesImportsWholeAndTimed() throws {
    let session = try ReduxDevTools.import(document("redux-devtools/lifted-state-jsan.json"))
    #expect(session.shape == .liftedState)
    #expect(session.startedAt == 1_795_255_200_000)
    #expect(session.skippedCount == 1)
    #expect(session.initialState?.jsonText == #"{"todos":[],"filter":"all","nextID":1}"#)
    #expect(
      session.actions.map(\.action.jsonText) == [
        #"{"add":{"title":"Buy milk"}}"#, #"{"add":{"title":"Call mum"}}"#,
        // `note` was undefined: left out, as JSON.stringify would.
        #"{"toggle":{"id":1}}"#, #"{"setFilter":{"_0":"active"}}"#, #"{"toggle":{"id":99}}"#,
        #"{"clearCompleted":{}}"#,
      ])
    #expect(
      session.actions.map { $0.timestamp.map { $0 - 1_795_255_200_000 } } == [
        1250, 2500, 3000, 4125, 5000, 6750,
      ])
    // References are resolved against the document: each state is whole.
    #expect(
      session.actions.map { $0.state?.jsonText ?? "" } == [
        #"{"todos":[{"id":1,"title":"Buy milk","done":false}],"filter":"all","nextID":2}"#,
        #"{"todos":[{"id":1,"title":"Buy milk","done":false},{"id":2,"title":"Call mum","done":false}],"filter":"all","nextID":3}"#,
        #"{"todos":[{"id":1,"title":"Buy milk","done":true},{"id":2,"title":"Call mum","done":false}],"filter":"all","nextID":3}"#,
        #"{"todos":[{"id":1,"title":"Buy milk","done":true},{"id":2,"title":"Call mum","done":false}],"filter":"active","nextID":3}"#,
        #"{"todos":[{"id":1,"title":"Buy milk","done":true},{"id":2,"title":"Call mum","done":false}],"filter":"active","nextID":3}"#,
        #"{"todos":[{"id":2,"title":"Call mum","done":false}],"filter":"active","nextID":3}"#,
      ])
    // And they are the todo app's states after each action.
    var state = try RewindJSONDecoder().decode(
      TodoState.self, from: try #require(session.initialState))
    for entry in session.actions {
      todoReducer.reduce(
        &state, try RewindJSONDecoder().decode(TodoAction.self, from: entry.action))
      #expect(try RewindJSONEncoder().encodeValue(state) == entry.state)
    }
  }

  @Test func jsanMarkersOfEveryKind() throws {
    let text = #"""
      {"payload":[{"type":"stamp","at":{"$jsan":"d1795255200000"},"tags":{"$jsan":"l[\"a\",\"b\"]"},
        "byName":{"$jsan":"m[[\"x\",1],[\"y\",2]]"},"byNumber":{"$jsan":"m[[1,\"a\"]]"},
        "same":{"$jsan":"$[0].tags"},"odd key":{"$jsan":["kept"]},"gone":{"$jsan":"u"},
        "list":[1,{"$jsan":"u"}]}]}
      """#
    let session = try ReduxDevTools.import(JSONParser.parse(text))
    let seconds = 1_795_255_200 - Date.timeIntervalBetween1970AndReferenceDate
    #expect(
      session.actions.first?.action.jsonText
        == #"{"stamp":{"at":\#(JSONValue.number(String(Int(seconds))).jsonText),"tags":["a","b"],"byName":{"x":1,"y":2},"byNumber":[1,"a"],"same":["a","b"],"odd key":{"$jsan":"kept"},"list":[1,null]}}"#
    )
    // A date decodes as Swift's `Date`, to the millisecond.
    let at = try #require(session.actions.first?.action["stamp"]?["at"])
    #expect(
      try RewindJSONDecoder().decode(Date.self, from: at)
        == Date(timeIntervalSince1970: 1_795_255_200))

    for (marker, what) in [
      ("n", "NaN"), ("i", "Infinity"), ("y", "-Infinity"), ("r/a+/g", "a regular expression"),
      ("ffunction () { /* ... */ }", "a function"), ("eboom", "an Error"), ("sid", "a Symbol"),
    ] {
      let lossy = #"{"payload":[{"type":"x","v":{"$jsan":"\#(marker)"}}]}"#
      #expect {
        try ReduxDevTools.import(JSONParser.parse(lossy))
      } throws: { error in
        "\(error)".hasPrefix("payload[0].v: \(what)")
          && "\(error)".contains(" cannot be kept in a Rewind log; --lenient imports it as ")
      }
      let lenient = try ReduxDevTools.import(JSONParser.parse(lossy), lenient: true)
      #expect(lenient.warnings.count == 1 && lenient.warnings[0].hasPrefix("payload[0].v: \(what)"))
    }
    #expect {
      try ReduxDevTools.import(
        JSONParser.parse(#"{"payload":[{"type":"x","self":{"$jsan":"$[0]"}}]}"#))
    } throws: { error in
      "\(error)".contains("points into itself (a circular structure)")
    }
    #expect {
      try ReduxDevTools.import(
        JSONParser.parse(#"{"payload":[{"type":"x","r":{"$jsan":"$.nope"}}]}"#))
    } throws: { error in
      "\(error)".contains("leads nowhere")
    }
  }

  /// References copy what they point at: a few hundred bytes can stand for a document of 2^40
  /// values, or one nested thousands of levels deep. Each is refused before the memory is spent,
  /// saying why.
  @Test(arguments: [
    // Level n is an array referring twice to level n - 1: level 40 holds 2^40 values.
    (
      #"[1,1]"#, #"[{"$jsan":"$[0].L"},{"$jsan":"$[0].L"}]"#, 40,
      "the $jsan references expand to more than 16777216 values"
    ),
    // Level n wraps level n - 1 in one more array: level 600 is 600 levels deep.
    (
      "1", #"[{"$jsan":"$[0].L"}]"#, 600,
      "the $jsan references nest values more than 510 levels deep"
    ),
    // Reference to reference to reference …, 100,000 long, with no container between.
    ("1", #"{"$jsan":"$[0].L"}"#, 100_000, "is reached through more than 512 other references"),
  ])
  func jsanReferencesThatExpandPastWhatALogLineHoldsAreRefused(
    first: String, level: String, count: Int, reason: String
  ) throws {
    // Members l0 … l<count>; `L` in `level` names the member before.
    var members = [#""l0":\#(first)"#]
    for n in 1...count {
      members.append(#""l\#(n)":"# + level.replacingOccurrences(of: ".L", with: ".l\(n - 1)"))
    }
    let text = #"{"payload":[{"type":"x",\#(members.joined(separator: ","))}]}"#
    #expect {
      try ReduxDevTools.import(JSONParser.parse(text))
    } throws: { error in
      "\(error)".contains(reason)
    }
  }

  @Test func exportWritesABareLiftedStateThatImportsBack() throws {
    let log = try ReplayLog(path: fixture("todo-session.jsonl"))
    let timeline = Timeline(log: log, reducer: todoReducer)
    var actions: [(action: JSONValue, state: [UInt8], timestamp: Double)] = []
    for seq in log.firstSeq...log.lastSeq {
      let record = try log.action(at: seq)
      actions.append(
        (try #require(record.payload), try timeline.stateJSONText(at: seq), 1000 + Double(seq)))
    }
    // Each state is asked for once, in order, after the actions; the first one again last.
    var asked: [Int] = []
    var text: [UInt8] = []
    ReduxDevTools.export(
      actions: actions.map { ($0.action, $0.timestamp) }, startedAt: 1000,
      state: { index in
        asked.append(index)
        return index == 0 ? log.header.state.serializedBytes : actions[index - 1].state
      },
      write: { text.append(contentsOf: $0) })
    #expect(asked == Array(0...actions.count) + [0])
    let lifted = try JSONParser.parse(text)
    // What the real instrument checks: every staged id has an action with a string type, @@INIT
    // at 0, one computed state per staged id, the current index in range.
    guard case .array(let staged)? = lifted["stagedActionIds"],
      case .array(let computed)? = lifted["computedStates"]
    else {
      Issue.record("no stagedActionIds or computedStates")
      return
    }
    #expect(staged.count == 341 && computed.count == 341)
    for id in staged {
      #expect(
        lifted["actionsById"]?[String(id.intValue ?? -1)]?["action"]?["type"]?.stringValue != nil)
    }
    #expect(lifted["actionsById"]?["0"]?["action"]?["type"]?.stringValue == "@@INIT")
    #expect(lifted["actionsById"]?["0"]?["timestamp"]?.intValue == 1000)
    #expect(lifted["currentStateIndex"]?.intValue == 340)
    #expect(lifted["nextActionId"]?.intValue == 341)
    #expect(lifted["committedState"] == log.header.state)
    #expect(lifted["payload"] == nil)

    let session = try ReduxDevTools.import(lifted)
    #expect(session.initialState == log.header.state)
    #expect(session.startedAt == 1000)
    #expect(session.actions.count == 340)
    for (n, entry) in session.actions.enumerated() {
      #expect(entry.action == actions[n].action)
      #expect(entry.state == (try JSONParser.parse(actions[n].state)))
      #expect(entry.timestamp == actions[n].timestamp)
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
    #expect(session.reducerErrors.isEmpty)
    // A state DevTools marks with the JavaScript reducer's error is reported with its position.
    let failing = try ReduxDevTools.import(
      JSONParser.parse(
        lifted.replacingOccurrences(
          of: #"{"state":{"count":1}},{"state":{"count":1}}"#,
          with: #"{"state":{"count":0},"error":"TypeError: x is undefined"},{"state":{"count":1}}"#)
      ))
    #expect(failing.reducerErrors.map(\.position) == [1])
    #expect(failing.reducerErrors.map(\.message) == ["TypeError: x is undefined"])
    #expect(session.actions.map(\.action.jsonText) == [#"{"increment":{}}"#])
    #expect(session.initialState?.jsonText == #"{"count":0}"#)
  }

  @Test func notADevToolsFileIsAClearError() throws {
    #expect {
      try ReduxDevTools.import(JSONParser.parse(#"{"a":1}"#))
    } throws: { error in
      "\(error)".hasPrefix("neither an actions export")
    }
    #expect {
      try ReduxDevTools.import(JSONParser.parse(#"{"payload":"{nope"}"#))
    } throws: { error in
      "\(error)".hasPrefix("\"payload\" is not valid JSON text")
    }
  }
}

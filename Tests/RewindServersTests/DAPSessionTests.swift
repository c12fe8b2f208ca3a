import Foundation
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindServers

/// Whole Debug Adapter Protocol sessions on the fixtures, driven by a scripted client; every
/// response and event is checked against the official schema as it arrives.
@Suite struct DAPSessionTests {
  @Test func theOfficialSchemaIsThere() {
    #expect(
      DAPSchemaValidator.official != nil,
      Comment(
        rawValue: "the DAP schema is read from \(DAPSchemaValidator.schemaPath); without it no "
          + "message is checked against the protocol"))
  }

  @Test func initializeAdvertisesStepBackAndTheBreakpointKinds() {
    let client = DAPTestClient()
    let (response, events) = client.send("initialize", [string("adapterID", "rewind")])
    let body = response["body"]
    for capability in [
      "supportsStepBack", "supportsConfigurationDoneRequest", "supportsDataBreakpoints",
      "supportsFunctionBreakpoints", "supportsConditionalBreakpoints",
      "supportsGotoTargetsRequest", "supportsExceptionInfoRequest",
    ] {
      #expect(body?[capability] == .bool(true), "\(capability)")
    }
    #expect(body?["supportsSetVariable"] == .bool(false))
    // `initialized` waits for the log: breakpoints are set on it.
    #expect(events.isEmpty)
    let (_, launched) = client.send(
      "launch", [string("log", Repository.fixture("todo-session.jsonl"))])
    #expect(launched.map { $0["event"]?.stringValue } == ["initialized"])
    let threads = client.body("threads")["threads"]?.elements ?? []
    #expect(threads == [.object([JSONMember("id", .integer(1)), string("name", "timeline")])])
  }

  @Test func launchWithoutALogSaysHowToFixIt() {
    let client = DAPTestClient()
    _ = client.body("initialize")
    let (response, _) = client.send("launch", [])
    #expect(response["success"] == .bool(false))
    #expect(
      response["message"]?.stringValue
        == "'launch' needs the log to replay: add \"log\": \"path/to/session.jsonl\" to the "
        + "launch configuration (request 2, 'launch')")
    #expect(response["body"]?["error"]?["id"] == .integer(3))
    let (missing, _) = client.send("launch", [string("log", "/nonexistent/session.jsonl")])
    #expect(missing["success"] == .bool(false))
    #expect(
      missing["message"]?.stringValue?.hasPrefix(
        "cannot open the log '/nonexistent/session.jsonl': ") == true)
    let (recovery, _) = client.send(
      "launch",
      [string("log", Repository.fixture("todo-session.jsonl")), string("recovery", "lenient")])
    #expect(
      recovery["message"]?.stringValue
        == "unknown recovery mode 'lenient': use one of tail, strict, prefix, salvage "
        + "(request 4, 'launch')")
  }

  @Test func requestsBeforeLaunchAndUnknownCommandsAreErrors() {
    let client = DAPTestClient()
    let (early, _) = client.send("stackTrace", [integer("threadId", 1)])
    #expect(
      early["message"]?.stringValue
        == "no log is open: send 'launch' with a 'log' path first (request 1, 'stackTrace')")
    let (unknown, _) = client.send("frobnicate")
    #expect(unknown["success"] == .bool(false))
    #expect(
      unknown["message"]?.stringValue?.hasPrefix(
        "unknown command 'frobnicate': this adapter answers initialize, launch, ") == true)
    #expect(unknown["body"]?["error"]?["id"] == .integer(5))
  }

  @Test func stepsForwardAndBackWithAFramePerAction() {
    let client = DAPTestClient()
    let entry = client.start("todo-session.jsonl")
    #expect(entry["reason"] == .string("entry"))
    #expect(entry["description"] == .string("at position 0, the initial state"))
    #expect(client.frameNames() == ["#0 initial state"])
    let step = client.stop("next", [integer("threadId", 1)])
    #expect(step["reason"] == .string("step"))
    #expect(step["description"] == .string("at position 1, after #1 add"))
    _ = client.stop("stepIn", [integer("threadId", 1)])
    _ = client.stop("next", [integer("threadId", 1)])
    #expect(client.frameNames() == ["#3 add", "#2 toggle", "#1 add", "#0 initial state"])
    // Paged: the second and third frames, and the total.
    #expect(client.frameNames(startFrame: 1, levels: 2) == ["#2 toggle", "#1 add"])
    let trace = client.body("stackTrace", [integer("threadId", 1), integer("levels", 1)])
    #expect(trace["totalFrames"] == .integer(4))
    let back = client.stop("stepBack", [integer("threadId", 1)])
    #expect(back["description"] == .string("at position 2, after #2 toggle"))
    _ = client.stop("stepBack", [integer("threadId", 1)])
    _ = client.stop("stepBack", [integer("threadId", 1)])
    let start = client.stop("stepBack", [integer("threadId", 1)])
    #expect(
      start["description"]
        == .string(
          "at the start of the log: position 0 is the first; step or continue to go on"))
  }

  @Test func functionBreakpointsStopAtAnActionTypeBothWays() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    let set = client.body(
      "setFunctionBreakpoints",
      [JSONMember("breakpoints", .array([.object([string("name", "toggle")])]))])
    let breakpoint = set["breakpoints"]?.elements.first
    #expect(breakpoint?["verified"] == .bool(true))
    let id = breakpoint?["id"]?.intValue
    let first = client.stop("continue", [integer("threadId", 1)])
    #expect(first["reason"] == .string("function breakpoint"))
    #expect(first["hitBreakpointIds"] == .array([.integer(id ?? -1)]))
    #expect(client.frameNames(levels: 1) == ["#2 toggle"])
    _ = client.stop("continue", [integer("threadId", 1)])
    #expect(client.frameNames(levels: 1) == ["#5 toggle"])
    let back = client.stop("reverseContinue", [integer("threadId", 1)])
    #expect(back["reason"] == .string("function breakpoint"))
    #expect(client.frameNames(levels: 1) == ["#2 toggle"])
    // An unknown type is set but not verified, with the closest type.
    let unknown = client.body(
      "setFunctionBreakpoints",
      [JSONMember("breakpoints", .array([.object([string("name", "toggel")])]))])
    #expect(unknown["breakpoints"]?.elements.first?["verified"] == .bool(true))
    #expect(
      unknown["breakpoints"]?.elements.first?["message"]
        == .string("no action of the log is a 'toggel'; did you mean 'toggle'?"))
    // Replaced: the 'toggle' breakpoint is gone, so continue runs on to the end.
    _ = client.body("setFunctionBreakpoints", [JSONMember("breakpoints", .array([]))])
    let end = client.stop("continue", [integer("threadId", 1)])
    #expect(
      end["description"]
        == .string(
          "reached the end of the log (position 340), nothing triggered on the way (no "
            + "breakpoint is set)"))
  }

  @Test func dataBreakpointsWatchAStatePath() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    // From a variable of the State scope.
    let state = client.scope("State", position: 0)
    let info = client.body(
      "dataBreakpointInfo", [integer("variablesReference", state), string("name", "filter")])
    #expect(info["dataId"] == .string("filter"))
    #expect(info["accessTypes"] == .array([.string("write")]))
    // A path typed as the name.
    let typed = client.body("dataBreakpointInfo", [string("name", "todos[0].title")])
    #expect(typed["dataId"] == .string("todos[0].title"))
    let set = client.body(
      "setDataBreakpoints",
      [JSONMember("breakpoints", .array([.object([string("dataId", "filter")])]))])
    #expect(set["breakpoints"]?.elements.first?["verified"] == .bool(true))
    let hit = client.stop("continue", [integer("threadId", 1)])
    #expect(hit["reason"] == .string("data breakpoint"))
    #expect(
      hit["description"]
        == .string("at position 12, after #12 setFilter: filter: \"all\" → \"active\""))
  }

  @Test func conditionalBreakpointsStopWhereTheConditionBecomesTrue() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    let source = JSONMember(
      "source", .object([string("path", Repository.fixture("todo-session.jsonl"))]))
    let set = client.body(
      "setBreakpoints",
      [
        source,
        JSONMember(
          "breakpoints",
          .array([
            .object([integer("line", 5), string("condition", "nextID >= 5")]),
            .object([integer("line", 7)]),
          ])),
      ])
    let results = set["breakpoints"]?.elements ?? []
    #expect(results.map { $0["verified"] } == [.bool(true), .bool(false)])
    #expect(results.map { $0["line"] } == [.integer(5), .integer(7)])
    let hit = client.stop("continue", [integer("threadId", 1)])
    #expect(hit["reason"] == .string("breakpoint"))
    let value = client.body(
      "evaluate", [string("expression", "nextID"), string("context", "watch")])
    #expect(value["result"] == .string("5"))
    // Before the stop the condition did not hold.
    let frames = client.body("stackTrace", [integer("threadId", 1), integer("levels", 2)])
    let previous = frames["stackFrames"]?.elements.last?["id"]?.intValue ?? 0
    let before = client.body(
      "evaluate",
      [string("expression", "nextID"), string("context", "watch"), integer("frameId", previous)])
    #expect(before["result"] == .string("4"))
  }

  @Test func gotoJumpsToTheActionOnALineOfTheLog() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    let targets = client.body(
      "gotoTargets",
      [
        JSONMember("source", .object([string("path", Repository.fixture("todo-session.jsonl"))])),
        integer("line", 10),
      ])
    let target = targets["targets"]?.elements.first
    #expect(target?["label"] == .string("#9 add"))
    #expect(target?["line"] == .integer(10))
    let stop = client.stop(
      "goto", [integer("threadId", 1), integer("targetId", target?["id"]?.intValue ?? 0)])
    #expect(stop["reason"] == .string("goto"))
    #expect(client.frameNames(levels: 1) == ["#9 add"])
    let elsewhere = client.send(
      "gotoTargets",
      [JSONMember("source", .object([string("path", "/tmp/Other.swift")])), integer("line", 3)])
    #expect(elsewhere.response["success"] == .bool(false))
  }

  @Test func variablesReadTheStateALevelAtATimeInPages() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    _ = client.body("evaluate", [string("expression", "goto 20")])
    let root = client.variables(client.scope("State", position: 20))
    #expect(root.map { $0["name"]?.stringValue } == ["todos", "filter", "nextID"])
    let todos = root.first ?? .null
    let count = todos["indexedVariables"]?.intValue ?? 0
    #expect(count >= 3)
    #expect(todos["value"] == .string("[…] \(count) elements"))
    #expect(todos["evaluateName"] == .string("todos"))
    let reference = todos["variablesReference"]?.intValue ?? 0
    let page = client.variables(reference, start: 1, count: 2, filter: "indexed")
    #expect(page.map { $0["name"]?.stringValue } == ["[1]", "[2]"])
    #expect(client.variables(reference, filter: "named").isEmpty)
    let element = client.variables(page.first?["variablesReference"]?.intValue ?? 0)
    #expect(element.map { $0["name"]?.stringValue } == ["id", "title", "done"])
    #expect(element.first?["evaluateName"] == .string("todos[1].id"))
    // A reference of an earlier stop is gone.
    _ = client.stop("stepBack", [integer("threadId", 1)])
    let stale = client.send("variables", [integer("variablesReference", reference)])
    #expect(stale.response["success"] == .bool(false))
  }

  @Test func actionAndDiffScopesShowWhatTheActionDid() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    _ = client.stop("next", [integer("threadId", 1)])
    let action = client.variables(client.scope("Action", position: 1))
    #expect(action.first { $0["name"] == .string("type") }?["value"] == .string("\"add\""))
    let diff = client.variables(client.scope("Diff", position: 1))
    #expect(
      diff.map { $0["name"]?.stringValue } == ["/todos/0", "/nextID"])
    #expect(diff.last?["value"] == .string("replace: 2"))
    // The initial state has neither.
    let scopes = client.body("scopes", [integer("frameId", 1)])["scopes"]?.elements ?? []
    #expect(scopes.map { $0["name"]?.stringValue } == ["State"])
  }

  @Test func evaluateRunsSessionCommandsAndWatchesPaths() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    let printed = client.body("evaluate", [string("expression", "print filter")])
    #expect(printed["result"] == .string("\"all\""))
    // A command that moves the cursor stops there.
    let (moved, events) = client.send("evaluate", [string("expression", "goto 12")])
    #expect(moved["success"] == .bool(true))
    #expect(events.first?["body"]?["description"] == .string("at position 12, after #12 setFilter"))
    let watched = client.body(
      "evaluate", [string("expression", "todos"), string("context", "watch")])
    #expect(watched["type"] == .string("array"))
    #expect((watched["variablesReference"]?.intValue ?? 0) > 0)
    let count = client.body(
      "evaluate", [string("expression", "todos.count"), string("context", "watch")])
    #expect(count["result"] == .string(String(watched["indexedVariables"]?.intValue ?? -1)))
    let (bad, _) = client.send("evaluate", [string("expression", "frobnicate 3")])
    #expect(bad["success"] == .bool(false))
    #expect(
      bad["message"]?.stringValue?.hasPrefix("unknown command 'frobnicate'.") == true)
    let (quit, _) = client.send("evaluate", [string("expression", "quit")])
    #expect(quit["success"] == .bool(false))
  }

  @Test func setVariableIsRefusedBecauseALogIsHistory() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    let (response, _) = client.send(
      "setVariable",
      [integer("variablesReference", 1), string("name", "filter"), string("value", "\"done\"")])
    #expect(response["success"] == .bool(false))
    #expect(
      response["message"]?.stringValue?.hasPrefix(
        "a log is history: its states cannot be changed.") == true)
  }

  @Test func theReducersCrashStopsAsAnExceptionWithItsReport() throws {
    try DAPTestClient.useReplayBinaryAsWorker()
    let client = DAPTestClient()
    _ = client.start("todo-crash.jsonl", [JSONMember("isolate", .bool(true))])
    let crash = client.stop("continue", [integer("threadId", 1)])
    #expect(crash["reason"] == .string("exception"))
    #expect(
      crash["description"]
        == .string(
          "the app's reducer crashed on #38 move: Index out of range; the cursor is at "
            + "position 37, the last state before it"))
    // The report's frame first, at the reducer's line, then the actions.
    let trace = client.body("stackTrace", [integer("threadId", 1), integer("levels", 2)])
    let frames = trace["stackFrames"]?.elements ?? []
    #expect(
      frames.compactMap { $0["name"]?.stringValue } == [
        "#38 move ✗ closure #1 in variable initialization expression of todoReducer",
        "#37 toggle",
      ])
    #expect(
      frames.first?["source"]?["path"]
        == .string(Repository.root.path + "/Sources/RewindExamples/Todo.swift"))
    #expect(frames.first?["line"] == .integer(90))
    #expect(trace["totalFrames"] == .integer(39))
    // Its scopes: the state the reducer was given and the action it crashed on.
    let crashFrame = frames.first?["id"]?.intValue ?? 0
    let scopes = client.body("scopes", [integer("frameId", crashFrame)])["scopes"]?.elements ?? []
    let action = client.variables(
      scopes.first { $0["name"] == .string("Action") }?["variablesReference"]?.intValue ?? 0)
    #expect(action.first { $0["name"] == .string("seq") }?["value"] == .string("38"))
    let info = client.body("exceptionInfo", [integer("threadId", 1)])
    #expect(info["exceptionId"] == .string("SIGILL"))
    #expect(info["breakMode"] == .string("always"))
    #expect(info["details"]?["message"] == .string("Index out of range"))
    #expect(info["details"]?["stackTrace"]?.stringValue?.contains("todoReducer") == true)
    // Stepping onto the crashing action crashes again; stepping back leaves the crash.
    let again = client.stop("next", [integer("threadId", 1)])
    #expect(again["reason"] == .string("exception"))
    _ = client.stop("stepBack", [integer("threadId", 1)])
    let (noCrash, _) = client.send("exceptionInfo", [integer("threadId", 1)])
    #expect(noCrash["success"] == .bool(false))
  }

  @Test func aRecordedCallSiteBecomesTheFramesSource() {
    let client = DAPTestClient()
    _ = client.start("todo-origins.jsonl")
    _ = client.stop("next", [integer("threadId", 1)])
    let frames = client.body("stackTrace", [integer("threadId", 1)])["stackFrames"]?.elements
    let top = frames?.first
    #expect(top?["name"] == .string("#1 add"))
    #expect(top?["line"] == .integer(15))
    #expect(
      top?["source"]?["path"]
        == .string(Repository.root.path + "/Sources/RewindExamples/TodoScreen.swift"))
    #expect(frames?.last?["source"] == nil)
  }

  @Test func disconnectEndsTheSession() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl", [JSONMember("stopOnEntry", .bool(true))])
    #expect(!client.session.isFinished)
    _ = client.body("disconnect")
    #expect(client.session.isFinished)
  }

  @Test func withoutStopOnEntryTheLogRunsToTheFirstBreakpoint() {
    let client = DAPTestClient()
    _ = client.body("initialize")
    _ = client.body(
      "launch",
      [
        string("log", Repository.fixture("todo-session.jsonl")),
        JSONMember("stopOnEntry", .bool(false)),
      ])
    _ = client.body(
      "setFunctionBreakpoints",
      [JSONMember("breakpoints", .array([.object([string("name", "clearCompleted")])]))])
    let stop = client.stop("configurationDone")
    #expect(stop["reason"] == .string("function breakpoint"))
    #expect(client.frameNames(levels: 1) == ["#6 clearCompleted"])
  }

  @Test func stepOutRunsOnPauseStaysAndTerminateEnds() {
    let client = DAPTestClient()
    _ = client.start("todo-session.jsonl")
    _ = client.body(
      "setFunctionBreakpoints",
      [JSONMember("breakpoints", .array([.object([string("name", "rename")])]))])
    // No caller to return to on a timeline: step out runs on as continue does.
    let out = client.stop("stepOut", [integer("threadId", 1)])
    #expect(out["reason"] == .string("function breakpoint"))
    #expect(client.frameNames(levels: 1) == ["#8 rename"])
    let paused = client.stop("pause", [integer("threadId", 1)])
    #expect(paused["description"] == .string("paused at position 8"))
    let (again, _) = client.send("launch", [string("log", Repository.fixture("todo-crash.jsonl"))])
    #expect(
      again["message"]?.stringValue
        == "a log is open already: one session debugs one log; disconnect and launch again "
        + "(request 8, 'launch')")
    let (attach, _) = client.send("attach")
    #expect(attach["success"] == .bool(false))
    let (terminated, events) = client.send("terminate")
    #expect(terminated["success"] == .bool(true))
    #expect(events.map { $0["event"]?.stringValue } == ["terminated"])
  }
}

import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import Testing

@testable import ReplayCLI

@Suite("HTMLExport")
struct HTMLExportTests {
  @Test func counterPageCarriesMetadataActionsAndOnePatchPerAction() throws {
    let page = try ExportedPage(ExportLogs.fixture("counter.jsonl"))
    #expect(page["format"] == .string("rewind-html"))
    #expect(page["version"] == .number("2"))
    #expect(page["info", "app"] == .string("counter"))
    #expect(page["info", "actionType"] == .string("CounterAction"))
    #expect(page["info", "stateType"] == .string("CounterState"))
    #expect(page["info", "session"] == .string("00000000-0000-4000-8000-000000000001"))
    #expect(page["info", "recordedAt"] == .string("2026-11-21T10:00:00Z"))
    #expect(page["info", "actions"] == .number("12"))
    #expect(
      page["info", "checkpoints"] == .array([.number("5"), .number("10"), .number("12")]))
    #expect(page["info", "cleanEnd"] == .bool(true))
    #expect(page["info", "appKnown"] == .bool(true))
    #expect(page["ended"] == .string("cleanly (end record)"))
    #expect(page.array("actions").count == 12)
    #expect(
      page.array("actions").first
        == .object([
          JSONMember("seq", .number("1")), JSONMember("time", .number("0.250000")),
          JSONMember("type", .string("increment")),
          JSONMember("action", .object([JSONMember("increment", .object([]))])),
          JSONMember("line", .number("2")),
        ]))
    #expect(page["states", "rebuilt"] == .bool(true))
    #expect(page["states", "first"] == .number("0"))
    #expect(page["states", "last"] == .number("12"))
    #expect(page.array("states", "patches").count == 12)
    #expect(page.array("states", "full").map { $0.elements.first } == [.number("0")])
    #expect(page["states", "stoppedSeq"] == .null)
    #expect(page["states", "failure"] == .null)
  }

  @Test func pageIsOneDocumentWithOneStyleAndOneScript() throws {
    let page = try ExportedPage(ExportLogs.fixture("counter.jsonl"))
    #expect(
      page.html.hasPrefix("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"))
    #expect(page.count(of: "<script") == 2)
    #expect(page.count(of: "</script>") == 2)
    #expect(page.count(of: "<style>") == 1)
    #expect(page.count(of: ExportedPage.dataOpening) == 1)
    #expect(page.html.hasSuffix("</body>\n</html>\n"))
  }

  @Test func pageLoadsNothingFromOutside() throws {
    let html = try ExportedPage(ExportLogs.fixture("counter.jsonl")).html.lowercased()
    for reference in [
      "http://", "https://", "//cdn", "src=", "href=", "url(", "@import", "<link", "<img",
      "<iframe", "<object", "<embed", "fetch(", "xmlhttprequest", "websocket", "@font-face",
    ] {
      #expect(!html.contains(reference), "the page refers to \(reference)")
    }
    #expect(html.contains("content=\"default-src 'none'; script-src 'sha256-"))
  }

  @Test func policyAllowsExactlyThePageOwnScriptAndStyle() throws {
    let page = try ExportedPage(ExportLogs.fixture("counter.jsonl"))
    let script = try #require(page.scriptText)
    #expect(script == HTMLExportScript.source)
    let policy = HTMLExport.contentSecurityPolicy(
      script: HTMLExportScript.source, style: HTMLExportStyle.css)
    #expect(page.html.contains("content=\"\(policy)\""))
    #expect(policy.contains("script-src \(HTMLExportDigest.cspSource(for: script));"))
    #expect(page.html.contains("<style>\(HTMLExportStyle.css)</style>"))
  }

  @Test func patchesFromTheInitialStateReproduceEveryState() throws {
    let log = try ExportLogs.fixture("todo-session.jsonl")
    let timeline = try ExportedPage.timeline(for: log)
    let page = try ExportedPage(log, fullStateInterval: 100)
    let patches = page.array("states", "patches")
    #expect(patches.count == 340)
    var fullStates: [Int: JSONValue] = [:]
    for entry in page.array("states", "full") {
      let position = try #require(entry.elements.first?.intValue)
      fullStates[position] = entry.elements.last
    }
    #expect(fullStates.keys.sorted() == [0, 100, 200, 300])
    var state = try #require(fullStates[0])
    #expect(state == (try timeline.stateJSON(at: 0)))
    for (index, patch) in patches.enumerated() {
      state = try JSONPatch(jsonValue: patch).apply(to: state)
      let position = index + 1
      if let full = fullStates[position] { #expect(full == state, "full state at \(position)") }
      if [1, 2, 50, 99, 100, 101, 120, 250, 339, 340].contains(position) {
        #expect(state == (try timeline.stateJSON(at: position)), "state at \(position)")
      }
    }
  }

  @Test func patchesOfEveryTodoFixtureStateMatchTheTimeline() throws {
    let log = try ExportLogs.fixture("todo-session-b.jsonl")
    let timeline = try ExportedPage.timeline(for: log)
    let page = try ExportedPage(log)
    var state = try timeline.stateJSON(at: 0)
    for (index, patch) in page.array("states", "patches").enumerated() {
      state = try JSONPatch(jsonValue: patch).apply(to: state)
      #expect(state == (try timeline.stateJSON(at: index + 1)), "state at \(index + 1)")
    }
  }

  @Test func cutOffLogStopsStatesBeforeTheActionTheAppStoppedIn() throws {
    let log = try ExportLogs.fixture("todo-crash.jsonl")
    #expect(log.isCutOff)
    let page = try ExportedPage(log)
    #expect(page.array("actions").count == 38)
    #expect(page["states", "last"] == .number("37"))
    #expect(page["states", "stoppedSeq"] == .number("38"))
    #expect(page.array("states", "patches").count == 37)
    #expect(page["info", "cleanEnd"] == .bool(false))
    #expect(
      page["ended"]
        == .string(
          "cut off — no end record: the app crashed or was killed while running action 38 (move)"))
  }

  @Test func withoutTheAppOnlyRecordedStatesAreEmbedded() throws {
    let log = try ExportLogs.fixture("counter.jsonl")
    let page = try ExportedPage(log, withApp: false)
    #expect(page["info", "appKnown"] == .bool(false))
    #expect(page["states", "rebuilt"] == .bool(false))
    #expect(page.array("states", "patches").isEmpty)
    let full = page.array("states", "full")
    #expect(
      full.map { $0.elements.first } == [.number("0"), .number("5"), .number("10"), .number("12")])
    #expect(
      full.map { $0.elements.last } == [
        log.header.state, try log.checkpointState(at: 5),
        try log.checkpointState(at: 10), try log.checkpointState(at: 12),
      ])
    #expect(page["states", "last"] == .number("12"))
    #expect(page.array("actions").count == 12)
  }

  @Test func logWithoutActionsHasOnlyTheInitialState() throws {
    let log = try ExportLogs.composed(
      app: "counter", actionType: "CounterAction", stateType: "CounterState",
      initialState: .object([JSONMember("count", .number("0"))]), actions: [])
    let page = try ExportedPage(log)
    #expect(page.array("actions").isEmpty)
    #expect(page.array("states", "patches").isEmpty)
    #expect(page["states", "last"] == .number("0"))
    #expect(page.array("states", "full").count == 1)
  }

  @Test func aStateThatCannotBeRebuiltEndsTheStatesWithTheReason() throws {
    let increment = JSONValue.object([JSONMember("increment", .object([]))])
    let log = try ExportLogs.composed(
      app: "counter", actionType: "CounterAction", stateType: "CounterState",
      initialState: .object([JSONMember("count", .number("0"))]),
      actions: [increment, increment, .object([JSONMember("explode", .object([]))]), increment])
    let page = try ExportedPage(log)
    #expect(page["states", "last"] == .number("2"))
    #expect(page.array("states", "patches").count == 2)
    #expect(page["states", "failure", "position"] == .number("3"))
    let message = try #require(page["states", "failure", "message"]?.stringValue)
    #expect(message.hasPrefix("counter.jsonl:4: action 3 (type \"explode\") does not decode"))
    #expect(page.array("actions").count == 4)
  }

  @Test func deniedAndSanitizedActionsSayWhy() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("denied.jsonl").path
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(
        to: path, app: "todo", options: RecordingOptions(deniedActionTypes: ["rename"]),
        actionSanitizer: { action in
          if case .add = action { return .add(title: "(hidden)") }
          return action
        })
      store.dispatch(.add(title: "secret"))
      store.dispatch(.rename(id: 1, title: "also secret"))
      recorder.close()
      let actions = try ExportedPage(ReplayLog(path: path)).array("actions")
      #expect(actions.count == 2)
      #expect(actions[0]["type"] == .string("add"))
      #expect(actions[0]["action"]?["add"]?["title"] == .string("(hidden)"))
      #expect(actions[0]["sanitized"] == .bool(true))
      #expect(actions[1]["type"] == .string("rename"))
      #expect(actions[1]["action"] == nil)
      #expect(actions[1]["skipped"] == .string("denied"))
    }
  }
}

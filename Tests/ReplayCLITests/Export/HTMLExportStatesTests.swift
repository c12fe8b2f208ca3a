import RewindJSON
import RewindReplay
import Testing

@testable import ReplayCLI

@Suite("HTMLExportStates")
struct HTMLExportStatesTests {
  private func todos(_ items: [(Int, Bool)]) -> JSONValue {
    .object([
      JSONMember(
        "todos",
        .array(
          items.map { id, done in
            .object([JSONMember("id", .number(String(id))), JSONMember("done", .bool(done))])
          })),
      JSONMember("nextID", .number(String((items.map(\.0).max() ?? 0) + 1))),
    ])
  }

  @Test func changesInPatchOrderNeedNoOrder() {
    let old = todos([(1, false)])
    let new = todos([(1, false), (2, false)])
    let changes = JSONDiff.diff(old, new)
    #expect(changes?.count == 2)
    #expect(HTMLExportStates.changeOrder(changes, JSONPatch(changes: changes)) == nil)
  }

  @Test func changesInsideKeptElementsComeBeforeAdditionsAsInTheDiff() throws {
    let old = todos([(1, false)])
    let new = todos([(1, true), (2, false)])
    let changes = try #require(JSONDiff.diff(old, new))
    let patch = JSONPatch(changes: changes)
    #expect(
      changes.map(\.description) == [
        "todos[0].done: false → true", #"+ todos[1]: {"id":2,"done":false}"#, "nextID: 2 → 3",
      ])
    #expect(
      patch.operations.map { "\($0.name) \($0.path)" } == [
        "add /todos/1", "replace /todos/0/done", "replace /nextID",
      ])
    #expect(HTMLExportStates.changeOrder(changes, patch) == [1, 0, 2])
  }

  @Test func removalsThatThePatchRunsBackwardsAreListedInDiffOrder() throws {
    let old = todos([(1, true), (2, false), (3, true)])
    let new = todos([(2, false)])
    let changes = try #require(JSONDiff.diff(old, new))
    let patch = JSONPatch(changes: changes)
    #expect(
      changes.map(\.description) == [
        #"- todos[0]: {"id":1,"done":true}"#, #"- todos[2]: {"id":3,"done":true}"#,
        "nextID: 4 → 3",
      ])
    #expect(
      patch.operations.map { "\($0.name) \($0.path)" } == [
        "remove /todos/2", "remove /todos/0", "replace /nextID",
      ])
    #expect(HTMLExportStates.changeOrder(changes, patch) == [1, 0, 2])
  }

  @Test func fullStatesComeEveryIntervalPositions() throws {
    let log = try ExportLogs.fixture("todo-session.jsonl")
    let states = HTMLExportStates.rebuilt(
      log: log, timeline: try ExportedPage.timeline(for: log), interval: 100)
    #expect(states.full.map(\.position) == [0, 100, 200, 300])
    #expect(states.patches.count == 340)
    #expect(states.last == 340)
  }

  @Test func progressIsReportedToTheEnd() throws {
    let log = try ExportLogs.fixture("todo-session.jsonl")
    var reports: [Int] = []
    _ = HTMLExportStates.rebuilt(
      log: log, timeline: try ExportedPage.timeline(for: log), interval: 1000
    ) { done, total in
      #expect(total == 340)
      reports.append(done)
    }
    #expect(reports.last == 340)
  }
}

import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// `members` (``ChildrenRequest``): a state's members a page at a time, checked against the
/// state built whole.
@Suite struct ChildrenRequestTests {
  /// A service over a todo log of `count` adds, at its last position.
  static func service(todos count: Int, in directory: URL) throws -> ReplayService {
    let log = try ExportLogs.todo(
      (0..<count).map { TodoAction.add(title: "Todo \($0) \"quoted\"") }, in: directory)
    let service = ReplayService(opened: OpenedLog(log: log, apps: ReplayRun.apps))
    _ = try service.perform(MoveRequest(.position(service.log.lastSeq)))
    return service
  }

  @Test func pagesCoverEveryElementOnceWithItsFacts() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let service = try Self.service(todos: 250, in: directory)
      let state = try service.debugger.value(at: .root)
      guard case .array(let todos) = try state.value(at: JSONPath.parse("todos")) else {
        Issue.record("no todos array")
        return
      }
      var offset: Int? = 0
      var seen: [ChildrenResponse.Child] = []
      while let next = offset {
        let page = try service.perform(
          ChildrenRequest(try JSONPath.parse("todos"), offset: next, limit: 100))
        #expect(page.facts.kind == "array")
        #expect(page.facts.count == 250)
        #expect(page.offset == next)
        seen += page.children
        offset = page.nextOffset
      }
      #expect(seen.count == 250)
      #expect(seen.map(\.name) == (0..<250).map { "[\($0)]" })
      #expect(seen[7].path.description == "todos[7]")
      #expect(seen[7].facts.kind == "object")
      #expect(seen[7].facts.count == 3)
      #expect(seen[7].facts.preview == "{…} 3 members")
      #expect(seen[7].facts.byteCount == todos[7].serializedBytes.count)
      // A scalar's value is given whole.
      let members = try service.perform(ChildrenRequest(try JSONPath.parse("todos[7]")))
      #expect(members.children.map(\.name) == ["id", "title", "done"])
      #expect(members.children[1].facts.value == .string("Todo 7 \"quoted\""))
      #expect(members.children[1].facts.preview == #""Todo 7 \"quoted\"""#)
      #expect(members.children[2].facts.value == .bool(false))
      #expect(members.nextOffset == nil)
    }
  }

  @Test func identityPathsAndEarlierPositionsWork() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let service = try Self.service(todos: 5, in: directory)
      let byID = try service.perform(ChildrenRequest(try JSONPath.parse("todos[id=3]")))
      #expect(byID.children.first?.facts.value == .number("3"))
      #expect(byID.children.first?.path.description == "todos[id=3].id")
      let early = try service.perform(ChildrenRequest(try JSONPath.parse("todos"), at: 2))
      #expect(early.position == 2)
      #expect(early.facts.count == 2)
      #expect(service.position == 5)
    }
  }

  @Test func aLongStringIsPreviewedNotSent() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let long = String(repeating: "é", count: 40_000)
      let log = try ExportLogs.todo([.add(title: long)], in: directory)
      let service = ReplayService(opened: OpenedLog(log: log, apps: ReplayRun.apps))
      _ = try service.perform(MoveRequest(.position(service.log.lastSeq)))
      let todo = try service.perform(ChildrenRequest(try JSONPath.parse("todos[0]")))
      let title = todo.children[1].facts
      #expect(title.value == nil)
      #expect(title.byteCount == 80_002)
      #expect(title.preview.count == ChildrenResponse.ValueFacts.previewLength)
      #expect(title.preview.hasSuffix("…"))
    }
  }

  @Test(arguments: [
    ("members nope", "(root) has no key 'nope'; its keys are: todos, filter, nextID"),
    ("members todos.count", "'todos.count' is a count, not a value with members: print it instead"),
    ("members --limit 0", "--limit takes a number of children (1 to 1000), not '0'"),
    ("members --offset -1", "--offset takes a child's index (0 or more), not '-1'"),
    ("members --at 9999", "position 9999 is out of range: valid positions are 0…340"),
  ])
  func badRequestsSayWhatIsWrong(command: String, message: String) throws {
    let run = ReplayRun([CLIFixture.path("todo-session.jsonl"), "-c", command])
    #expect(run.standardError.contains(message), "\(run.standardError)")
  }

  @Test func theSessionListsAPageAndHowToAskForTheNext() throws {
    let run = ReplayRun([
      CLIFixture.path("todo-session.jsonl"), "-c", "goto 3", "-c", "members todos --limit 1",
    ])
    #expect(
      run.standardOutput.hasSuffix(
        """
        (replay) members todos --limit 1
        todos at 3: array, 2 elements
          [0]  {…} 3 members
          … 1 more: members todos --at 3 --offset 1

        """), "\(run.standardOutput)")
  }
}

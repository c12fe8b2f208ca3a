import Foundation
import RewindJSON
import Testing

@testable import RewindServers

/// A state too large to send whole: 20,000 todos (about 1.3 MB of JSON) in the header. The
/// Variables pane pages it; the console's answer is cut, saying how to page.
@Suite struct DAPLargeStateTests {
  /// A log of the todo app whose initial state holds `count` todos, and one action.
  static func largeLog(todos count: Int) throws -> URL {
    let todos = (0..<count).map {
      "{\"id\":\($0),\"title\":\"Todo number \($0) with some words\",\"done\":\($0 % 3 == 0)}"
    }
    let state =
      "{\"todos\":[\(todos.joined(separator: ","))],\"filter\":\"all\",\"nextID\":\(count)}"
    let text =
      "{\"kind\":\"header\",\"format\":\"rewind\",\"version\":1,\"session\":\"s\",\"app\":\"todo\","
      + "\"actionType\":\"TodoAction\",\"stateType\":\"TodoState\",\"recordedAt\":"
      + "\"2026-01-01T00:00:00Z\",\"firstSeq\":1,\"checkpointInterval\":1000,\"state\":\(state)}\n"
      + "{\"kind\":\"action\",\"seq\":1,\"type\":\"setFilter\",\"action\":{\"setFilter\":"
      + "{\"_0\":\"active\"}}}\n"
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-dap-large-\(UUID().uuidString).jsonl")
    try Data(text.utf8).write(to: url)
    return url
  }

  @Test func aLargeArrayIsPagedAndTheConsoleAnswerIsCut() throws {
    let log = try Self.largeLog(todos: 20_000)
    defer { try? FileManager.default.removeItem(at: log) }
    let client = DAPTestClient()
    _ = client.body("initialize")
    _ = client.body("launch", [string("log", log.path)])
    _ = client.stop("configurationDone")
    let root = client.variables(client.scope("State", position: 0))
    let todos = try #require(root.first)
    #expect(todos["indexedVariables"] == .integer(20_000))
    let reference = todos["variablesReference"]?.intValue ?? 0
    // A client that does not page gets the first 1,000 and a last entry saying how to see more.
    let first = client.variables(reference)
    #expect(first.count == 1001)
    #expect(first.first?["name"] == .string("[0]"))
    #expect(
      first.last?["value"]
        == .string(
          "19000 more: evaluate 'members todos --at 0 --offset 1000' in the debug console"))
    // A client that pages gets exactly what it asks for, up to the end.
    let last = client.variables(reference, start: 19_950, count: 100, filter: "indexed")
    #expect(last.count == 50)
    #expect(last.first?["name"] == .string("[19950]"))
    #expect(last.first?["value"] == .string("{…} 3 members"))
    // The console's answer is cut at 1 MiB.
    let printed = client.body("evaluate", [string("expression", "print todos")])
    let text = printed["result"]?.stringValue ?? ""
    #expect(text.utf8.count < DAPSession.maxResultBytes + 200)
    #expect(text.hasSuffix("or expand it in the Variables pane)"))
    // What the console suggests works.
    let page = client.body(
      "evaluate", [string("expression", "members todos --at 0 --offset 1000 --limit 2")])
    #expect(page["result"]?.stringValue?.contains("[1000]") == true)
  }
}

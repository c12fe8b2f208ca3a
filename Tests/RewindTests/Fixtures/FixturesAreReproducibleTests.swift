import Foundation
import Testing

/// `Fixtures/` is produced by `rewind-testbed fixtures Fixtures` (the crash log by a child process
/// that really dies of the todo example's `move` bug); this suite re-creates every fixture and
/// compares it byte for byte with the committed one.
@Suite struct FixturesAreReproducibleTests {
  private static let fixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

  @Test func everyFixtureIsRecreatedByteForByte() throws {
    let directory = try TemporaryDirectory()
    let run = try Testbed.run(["fixtures", directory.path], outputIn: directory)
    #expect(run.terminationReason == .exit && run.terminationStatus == 0, "stderr: \(run.stderr)")
    let names = [
      "counter.jsonl", "todo-crash.jsonl", "todo-session-b.jsonl", "todo-session.jsonl",
      "todo-torn.jsonl", "todo-v1.jsonl", "todo-origins.jsonl",
    ]
    for name in names {
      let fresh = try Data(contentsOf: URL(fileURLWithPath: directory.file(name)))
      let committed = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
      #expect(
        fresh == committed,
        "Fixtures/\(name) differs from what 'swift run rewind-testbed fixtures Fixtures' writes")
    }
  }

  @Test func theCrashFixtureEndsWithTheMoveThatKilledTheRecordingProcess() throws {
    let text = try String(
      contentsOf: Self.fixtures.appendingPathComponent("todo-crash.jsonl"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    let last = try #require(lines.last)
    #expect(last.contains(#""kind":"action""#))
    #expect(last.contains(#""type":"move""#))
    #expect(!text.contains(#""kind":"end""#))
  }

  @Test func theSessionFixtureHasEveryActionCaseAndUnicodeTitles() throws {
    let text = try String(
      contentsOf: Self.fixtures.appendingPathComponent("todo-session.jsonl"), encoding: .utf8)
    for type in ["add", "toggle", "rename", "remove", "move", "setFilter", "clearCompleted"] {
      #expect(text.contains(#""type":"\#(type)""#), "no \(type) action")
    }
    #expect(text.contains("牛乳を買う"))
    #expect(text.split(separator: "\n").count > 300)
    #expect(text.contains(#""kind":"end","seq":340,"reason":"closed""#))
  }
}

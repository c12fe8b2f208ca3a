import Foundation
import RewindExamples
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// `Tests/GeneratedTests/` holds what `replay gen-test` prints for the fixtures; the target
/// compiles and runs it, and this suite checks it is what gen-test prints today
/// (`Scripts/generate-tests.sh` re-creates it).
@Suite struct GeneratedTestsAreCurrentTests {
  private static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  private static let apps = [
    ReplayApp(name: "counter", reducer: counterReducer),
    ReplayApp(name: "todo", reducer: todoReducer),
  ]

  @Test(arguments: [
    ("CounterSessionTest.swift", ["Fixtures/counter.jsonl", "--name", "counterSessionReplays"]),
    (
      "TodoSessionTest.swift",
      ["Fixtures/todo-session.jsonl", "--from", "300", "--name", "todoSessionReplays300To340"]
    ),
    (
      "TodoCrashTest.swift",
      ["Fixtures/todo-crash.jsonl", "--from", "30", "--name", "todoCrashReproduces"]
    ),
  ])
  func generatedFileMatchesGenTestOutput(file: String, arguments: [String]) throws {
    let binary = try CLIFixture.replayExecutable()
    WorkerProcess.executableOverride.withLock { $0 = binary }
    let output = CapturedOutput()
    let absolute = [Self.root.appendingPathComponent(arguments[0]).path] + arguments.dropFirst()
    let status = ReplayTool.run(
      ["gen-test"] + absolute, apps: Self.apps, output: output, input: ScriptedInput([]))
    #expect(status == 0, "stderr: \(output.standardError)")
    let committed = try String(
      contentsOf: Self.root.appendingPathComponent("Tests/GeneratedTests/\(file)"), encoding: .utf8)
    let printed = output.standardOutput.replacingOccurrences(of: Self.root.path + "/", with: "")
    #expect(
      printed == committed,
      "Tests/GeneratedTests/\(file) is stale: run Scripts/generate-tests.sh")
  }

  @Test func testNamesAreIdentifiers() {
    #expect(
      GenTestRequest.testName("Fixtures/todo-crash.jsonl", from: 3, to: 9)
        == "todoCrashReplays3To9"
    )
    #expect(GenTestRequest.testName("9lives.jsonl", from: 0, to: 1) == "log9livesReplays0To1")
    #expect(GenTestRequest.isIdentifier("abc_1"))
    #expect(!GenTestRequest.isIdentifier("1abc"))
    #expect(!GenTestRequest.isIdentifier("a-b"))
  }
}

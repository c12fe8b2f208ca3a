import Foundation
import RewindExamples
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// Shared by the power-tool suites: the package root, the apps, the built `replay` binary (the
/// worker for crash-isolated replays), and an in-process run of `replay`.
enum PowerTools {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  static let apps = [
    ReplayApp(name: "counter", reducer: counterReducer, initialState: CounterState()),
    ReplayApp(name: "todo", reducer: todoReducer, initialState: TodoState()),
    ReplayApp(name: "journal", reducer: journalReducer),
  ]

  static func fixture(_ name: String) -> String {
    root.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }

  /// Points crash-isolated replays at the built binary (the test runner cannot be a worker).
  static func useReplayBinaryAsWorker() throws {
    let binary = try CLIFixture.replayExecutable()
    WorkerProcess.executableOverride.withLock { $0 = binary }
  }

  static func run(_ arguments: [String], input: [String] = []) -> (
    status: Int32, out: String, err: String
  ) {
    let output = CapturedOutput()
    let status = ReplayTool.run(arguments, apps: apps, output: output, input: ScriptedInput(input))
    return (status, output.standardOutput, output.standardError)
  }

  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("rewind-power-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

import Foundation
import ReplayCLI
import Rewind
import RewindExamples
import RewindReplay
import RewindTestSupport

/// One in-process run of `replay`: its exit status and everything it wrote.
struct ReplayRun {
  var status: Int32
  var standardOutput: String
  var standardError: String
  /// Both channels in the order they were written.
  var combined: String

  /// Runs `replay arguments` with the bundled apps, reading session commands from `input`.
  init(_ arguments: [String], input: [String] = [], apps: [ReplayApp] = Self.apps) {
    let output = CapturedOutput()
    status = ReplayTool.run(
      arguments, apps: apps, output: output, input: ScriptedInput(input))
    standardOutput = output.standardOutput
    standardError = output.standardError
    combined = output.combined
  }

  /// The apps the bundled `replay` binary knows.
  static let apps = [
    ReplayApp(name: "counter", reducer: counterReducer, initialState: CounterState()),
    ReplayApp(
      name: "todo", reducer: todoReducer, initialState: TodoState(),
      build: BuildStamp(schema: todoSchema),
      migrations: todoMigrations),
  ]

  /// The standard output lines, without the final empty one.
  var outputLines: [String] {
    standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
      String.init)
  }
}

/// The package's bundled logs in `Fixtures/`, and scratch files for logs made by the tests.
enum CLIFixture {
  /// The package root.
  static var packageRoot: URL { Repository.root }

  /// The `replay` executable built next to the test bundle (the test target depends on it).
  static func replayExecutable() throws -> URL { try executable("replay") }

  /// The built executable `name` of this package (`replay`, `rewind-testbed`), found next to the
  /// test bundle or in its parents.
  static func executable(_ name: String) throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory.deleteLastPathComponent()
    }
    throw ExecutableNotFound(
      description: "no '\(name)' executable next to \(CommandLine.arguments[0]) or in its "
        + "parents; build it with 'swift build --build-tests' (ReplayCLITests depends on it)")
  }

  /// ``replayExecutable()`` found no binary.
  struct ExecutableNotFound: Error, CustomStringConvertible {
    var description: String
  }

  /// The absolute path of `Fixtures/<name>`.
  static func path(_ name: String) -> String {
    packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }

  /// Runs `body` with a new empty directory that is removed afterwards.
  static func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("ReplayCLITests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
  }

  /// Writes `lines` (each without its line feed) to `name` in `directory`; returns the path.
  static func write(_ lines: [String], named name: String, in directory: URL) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: url)
    return url.path
  }
}

extension String {
  /// The text with every occurrence of `path` replaced by `$LOG`, so transcripts of fixtures
  /// read the same wherever the package is.
  func replacingLog(_ path: String) -> String {
    replacingOccurrences(of: path, with: "$LOG")
  }
}

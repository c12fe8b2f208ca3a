import Foundation
import RewindTestSupport

/// A built executable of this package run as a child process, as a user runs it: its exit
/// status, how it ended, and what it wrote.
struct ChildProcess {
  var status: Int32
  var reason: Process.TerminationReason
  var standardOutput: String
  var standardError: String

  /// Runs `executable arguments` in `directory` (with `NO_COLOR=1` and `environment` added to
  /// this process's environment, standard input empty) and waits for it to end. Output goes to
  /// files, so a child that writes a lot cannot block on a full pipe.
  static func run(
    _ executable: URL, _ arguments: [String], in directory: URL,
    environment extra: [String: String] = [:]
  ) throws -> ChildProcess {
    try CLIFixture.withTemporaryDirectory { scratch in
      let outURL = scratch.appendingPathComponent("stdout")
      let errURL = scratch.appendingPathComponent("stderr")
      _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
      let out = try FileHandle(forWritingTo: outURL)
      let err = try FileHandle(forWritingTo: errURL)
      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      process.currentDirectoryURL = directory
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = out
      process.standardError = err
      var environment = ProcessInfo.processInfo.environment
      environment["NO_COLOR"] = "1"
      environment.merge(extra) { $1 }
      process.environment = environment
      try process.run()
      let exit = ChildExit.wait(for: process)
      try out.close()
      try err.close()
      return ChildProcess(
        status: exit.status, reason: exit.reason,
        standardOutput: try String(contentsOf: outURL, encoding: .utf8),
        standardError: try String(contentsOf: errURL, encoding: .utf8))
    }
  }
}

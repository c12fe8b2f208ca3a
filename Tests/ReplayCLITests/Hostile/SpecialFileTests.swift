import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Hostile {
  /// Paths that are not regular files — a character device that never ends, a FIFO with no
  /// writer, a directory — given to every command of the built binary with a time limit: each
  /// must be refused at once with status 2, saying what the path is, never read until it ends.
  @Suite(.serialized) struct SpecialFileTests {
    enum SpecialFile: String, CaseIterable, Sendable {
      case devZero = "character device"
      case fifo = "FIFO"
      case directory

      func make(in directory: URL) throws -> String {
        switch self {
        case .devZero: return "/dev/zero"
        case .fifo:
          let path = directory.appendingPathComponent("fifo.jsonl").path
          #expect(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
          return path
        case .directory:
          let url = directory.appendingPathComponent("directory.jsonl")
          try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
          return url.path
        }
      }
    }

    @Test(arguments: SpecialFile.allCases, HostileCommand.available)
    func isRefusedAtOnceSayingWhatItIs(file: SpecialFile, command: HostileCommand) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let path = try file.make(in: directory)
        let other = try HostileJSONLogTests.soundLog(in: directory)
        let arguments = command.arguments(log: path, scratch: directory, other: other)
        let outcome = try ReplayProcess.run(arguments, timeLimit: 20, in: directory)
        #expect(!outcome.timedOut, "replay \(command) \(file) hung: \(outcome)")
        #expect(outcome.timedOut || outcome.signal == nil, "\(outcome)")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
          outcome.firstErrorLine == "error: \(path): not a log file: it is a \(file.rawValue)",
          "\(outcome)")
      }
    }

    /// `import` reads a Redux DevTools export, not a log, but the same paths must not hang it or
    /// be blamed on permissions.
    @Test(arguments: SpecialFile.allCases)
    func importRefusesItAtOnce(file: SpecialFile) throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let path = try file.make(in: directory)
        let output = directory.appendingPathComponent("imported.jsonl").path
        let outcome = try ReplayProcess.run(
          ["import", path, "--app", "counter", "-o", output], timeLimit: 20, in: directory)
        #expect(!outcome.timedOut, "replay import \(file) hung: \(outcome)")
        #expect(
          BigInputTests.isSanitized || outcome.peakResidentBytes < BigInputTests.memoryCeiling,
          "\(outcome)")
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.firstErrorLine.hasPrefix("error: \(path): "), "\(outcome)")
        #expect(!outcome.firstErrorLine.contains("permission"), "\(outcome)")
        #expect(outcome.firstErrorLine.contains(file.rawValue), "\(outcome)")
      }
    }
  }
}

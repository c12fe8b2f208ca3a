import Foundation
import RewindTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `rewind-testbed` executable, which `swift test` builds beside the test binary (the test
/// target depends on it), run as a child process for the tests that need a process to die.
enum Testbed {
  /// The executable's location: next to the test binary, or a few folders up from it (on Linux
  /// the test binary is `.build/<triple>/debug/<Package>PackageTests.xctest`; on macOS it is
  /// inside `….xctest/Contents/MacOS/`).
  /// - Throws: ``TestbedError/notFound(_:)`` with every place looked at.
  static func executableURL() throws -> URL {
    var candidates: [URL] = []
    let starts = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
    for start in starts {
      var folder = start.standardizedFileURL
      for _ in 0..<5 {
        candidates.append(folder.appendingPathComponent("rewind-testbed"))
        folder = folder.deletingLastPathComponent()
      }
    }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    throw TestbedError.notFound(candidates.map(\.path))
  }

  /// Runs `rewind-testbed arguments…` to its end, with its output collected in files of
  /// `directory` (files, not pipes: a child that writes a lot never blocks on a full pipe).
  /// - Throws: ``TestbedError/notFound(_:)``, or the error of starting the process.
  static func run(_ arguments: [String], outputIn directory: TemporaryDirectory) throws
    -> TestbedRun
  {
    let name = UUID().uuidString.lowercased()
    let stdoutPath = directory.file("\(name).stdout")
    let stderrPath = directory.file("\(name).stderr")
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    let process = try makeProcess(arguments)
    let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
    let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
    defer {
      try? stdout.close()
      try? stderr.close()
    }
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let exit = ChildExit.wait(for: process)
    return TestbedRun(
      terminationReason: exit.reason,
      terminationStatus: exit.status,
      stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
  }

  /// Runs `rewind-testbed record LOG POLICY 100000`, reads its acknowledgements (`N\n` after the
  /// dispatch of action N returned) until it has acknowledged `acks` actions, then kills it with
  /// `SIGKILL`, and collects the acknowledgements it wrote before it died.
  ///
  /// Never blocks for good: it waits for output with `poll` and checks that the child still runs.
  /// - Throws: ``TestbedError/notFound(_:)``, or the error of starting the process.
  static func recordUntilKilled(log: String, policy: String, acks target: Int) throws
    -> KilledRecording
  {
    let process = try makeProcess(["record", log, policy, "100000"])
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let fd = pipe.fileHandleForReading.fileDescriptor
    var acks = AckStream()
    var buffer = [UInt8](repeating: 0, count: 4096)
    reading: while acks.highest < target {
      var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      if poll(&request, 1, 100) > 0 {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
          acks.feed(buffer[..<count])
        } else if count == 0 || errno != EINTR {
          break reading  // end of file or an error: the child is gone
        }
      } else if !process.isRunning {
        break reading
      }
    }
    let wasRunning = process.isRunning
    if wasRunning { kill(process.processIdentifier, SIGKILL) }
    let exit = ChildExit.wait(for: process)
    // The acknowledgements still in the pipe were written before the child died, too.
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      acks.feed(buffer[..<count])
    }
    try? pipe.fileHandleForReading.close()
    return KilledRecording(
      highestAck: acks.highest, ackProblems: acks.problems, wasKilled: wasRunning,
      terminationReason: exit.reason, terminationStatus: exit.status)
  }

  /// `SIGKILL`, the signal ``recordUntilKilled(log:policy:acks:)`` sends.
  static let killSignal = SIGKILL

  private static func makeProcess(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = try executableURL()
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    // A crashing child should die at once instead of symbolicating a backtrace.
    environment["SWIFT_BACKTRACE"] = "enable=no"
    process.environment = environment
    return process
  }
}

/// How a run of `rewind-testbed` ended and what it printed.
struct TestbedRun {
  var terminationReason: Process.TerminationReason
  var terminationStatus: Int32
  var stdout: String
  var stderr: String

  /// Whether the child died of a signal (a trap, `fatalError`, `kill`).
  var diedOfSignal: Bool { terminationReason == .uncaughtSignal }
}

/// The end of a `rewind-testbed record` child killed by
/// ``Testbed/recordUntilKilled(log:policy:acks:)``.
struct KilledRecording {
  /// The highest action number the child acknowledged before it died.
  var highestAck: Int
  /// Acknowledgements that did not come as 1, 2, 3, … (should be empty).
  var ackProblems: [String]
  /// Whether the child was still running when it was killed (it should have been).
  var wasKilled: Bool
  var terminationReason: Process.TerminationReason
  var terminationStatus: Int32
}

/// A failure to find or run `rewind-testbed`.
enum TestbedError: Error, CustomStringConvertible {
  /// The executable is not in any of these places.
  case notFound([String])

  var description: String {
    switch self {
    case .notFound(let places):
      return "rewind-testbed was not found next to the test binary; looked at:\n  "
        + places.joined(separator: "\n  ")
        + "\nThe RewindTests target depends on it, so `swift test` builds it. To fix, run the "
        + "tests with `swift test` (or build it first with `swift build --build-tests`)."
    }
  }
}

/// Splits the child's stdout into acknowledgements `1\n2\n3\n…` and checks that they rise by 1.
private struct AckStream {
  private(set) var highest = 0
  private(set) var problems: [String] = []
  private var pending: [UInt8] = []

  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    for byte in bytes {
      guard byte == UInt8(ascii: "\n") else {
        pending.append(byte)
        continue
      }
      let text = String(decoding: pending, as: UTF8.self)
      pending.removeAll()
      if let number = Int(text), number == highest + 1 {
        highest = number
      } else {
        problems.append("acknowledgement \(text.debugDescription) after \(highest)")
      }
    }
  }
}

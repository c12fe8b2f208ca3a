import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// A child `replay __worker` process and the pipes to talk to it.
package final class WorkerProcess {
  /// The replay binary to run as the worker instead of the running executable (tests run
  /// in-process inside the test runner, which cannot be a worker).
  package static let executableOverride = Locked<URL?>(nil)

  enum Outcome {
    /// The reply line.
    case reply(String)
    /// The child died; how, and what it wrote on stderr.
    case died(signal: String, stderr: String)
  }

  private let process = Process()
  private let requests = Pipe()
  private let replies = Pipe()
  private let errors = Pipe()
  private var pending: [UInt8] = []

  /// The Swift backtracer's settings in a worker whose crash report wants the reducer's frames:
  /// a JSON report of the crashed thread on stderr, no questions asked.
  static let backtraceSettings =
    "enable=yes,interactive=no,format=json,output-to=stderr,color=no,threads=crashed,"
    + "registers=none,images=none,limit=128,top=32"

  /// Starts `replay __worker LOG RECOVERY` (the running executable itself, through
  /// `posix_spawn` by Foundation's `Process`; no `fork` of this multithreaded process).
  ///
  /// - Parameters:
  ///   - usesCheckpoints: Whether the worker's timeline starts from recorded checkpoints.
  ///   - reportsFrames: Whether the Swift backtracer runs when the worker crashes.
  init(log: String, recovery: RecoveryMode, usesCheckpoints: Bool, reportsFrames: Bool) throws {
    guard let executable = Self.executableOverride.withLock({ $0 }) ?? Bundle.main.executableURL
    else {
      throw WorkerError("the path of the running executable is unknown")
    }
    process.executableURL = executable
    process.arguments =
      [WorkerMode.command, log, recovery.rawValue]
      + (usesCheckpoints ? [] : [WorkerMode.noCheckpoints])
    process.standardInput = requests
    process.standardOutput = replies
    process.standardError = errors
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = reportsFrames ? Self.backtraceSettings : "enable=no"
    process.environment = environment
    try process.run()
  }

  /// Ends the child (end of input, then SIGTERM in case it is stuck) and reaps it, so that no
  /// zombie, pipe or `Process` outlives the session.
  deinit {
    try? requests.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  /// Sends one request line and waits for the reply line, or for the child's death; progress
  /// lines (`{"progress":[DONE,TOTAL]}`) on the way go to `progress`.
  func exchange(
    _ request: String, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  ) -> Outcome {
    do {
      try requests.fileHandleForWriting.write(contentsOf: Data((request + "\n").utf8))
    } catch {
      return died()
    }
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        if line.hasPrefix(#"{"progress":"#) {
          if let counts = (try? JSONParser.parse(line))?["progress"]?.arrayOfInts, counts.count == 2
          {
            progress?(counts[0], counts[1])
          }
          continue
        }
        return .reply(line)
      }
      let chunk = replies.fileHandleForReading.availableData
      if chunk.isEmpty { return died() }
      pending.append(contentsOf: chunk)
    }
  }

  private func died() -> Outcome {
    try? requests.fileHandleForWriting.close()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let signal: String
    if process.terminationReason == .uncaughtSignal {
      signal = Platform.signalName(process.terminationStatus)
    } else {
      signal = "exit status \(process.terminationStatus)"
    }
    return .died(signal: signal, stderr: stderr)
  }
}

struct WorkerError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

import Foundation
import Rewind

/// The limits of one log in a triage worker (``TriageWorkerMode``): a thread of the worker's own
/// looks every few milliseconds at how long the current log has taken and how much memory the
/// process holds, and ends the process when either passes its limit, saying which on stderr
/// (``timeMarker``, ``memoryMarker``) — a reducer stuck in a loop, or a log that would take the
/// machine's memory, stops only its worker, and the parent goes on with the next log.
package final class TriageWatchdog: Sendable {
  /// The words on stderr of a worker ended by the time limit.
  package static let timeMarker = "replay triage: time limit reached on this log"
  /// The words on stderr of a worker ended by the memory limit.
  package static let memoryMarker = "replay triage: memory limit reached on this log"
  /// The exit status of a worker ended by a limit.
  package static let exitStatus: Int32 = 125

  private let timeLimit: UInt64
  private let memoryLimit: Int
  /// When the current log started (monotonic nanoseconds), or 0 between logs.
  private let started = Locked<UInt64>(0)

  /// Limits of `timeLimitNanoseconds` per log and `memoryLimitBytes` of resident memory.
  package init(timeLimitNanoseconds: UInt64, memoryLimitBytes: Int) {
    timeLimit = timeLimitNanoseconds
    memoryLimit = memoryLimitBytes
  }

  /// Set by a fatal-signal handler when the reducer crashed: what runs then (the backtracer's
  /// report, a second or more on a busy machine) is not the log's time, and must not end the
  /// worker before the report is written.
  private static let crashed = AtomicWord(0)

  private static let noteCrash: Platform.FatalSignalHandler = { _, _ in
    TriageWatchdog.crashed.store(1)
  }

  /// Starts the watching thread.
  package func start() {
    _ = Self.crashed
    Platform.addFatalSignalHandler(Self.noteCrash)
    Thread.detachNewThread { [self] in
      while true {
        Platform.sleep(milliseconds: 10)
        let start = started.withLock { $0 }
        guard start != 0, Self.crashed.load() == 0 else { continue }
        if Platform.monotonicNanoseconds() - start > timeLimit { stop(Self.timeMarker) }
        if Platform.residentBytes() > memoryLimit { stop(Self.memoryMarker) }
      }
    }
  }

  /// A log starts.
  package func begin() { started.withLock { $0 = Platform.monotonicNanoseconds() } }

  /// The log is done.
  package func end() { started.withLock { $0 = 0 } }

  private func stop(_ marker: String) -> Never {
    Array("\(marker)\n".utf8).withUnsafeBytes { _ = Platform.writeAll(2, $0) }
    Platform.exitNow(Self.exitStatus)
  }
}

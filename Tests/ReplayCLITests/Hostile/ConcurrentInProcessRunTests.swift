import Foundation
import Testing

extension Hostile {
  /// `ReplayTool.run` is the in-process entry point "for tests and embedding"; two runs on two
  /// threads must not share mutable state.
  @Suite struct ConcurrentInProcessRunTests {
    /// Crashes the test runner today: `OpenedLog.init` calls `StepMarker.setLog(path)`, which
    /// assigns a process-wide `[UInt8]` (`StepMarker.prefix`) with no synchronization, and
    /// `Timeline` writes the process-wide `StepMarker.buffer`/`length` on every reduction. Two
    /// runs at once race on the array's reference count: `swift_deallocClassInstance` →
    /// "Bad pointer dereference" (SIGSEGV) in `StepMarker.setLog` (StepMarker.swift:18).
    @Test
    func runsOnSeveralThreadsAtOnceDoNotCrash() throws {
      try CLIFixture.withTemporaryDirectory { directory in
        let bytes = HostileLog.bytes(
          [HostileLog.counterHeader] + (1...50).map { HostileLog.increment(seq: $0) }
            + [HostileLog.end(seq: 50)])
        let paths = try (0..<8).map { n in
          try HostileLog.write(bytes, named: "log-\(n).jsonl", in: directory)
        }
        DispatchQueue.concurrentPerform(iterations: 2_000) { n in
          let run = ReplayRun(["state", paths[n % paths.count], "--at", String(n % 51)])
          #expect(run.status == 0, "\(run.standardError)")
        }
      }
    }
  }
}

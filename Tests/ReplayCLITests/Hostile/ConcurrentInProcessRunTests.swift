import Foundation
import Testing

extension Hostile {
  /// `ReplayTool.run` is the in-process entry point "for tests and embedding"; two runs on two
  /// threads must not share mutable state.
  @Suite struct ConcurrentInProcessRunTests {
    /// The crash reporter's note of the step being replayed (`StepMarker`) is process-wide.
    /// When `StepMarker.setLog` assigned a global `[UInt8]` with no synchronization, two runs at
    /// once raced on the array's reference count and this test crashed the runner about one time
    /// in three (SIGSEGV, "Bad pointer dereference", in `StepMarker.setLog`/`willApply`). Now one
    /// run at a time holds the note (`StepMarker.claim()`); ThreadSanitizer checks this test.
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

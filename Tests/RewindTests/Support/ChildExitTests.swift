import Foundation
import RewindTestSupport
import Testing

/// The tests' wait for a child process: its exit status or signal, and a child past its time
/// limit killed instead of waited on for ever.
@Suite struct ChildExitTests {
  private static func started(_ script: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    try process.run()
    return process
  }

  @Test func theStatusOrTheSignalIsReported() throws {
    #expect(
      ChildExit.wait(for: try Self.started("exit 3")) == ChildExit(status: 3, isSignal: false))
    let killed = ChildExit.wait(for: try Self.started("kill -KILL $$"))
    #expect(killed == ChildExit(status: 9, isSignal: true) && killed.reason == .uncaughtSignal)
  }

  @Test func aChildPastItsTimeLimitIsKilled() throws {
    let started = Date()
    let exit = ChildExit.wait(for: try Self.started("sleep 30"), timeLimit: 0.3)
    #expect(exit == ChildExit(status: 9, isSignal: true))
    #expect(Date().timeIntervalSince(started) < 20)
  }
}

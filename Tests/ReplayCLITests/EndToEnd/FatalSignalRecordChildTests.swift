import Foundation
import RewindReplay
import Testing

/// `RecordingOptions.recordsFatalSignals` in real child processes (`rewind-testbed signal`): the
/// log of an app that died of a fatal signal ends with a `signal` line naming it and the action,
/// which `replay info` reads; `SIGKILL` leaves no line; crash reporters installed before and after
/// the recorder's handler still run.
@Suite struct FatalSignalRecordChildTests {
  struct Death: Sendable, CustomTestStringConvertible {
    var how: String
    var signals: Set<String>
    var hasAddress: Bool
    var testDescription: String { how }
  }

  static let deaths = [
    Death(how: "trap", signals: ["SIGILL", "SIGTRAP"], hasAddress: true),
    Death(how: "segv", signals: ["SIGSEGV"], hasAddress: true),
    Death(how: "abort", signals: ["SIGABRT"], hasAddress: false),
  ]

  static func runChild(_ arguments: [String]) throws -> ChildProcess {
    try ChildProcess.run(
      try TrapKindsTests.testbed(), arguments, in: CLIFixture.packageRoot,
      environment: ["SWIFT_BACKTRACE": "enable=no"])
  }

  @Test(arguments: deaths, ["none", "both"])
  func theLogEndsWithTheSignalAndTheAction(death: Death, chain: String) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("\(death.how).jsonl").path
      let child = try Self.runChild(["signal", path, death.how, chain])
      #expect(child.reason == .uncaughtSignal, "the process still dies of the signal: \(child)")
      let log = try ReplayLog(path: path, recovery: .strict)
      let signal = try #require(log.signal, "no signal record in \(path)")
      #expect(death.signals.contains(signal.signal))
      #expect(signal.seq == 3)
      #expect(signal.line == 5)
      #expect((signal.address != nil) == death.hasAddress, "\(signal)")
      #expect(log.isCutOff)
      #expect(log.lastSeq == 3)
      if chain == "both" {
        // The reporter installed after the recorder runs first and passes the signal on to it;
        // the recorder passes it on to the one installed before.
        let reporters = child.standardError.split(separator: "\n").filter {
          $0.hasPrefix("reporter ")
        }
        #expect(
          reporters == ["reporter after ran", "reporter before ran"], "\(child.standardError)")
      }
      let info = ReplayRun(["info", path])
      #expect(
        info.standardOutput.contains(
          "ended:        cut off by a crash — the app died of \(signal.signal)"),
        "\(info.standardOutput)")
      #expect(info.standardOutput.contains("while running action 3 ("), "\(info.standardOutput)")
    }
  }

  @Test func sigkillLeavesNoLine() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("kill.jsonl").path
      let child = try Self.runChild(["signal", path, "kill", "both"])
      #expect(child.reason == .uncaughtSignal)
      #expect(child.status == 9)
      #expect(child.standardError == "", "no handler runs for SIGKILL")
      let log = try ReplayLog(path: path, recovery: .strict)
      #expect(log.signal == nil)
      #expect(log.lastSeq == 3)
      let info = ReplayRun(["info", path])
      #expect(info.standardOutput.contains("cut off — no end record"), "\(info.standardOutput)")
    }
  }
}

import Foundation
import RewindReplay
import Testing

/// `kill -9` while a checkpoint is being written in parts off the dispatching thread
/// (`rewind-testbed record-big`): the log stays readable, no acknowledged action is lost, and a
/// state cut off by the kill is left out rather than read half.
@Suite struct BackgroundCheckpointKillTests {
  /// Runs the child until it has acknowledged `acks` dispatches, kills it, and returns the
  /// highest acknowledgement read.
  static func recordUntilKilled(log: String, acks: Int) throws -> Int {
    let process = Process()
    process.executableURL = try TrapKindsTests.testbed()
    process.arguments = ["record-big", log, "100000"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var pending = ""
    var highest = 0
    while highest < acks {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      pending += String(decoding: data, as: UTF8.self)
      while let newline = pending.firstIndex(of: "\n") {
        highest = max(highest, Int(pending[..<newline]) ?? highest)
        pending.removeSubrange(...newline)
      }
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    return highest
  }

  @Test(arguments: [35, 120, 333])
  func aKillDuringABackgroundCheckpointLeavesAReadableLog(acks: Int) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("big-\(acks).jsonl").path
      let highest = try Self.recordUntilKilled(log: path, acks: acks)
      #expect(highest >= acks)
      let log = try ReplayLog(path: path, recovery: .tail)
      #expect(log.isCutOff)
      #expect(log.lastSeq >= highest, "every acknowledged action is in the file")
      #expect(
        log.checkpointSeqs.count + log.skippedCheckpoints >= highest / 10 - 1,
        "every checkpoint due is written or marked skipped (but the one being written)")
      if acks >= 120 { #expect(!log.checkpointSeqs.isEmpty, "states were written in parts") }
      for seq in log.checkpointSeqs {
        #expect(seq % 10 == 0)
        let state = try #require(try log.checkpointState(at: seq))
        guard case .array(let notes)? = state["notes"] else {
          Issue.record("state \(seq) has no notes")
          continue
        }
        #expect(notes.count == 8_000, "state \(seq) is whole")
      }
    }
  }
}

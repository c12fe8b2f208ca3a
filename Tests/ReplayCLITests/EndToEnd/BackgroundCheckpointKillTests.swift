import Foundation
import RewindReplay
import RewindTestSupport
import Testing

/// `kill -9` while a checkpoint is being written in parts off the dispatching thread
/// (`rewind-testbed record-big`), or while a rotation's state is (`record … rotating-large`): the
/// log stays readable, no acknowledged action is lost, and a state cut off by the kill is left
/// out rather than read half.
@Suite struct BackgroundCheckpointKillTests {
  /// Runs the child until it has acknowledged `acks` dispatches and `isReady` holds (checked
  /// after each read), kills it, and returns the highest acknowledgement read.
  static func recordUntilKilled(
    log: String, acks: Int, arguments: [String]? = nil, until isReady: () -> Bool = { true }
  ) throws -> Int {
    let process = Process()
    process.executableURL = try TrapKindsTests.testbed()
    process.arguments = arguments ?? ["record-big", log, "100000"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    var pending = ""
    var highest = 0
    while highest < acks || !isReady() {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      pending += String(decoding: data, as: UTF8.self)
      while let newline = pending.firstIndex(of: "\n") {
        highest = max(highest, Int(pending[..<newline]) ?? highest)
        pending.removeSubrange(...newline)
      }
    }
    kill(process.processIdentifier, SIGKILL)
    _ = ChildExit.wait(for: process)
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
        // Every tenth action, or the first one after a checkpoint skipped for a busy encoder
        // (owed: docs/log-format.md, `state-skipped`).
        #expect(seq > 0 && seq <= log.lastSeq)
        let state = try #require(try log.checkpointState(at: seq))
        guard case .array(let notes)? = state["notes"] else {
          Issue.record("state \(seq) has no notes")
          continue
        }
        #expect(notes.count == 8_000, "state \(seq) is whole")
      }
    }
  }

  @Test(arguments: [400, 900, 1_700])
  func aKillDuringABackgroundRotationLosesNoAction(acks: Int) throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      // Not before the first rotation: the background writer, slowed by a busy machine, may
      // postpone it past any given count.
      let rotated = directory.appendingPathComponent("live.1.jsonl").path
      let highest = try Self.recordUntilKilled(
        log: path, acks: acks, arguments: ["record", path, "rotating-large", "100000"],
        until: { FileManager.default.fileExists(atPath: rotated) })
      #expect(highest >= acks)
      // Every rotated file, oldest (highest number) first. A kill while the recorder shifted
      // the numbers (it renames the highest first) can leave one number free: not a stop.
      let numbers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .compactMap { name -> Int? in
          guard name.hasPrefix("live."), name.hasSuffix(".jsonl") else { return nil }
          return Int(name.dropFirst(5).dropLast(6))
        }
      let files =
        numbers.sorted(by: >).map { directory.appendingPathComponent("live.\($0).jsonl").path }
        + [path]
      #expect(files.count > 1, "the writer rotated")
      // The files joined oldest first, as `RecordedSession.bundle(to:)` joins them (an older
      // file's line torn by the kill — a part of its final state — left out): every
      // acknowledged action, once, in order — whether the kill came before the old file's end
      // record, during its final state, or before the new file's state.
      var bundle: [UInt8] = []
      for file in files {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        if file != files.last, bytes.last != 0x0A {
          bytes = Array(bytes[..<((bytes.lastIndex(of: 0x0A) ?? -1) + 1)])
        }
        bundle += bytes
      }
      let log = try ReplayLog(name: "bundle", contents: bundle, recovery: .tail)
      #expect(log.firstSeq == 1)
      #expect(log.lastSeq >= highest, "every acknowledged action is in the files")
      #expect(log.joinedFiles == files.count - 1)
      // Each file alone opens. The newest may lack its initial state, when the kill came
      // before it was written: then it says so, a state that needs it fails saying so, and the
      // bundle above is the way to read it.
      for file in files {
        let alone = try ReplayLog(path: file, recovery: .tail)
        guard alone.isInitialStateMissing else {
          #expect(alone.header.state["todos"] != nil, "\(file)")
          continue
        }
        #expect(file == path, "only the newest file can lack its state: \(file)")
        #expect(throws: DebuggerError.self) {
          try Debugger.state(of: alone, timeline: nil, at: alone.positions.lowerBound)
        }
        guard case .headerStateMissing = alone.initialStateError else {
          Issue.record("\(file): \(alone.initialStateError)")
          continue
        }
      }
    }
  }
}

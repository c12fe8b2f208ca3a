import Foundation
import Rewind
import Testing

@testable import RewindReplay

/// A recorded log cut at every byte offset — what a crash, a full disk or a partial copy leaves
/// — opens in the default `.tail` mode with exactly the actions of its complete lines.
@Suite struct TruncationTests {
  /// A ~100-action log by the real recorder, checkpointed every 10 actions.
  static let recorded: [UInt8] = {
    do {
      return try TodoRecording.record(actions: 100, checkpointInterval: 10).bytes
    } catch {
      preconditionFailure("cannot record the log: \(error)")
    }
  }()

  /// The cut lengths 1…size, in slices that run in parallel.
  static let slices = 8

  @Test(arguments: 0..<slices)
  func logCutAtAnyByteOpensWithTheActionsOfItsCompleteLines(slice: Int) throws {
    let bytes = Self.recorded
    let lines = LogLines(bytes)
    let headerLength = lines.lines[0].content.count
    #expect(lines.lines.count == 1 + 100 + 10 + 1)
    var failures: [String] = []
    for length in stride(from: 1 + slice, through: bytes.count, by: Self.slices) {
      // The line of the last byte kept: whole when that byte is its line feed.
      let last = try #require(lines.line(containing: length - 1))
      let isWhole = bytes[length - 1] == UInt8(ascii: "\n")
      let expectedActions = lines.actionCount(before: isWhole ? last.number + 1 : last.number)
      let expectedFaults =
        isWhole
        ? []
        : [
          LogFault(
            path: "cut.jsonl", line: last.number, byteOffset: last.start,
            reason: .cutOff(length: length - last.start))
        ]
      do {
        let log = try ReplayLog(name: "cut.jsonl", contents: Array(bytes[..<length]))
        if length <= headerLength {
          failures.append("\(length): opened although the header line is incomplete")
        } else if log.actionCount != expectedActions || log.faults != expectedFaults
          || log.hasEndRecord != (length == bytes.count)
        {
          failures.append(
            "\(length): \(log.actionCount) actions (expected \(expectedActions)), "
              + "faults \(log.faults), end record \(log.hasEndRecord)")
        }
      } catch {
        switch error {
        case .emptyLog, .notARewindLog, .fault:
          if length > headerLength { failures.append("\(length): \(error)") }
        default: failures.append("\(length): \(error)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) bad cuts: \(failures.prefix(10))")
  }

  @Test func logCutInsideItsHeaderIsAFaultOfTheFirstLine() throws {
    let bytes = Self.recorded
    let error = expectReplayError {
      try ReplayLog(name: "cut.jsonl", contents: Array(bytes[..<40]))
    }
    #expect(
      error?.faultError
        == FaultError(
          fault: LogFault(path: "cut.jsonl", line: 1, byteOffset: 0, reason: .cutOff(length: 40)),
          recovery: .strict, intactActions: 0, droppedLines: 0))
  }
}

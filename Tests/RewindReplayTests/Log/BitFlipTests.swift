import Foundation
import Rewind
import Testing

@testable import RewindReplay

/// Every single-bit flip of a recorded log is caught: the CRC-32C of each line detects any one
/// flipped bit, so no flip can leave a log that opens as if nothing happened.
///
/// The log has 100 actions and a checkpoint every 10 (about 17 KB, so about 136,000 flips; a
/// minute or so in a debug build, the eight bit positions in parallel). Under a sanitizer
/// (`REWIND_SANITIZER`), where each flip costs ten times as much and the cost grows with the
/// square of the log, it records 20 actions (two checkpoints: every kind of line is still
/// flipped); `REWIND_BITFLIP_ACTIONS=N` records N actions instead.
@Suite struct BitFlipTests {
  static let actionCount =
    ProcessInfo.processInfo.environment["REWIND_BITFLIP_ACTIONS"].flatMap { Int($0) }
    ?? (ProcessInfo.processInfo.environment["REWIND_SANITIZER"] == nil ? 100 : 20)

  static let recorded: [UInt8] = {
    do {
      return try TodoRecording.record(
        actions: actionCount, seed: 5, checkpointInterval: 10
      ).bytes
    } catch {
      preconditionFailure("cannot record the log: \(error)")
    }
  }()

  /// The bit positions 0…7, flipped in parallel.
  @Test(arguments: 0..<8)
  func everyFlipOfThisBitIsCaughtInStrictModeAtItsLine(bit: Int) throws {
    let original = Self.recorded
    let lines = LogLines(original)
    #expect(lines.lines.count == 1 + Self.actionCount + Self.actionCount / 10 + 1)
    var failures: [String] = []
    var flipped = original
    for offset in original.indices {
      flipped[offset] ^= 1 << bit
      defer { flipped[offset] = original[offset] }
      guard let line = lines.line(containing: offset)?.number else { continue }
      // A flipped line feed joins this line to the next; a byte flipped into a line feed splits
      // it. The fault is then reported at this line or the next one.
      let touchesLineFeed =
        original[offset] == UInt8(ascii: "\n") || flipped[offset] == UInt8(ascii: "\n")
      let acceptedLines = touchesLineFeed ? [line, line + 1] : [line]
      do {
        let log = try ReplayLog(name: "flipped.jsonl", contents: flipped, recovery: .strict)
        failures.append("byte \(offset) (line \(line)): accepted with \(log.actionCount) actions")
      } catch {
        guard let faultLine = error.faultError?.fault.line else {
          failures.append("byte \(offset) (line \(line)): \(error)")
          continue
        }
        if !acceptedLines.contains(faultLine) {
          failures.append("byte \(offset) (line \(line)): fault reported at line \(faultLine)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) flips: \(failures.prefix(10))")
  }

  @Test(arguments: 0..<8)
  func everyFlipOfThisBitLeavesPrefixRecoveryTheActionsBeforeItsLine(bit: Int) throws {
    let original = Self.recorded
    let lines = LogLines(original)
    var failures: [String] = []
    var flipped = original
    for offset in original.indices {
      flipped[offset] ^= 1 << bit
      defer { flipped[offset] = original[offset] }
      guard let line = lines.line(containing: offset)?.number else { continue }
      do {
        let log = try ReplayLog(name: "flipped.jsonl", contents: flipped, recovery: .prefix)
        let expected = lines.actionCount(before: line)
        if line == 1 {
          failures.append("byte \(offset): opened although the header is damaged")
        } else if log.actionCount != expected || log.faults.count != 1 {
          failures.append(
            "byte \(offset) (line \(line)): \(log.actionCount) actions, expected \(expected); "
              + "faults \(log.faults)")
        }
      } catch {
        // Only a damaged header stops `.prefix` from opening.
        if line != 1 { failures.append("byte \(offset) (line \(line)): \(error)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) flips: \(failures.prefix(10))")
  }
}

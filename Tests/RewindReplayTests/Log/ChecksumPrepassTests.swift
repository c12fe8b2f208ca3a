import Foundation
import Rewind
import RewindJSON
import Testing

@testable import RewindReplay

/// Logs large enough that they are read on another thread while they are indexed, and their
/// checksums checked there ahead of the indexer: the same faults, at the same lines, as checking
/// every line in order — whether the log comes from a file or from memory.
@Suite struct ChecksumPrepassTests {
  /// Where a test's log comes from.
  enum Source: CaseIterable, CustomTestStringConvertible {
    case file, memory

    var testDescription: String { self == .file ? "file" : "memory" }

    /// Opens `bytes` as a log from this source.
    func open(_ bytes: [UInt8], recovery: RecoveryMode) throws -> ReplayLog {
      switch self {
      case .memory:
        return try ReplayLog(name: "large.jsonl", contents: bytes, recovery: recovery)
      case .file:
        return try withScratchDirectory { directory in
          let path = directory.appendingPathComponent("large.jsonl").path
          try Data(bytes).write(to: URL(fileURLWithPath: path))
          return try ReplayLog(path: path, recovery: recovery)
        }
      }
    }
  }

  /// A valid log of about `megabytes` MiB of counter actions; returns its bytes and the start of
  /// each line.
  static func log(megabytes: Int) -> (bytes: [UInt8], lineStarts: [Int]) {
    var composer = LogComposer(
      header: .init(
        app: "counter", actionType: "CounterAction", stateType: "CounterState",
        state: .object([JSONMember("count", .number("0"))]), session: "s",
        recordedAt: "2026-01-01T00:00:00Z"))
    let action = JSONValue.object([JSONMember("add", .object([JSONMember("_0", .number("12345"))]))]
    )
    // About 90 bytes a line.
    for _ in 0..<(megabytes << 20) / 90 { composer.appendAction(action, time: 0.5) }
    let bytes = composer.finished()
    var lineStarts = [0]
    for (offset, byte) in bytes.enumerated()
    where byte == UInt8(ascii: "\n") && offset + 1 < bytes.count {
      lineStarts.append(offset + 1)
    }
    return (bytes, lineStarts)
  }

  /// A log of 9 MiB, made once for every test.
  static let large = log(megabytes: 9)

  @Test(arguments: Source.allCases)
  func opensALargeLogWithEveryAction(from source: Source) throws {
    let (bytes, lineStarts) = Self.large
    #expect(bytes.count >= LogBytes.backgroundBytes)
    let log = try source.open(bytes, recovery: .strict)
    #expect(log.byteCount == bytes.count)
    #expect(log.actionCount == lineStarts.count - 2)
    #expect(log.hasEndRecord)
  }

  @Test(arguments: Source.allCases, [0.01, 0.5, 0.999])
  func reportsAChangedLine(from source: Source, at fraction: Double) throws {
    var (bytes, lineStarts) = Self.large
    let line = Int(Double(lineStarts.count) * fraction)
    // Change a digit of the action: the checksum no longer matches.
    let digit = try #require(bytes[lineStarts[line]...].firstIndex(of: UInt8(ascii: "5")))
    bytes[digit] = UInt8(ascii: "6")
    let error = expectReplayError { try source.open(bytes, recovery: .strict) }
    let fault = try #require(error?.faultError)
    #expect(fault.fault.line == line + 1)
    #expect(fault.fault.byteOffset == lineStarts[line])
    #expect(fault.intactActions == line - 1)
    // Every line from the changed one on, the end record included.
    #expect(fault.droppedLines == lineStarts.count - line)
    guard case .checksumMismatch = fault.fault.reason else {
      Issue.record("expected a checksum mismatch, got \(fault.fault.reason)")
      return
    }
    let salvaged = try source.open(bytes, recovery: .salvage)
    #expect(salvaged.faults.map(\.line) == [line + 1])
    #expect(salvaged.actionCount == lineStarts.count - 2)
    let prefix = try source.open(bytes, recovery: .prefix)
    #expect(prefix.actionCount == line - 1)
    #expect(prefix.byteCount == bytes.count)
  }

  @Test(arguments: Source.allCases)
  func reportsTheFirstOfTwoChangedLines(from source: Source) throws {
    var (bytes, lineStarts) = Self.large
    for line in [lineStarts.count * 3 / 4, lineStarts.count / 4] {
      let digit = try #require(bytes[lineStarts[line]...].firstIndex(of: UInt8(ascii: "5")))
      bytes[digit] = UInt8(ascii: "6")
    }
    let error = expectReplayError { try source.open(bytes, recovery: .strict) }
    #expect(error?.faultError?.fault.line == lineStarts.count / 4 + 1)
  }

  @Test(arguments: Source.allCases)
  func keepsALastLineCutOffAfterTheReadIsDone(from source: Source) throws {
    var (bytes, lineStarts) = Self.large
    // Drop the end record and half of the last action: a log cut off mid-write.
    let last = lineStarts[lineStarts.count - 2]
    bytes.removeSubrange((last + 20)...)
    let log = try source.open(bytes, recovery: .tail)
    #expect(log.actionCount == lineStarts.count - 3)
    #expect(log.faults.map(\.line) == [lineStarts.count - 1])
    #expect(log.isCutOff)
    let error = expectReplayError { try source.open(bytes, recovery: .strict) }
    #expect(error?.faultError?.fault.byteOffset == last)
  }

  @Test(arguments: Source.allCases)
  func rejectsALargeFileThatIsNotALog(from source: Source) throws {
    let bytes = Array(repeating: Array("not a log line\n".utf8), count: 700_000).flatMap { $0 }
    #expect(bytes.count >= LogBytes.backgroundBytes)
    let error = expectReplayError { try source.open(bytes, recovery: .salvage) }
    guard case .notARewindLog = error else {
      Issue.record("expected notARewindLog, got \(String(describing: error))")
      return
    }
  }
}

import Rewind
import RewindJSON
import Testing

@testable import RewindReplay

/// Logs large enough that the second half's checksums are checked on another thread: the same
/// faults, at the same lines, as checking every line in order.
@Suite struct ChecksumPrepassTests {
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

  @Test func opensALargeLogWithEveryAction() throws {
    let (bytes, lineStarts) = Self.log(megabytes: 9)
    #expect(bytes.count >= ChecksumPrepass.minimumBytes)
    let log = try ReplayLog(name: "large.jsonl", contents: bytes, recovery: .strict)
    #expect(log.actionCount == lineStarts.count - 2)
    #expect(log.hasEndRecord)
  }

  @Test(arguments: [0.3, 0.5, 0.9])
  func reportsAChangedLineInEitherHalf(at fraction: Double) throws {
    var (bytes, lineStarts) = Self.log(megabytes: 9)
    let line = Int(Double(lineStarts.count) * fraction)
    // Change a digit of the action: the checksum no longer matches.
    let digit = try #require(bytes[lineStarts[line]...].firstIndex(of: UInt8(ascii: "5")))
    bytes[digit] = UInt8(ascii: "6")
    let error = expectReplayError {
      try ReplayLog(name: "large.jsonl", contents: bytes, recovery: .strict)
    }
    let fault = try #require(error?.faultError)
    #expect(fault.fault.line == line + 1)
    #expect(fault.fault.byteOffset == lineStarts[line])
    guard case .checksumMismatch = fault.fault.reason else {
      Issue.record("expected a checksum mismatch, got \(fault.fault.reason)")
      return
    }
    let salvaged = try ReplayLog(name: "large.jsonl", contents: bytes, recovery: .salvage)
    #expect(salvaged.faults.map(\.line) == [line + 1])
  }

  @Test func reportsTheFirstOfTwoChangedLines() throws {
    var (bytes, lineStarts) = Self.log(megabytes: 9)
    for line in [lineStarts.count * 3 / 4, lineStarts.count / 4] {
      let digit = try #require(bytes[lineStarts[line]...].firstIndex(of: UInt8(ascii: "5")))
      bytes[digit] = UInt8(ascii: "6")
    }
    let error = expectReplayError {
      try ReplayLog(name: "large.jsonl", contents: bytes, recovery: .strict)
    }
    #expect(error?.faultError?.fault.line == lineStarts.count / 4 + 1)
  }
}

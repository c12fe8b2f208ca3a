import Foundation
import Rewind
import RewindJSON
import Testing

@testable import RewindReplay

/// Reading a log file into memory: at once when it is small, on another thread while it is
/// indexed when it is large; and the checksum pass that follows the read.
@Suite struct LogBytesTests {
  /// `count` bytes of lines that are not all the same, so that a misplaced chunk shows.
  static func lines(count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 64)
    var line = 0
    while bytes.count < count {
      bytes.append(contentsOf: "line \(line) of the file\n".utf8)
      line += 1
    }
    return Array(bytes[..<count])
  }

  @Test func readsASmallFileAtOnce() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("small.jsonl").path
      let contents = Self.lines(count: 100_000)
      try Data(contents).write(to: URL(fileURLWithPath: path))
      let bytes = try LogBytes(path: path, limits: .default)
      let progress = bytes.received()
      #expect(progress.count == contents.count)
      #expect(progress.isComplete)
      #expect(bytes.prepass == nil)
      #expect(Array(bytes.buffer) == contents)
    }
  }

  @Test(arguments: [LogBytes.backgroundBytes, LogBytes.backgroundBytes + 12_345, 3 << 22])
  func readsALargeFileChunkByChunk(size: Int) throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("large.jsonl").path
      let contents = Self.lines(count: size)
      try Data(contents).write(to: URL(fileURLWithPath: path))
      let bytes = try LogBytes(path: path, limits: .default)
      #expect(bytes.prepass != nil)
      #expect(bytes.memory.count == size)
      // Follow the read the way the indexer does: each wait returns more bytes, or the end.
      var progress = bytes.received()
      #expect(progress.count > 0)
      var waits = 0
      while !progress.isComplete {
        let next = try bytes.waitForMore(than: progress.count)
        #expect(next.count > progress.count || next.isComplete)
        #expect(next.count >= progress.count)
        progress = next
        waits += 1
      }
      #expect(progress.count == size)
      #expect(waits <= size / (1 << 20) + 1)
      #expect(try bytes.waitForAll() == size)
      #expect(Array(bytes.buffer) == contents)
    }
  }

  @Test func waitingAfterTheEndReturnsAtOnce() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("large.jsonl").path
      try Data(Self.lines(count: LogBytes.backgroundBytes)).write(to: URL(fileURLWithPath: path))
      let bytes = try LogBytes(path: path, limits: .default)
      let size = try bytes.waitForAll()
      let again = try bytes.waitForMore(than: size)
      #expect(again.count == size)
      #expect(again.isComplete)
    }
  }

  @Test func memoryIsCompleteAtOnce() {
    let contents = Self.lines(count: 5_000)
    let bytes = LogBytes(copying: contents)
    #expect(bytes.received().isComplete)
    #expect(bytes.received().count == contents.count)
    #expect(Array(bytes.buffer) == contents)
  }

  @Test func checksumPassStartsWhereTheIndexerIs() throws {
    // A small log (header, 40 actions, end) whose 31st line has a changed byte.
    var composer = LogComposer(
      header: .init(
        app: "counter", actionType: "CounterAction", stateType: "CounterState",
        state: .object([JSONMember("count", .number("0"))]), session: "s",
        recordedAt: "2026-01-01T00:00:00Z"))
    for count in 1...40 {
      composer.appendAction(.object([JSONMember("add", .number("\(count)5"))]), time: 0.5)
    }
    var contents = composer.finished()
    var starts = [0] + contents.indices.filter { contents[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
    starts.removeLast()  // past the last newline
    let changed = try #require(contents[starts[30]...].firstIndex(of: UInt8(ascii: "5")))
    contents[changed] = UInt8(ascii: "6")
    contents.withUnsafeBytes { memory in
      let pass = ChecksumPrepass()
      var cursor = ChecksumPrepass.Cursor()
      #expect(pass.checkedLines().isEmpty)  // not run yet
      // Only part of the file read: the pass stops before the line that is not all there.
      let partial = UnsafeRawBufferPointer(rebasing: memory[..<(starts[20] + 5)])
      pass.indexerReached(starts[5])
      while pass.checkSome(&cursor, in: partial, isComplete: false) {}
      #expect(pass.checkedLines() == starts[5]..<starts[20])
      // The indexer has overtaken the pass: it starts again where the indexer is.
      pass.indexerReached(starts[25])
      while pass.checkSome(&cursor, in: memory, isComplete: true) {}
      #expect(pass.checkedLines() == starts[25]..<memory.count)
      for index in 25..<starts.count {
        let status = pass.status(at: starts[index])
        if index == 30 {
          guard case .mismatch = status else {
            Issue.record("expected a mismatch on line 31, got \(status)")
            continue
          }
        } else {
          #expect(status == .valid, "line \(index + 1)")
        }
      }
      pass.cancel()
      var fresh = ChecksumPrepass.Cursor()
      #expect(!pass.checkSome(&fresh, in: memory, isComplete: true))
    }
  }
}

import Foundation
import Rewind
import RewindTestSupport
import Testing

@testable import RewindReplay

/// Files that are not Rewind logs are refused with an error saying why — without a crash or a
/// hang, whatever the file holds.
@Suite struct LogHeaderErrorTests {
  @Test func emptyFileIsAnEmptyLog() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("empty.jsonl").path
      #expect(FileManager.default.createFile(atPath: path, contents: Data()))
      let error = expectReplayError { try ReplayLog(path: path) }
      guard case .emptyLog(let reported)? = error else {
        Issue.record("expected emptyLog, got \(String(describing: error))")
        return
      }
      #expect(reported == path)
      #expect(error?.message == "the log is empty: it has no header line")
    }
    let error = expectReplayError { try ReplayLog(name: "empty.jsonl", contents: []) }
    guard case .emptyLog("empty.jsonl")? = error else {
      Issue.record("expected emptyLog, got \(String(describing: error))")
      return
    }
  }

  @Test func blankFileIsAnEmptyLog() throws {
    let error = expectReplayError {
      try ReplayLog(name: "blank.jsonl", contents: Array("\n  \n\r\n".utf8))
    }
    guard case .emptyLog("blank.jsonl")? = error else {
      Issue.record("expected emptyLog, got \(String(describing: error))")
      return
    }
  }

  @Test func directoryIsRefused() throws {
    try withScratchDirectory { directory in
      let error = expectReplayError { try ReplayLog(path: directory.path) }
      switch error {
      case .notARegularFile(let path, let kind)?:
        #expect(path == directory.path)
        #expect(kind == "directory")
        #expect(error?.message == "not a log file: it is a directory")
      case .cannotOpen(let path, _)?:
        #expect(path == directory.path)
      default:
        Issue.record("expected notARegularFile or cannotOpen, got \(String(describing: error))")
      }
    }
  }

  @Test func characterDeviceIsRefusedWithoutReadingIt() throws {
    // /dev/zero never ends: reading it would hang or exhaust memory.
    let error = expectReplayError { try ReplayLog(path: "/dev/zero") }
    guard case .notARegularFile("/dev/zero", let kind)? = error else {
      Issue.record("expected notARegularFile, got \(String(describing: error))")
      return
    }
    #expect(kind == "character device")
  }

  @Test func missingFileCannotBeOpened() throws {
    let error = expectReplayError { try ReplayLog(path: "/nonexistent/rewind/log.jsonl") }
    guard case .cannotOpen("/nonexistent/rewind/log.jsonl", let reason)? = error else {
      Issue.record("expected cannotOpen, got \(String(describing: error))")
      return
    }
    #expect(reason == "No such file or directory")
  }

  @Test(arguments: [1, 2, 3])
  func binaryGarbageIsNotARewindLog(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
    bytes[200] = UInt8(ascii: "\n")
    bytes[0] = 0x89  // never '{' nor whitespace
    let error = expectReplayError { try ReplayLog(name: "garbage.bin", contents: bytes) }
    guard case .notARewindLog("garbage.bin", let reason)? = error else {
      Issue.record("expected notARewindLog, got \(String(describing: error))")
      return
    }
    #expect(reason.hasPrefix("line 1 is not valid JSON"))
    #expect(
      error?.hint == "pass a .jsonl log written by the Rewind recorder (see docs/log-format.md)")
  }

  @Test func binaryGarbageWithoutALineFeedIsNotARewindLog() throws {
    var generator = SplitMix64(seed: 9)
    let bytes = (0..<4096).map { _ in UInt8.random(in: 0x80...0xFF, using: &generator) }
    let error = expectReplayError { try ReplayLog(name: "garbage.bin", contents: bytes) }
    guard case .notARewindLog("garbage.bin", _)? = error else {
      Issue.record("expected notARewindLog, got \(String(describing: error))")
      return
    }
  }

  @Test func newerFormatVersionIsUnsupported() throws {
    var text = LogText()
    text.header(version: 99)
    let error = expectReplayError { try ReplayLog(name: "future.jsonl", contents: text.bytes) }
    guard case .unsupportedVersion("future.jsonl", 99, 2)? = error else {
      Issue.record("expected unsupportedVersion(99, 2), got \(String(describing: error))")
      return
    }
    #expect(error?.message == "the log has format version 99; this replay reads versions up to 2")
    #expect(error?.location == "future.jsonl:1")
    #expect(error?.hint == "upgrade Rewind to read this log")
  }

  @Test(
    arguments: [
      (
        #"{"kind":"action","seq":1,"type":"add","action":{"add":{"title":"x"}}}"#,
        #"the first line's "kind" is "action", not "header""#
      ),
      (#"[1,2,3]"#, "the first line is a JSON array, not an object"),
      (#"{"format":"rewind","version":1}"#, #"the first line's "kind" is missing, not "header""#),
      (
        #"{"kind":"header","format":"other","version":1}"#,
        #"the header's "format" is not "rewind""#
      ),
      (
        #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo","actionType":"A","stateType":"S","firstSeq":0,"state":{}}"#,
        #"the header has no positive integer "firstSeq""#
      ),
      (
        #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"todo","actionType":"A","stateType":"S","firstSeq":1}"#,
        #"the header has no "state""#
      ),
    ])
  func firstLineThatIsNotAHeaderIsNotARewindLog(line: String, reason: String) throws {
    var text = LogText(checksummed: false)
    text.raw(line)
    let error = expectReplayError { try ReplayLog(name: "other.jsonl", contents: text.bytes) }
    guard case .notARewindLog("other.jsonl", let reported)? = error else {
      Issue.record("expected notARewindLog, got \(String(describing: error))")
      return
    }
    #expect(reported == reason)
    #expect(error?.message == "not a Rewind log: \(reason)")
  }

  @Test func fileOverTheSizeLimitIsRefused() throws {
    let path = LogFixture.path("counter.jsonl")
    let limits = ReaderLimits(maxFileBytes: 1000, maxLineBytes: 1000, json: .default)
    let error = expectReplayError { try ReplayLog(path: path, limits: limits) }
    guard case .fileTooLarge(path, 1736, 1000)? = error else {
      Issue.record("expected fileTooLarge, got \(String(describing: error))")
      return
    }
  }
}

import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// A bad line in the middle of a log: `.tail` and `.strict` refuse it naming the line and byte,
/// `.prefix` replays what precedes it, `.salvage` skips it.
@Suite struct MidLogFaultTests {
  /// What is wrong with line 43 (the action with seq 42) of a 60-action log.
  enum Corruption: String, CaseIterable, Sendable {
    /// One character of the line changed after it was checksummed.
    case checksumMismatch
    /// A hand-written (unchecksummed) line missing its closing brace.
    case invalidJSON
    /// The line is missing: seq 41 is followed by seq 43.
    case seqGap
    /// A line longer than the reader's `maxLineBytes` of 512.
    case lineTooLong
    /// A hand-written line whose action nests 513 arrays.
    case tooDeep
  }

  /// A corrupted log, and the fault the reader must report for it.
  struct Case {
    var bytes: [UInt8]
    var actions: [TodoAction]
    var limits = ReaderLimits.default
    var fault: LogFault
    var totalLines: Int
  }

  static let name = "corrupt.jsonl"
  static let badLine = 43
  static let badSeq = 42

  static func make(_ corruption: Corruption) throws -> Case {
    let checksummed = corruption != .invalidJSON && corruption != .tooDeep
    let (text, actions) = LogText.todoLog(actions: 60, seed: 3, checksummed: checksummed)
    let lines = LogLines(text.bytes)
    let bad = lines.lines[badLine - 1]
    #expect(bad.kind == "action")
    var replacement: [UInt8]?
    let reason: LogFault.Reason
    switch corruption {
    case .checksumMismatch:
      var content = bad.content
      let time = try #require(indexOf(Array(#""time":"#.utf8), in: content)) + 7
      content[time] = content[time] == UInt8(ascii: "9") ? UInt8(ascii: "8") : content[time] + 1
      let stored = try #require(UInt32(String(decoding: content[6..<14], as: UTF8.self), radix: 16))
      let computed = CRC32C.checksum(content[16..<(content.count - 1)])
      reason = .checksumMismatch(stored: stored, computed: computed)
      replacement = content
    case .invalidJSON:
      let content = Array(bad.content.dropLast())
      reason = .invalidJSON(
        JSONParseError(
          offset: bad.start + content.count,
          reason: .unexpectedEnd(expected: "',' or '}' after object member")))
      replacement = content
    case .seqGap:
      reason = .seqGap(expected: badSeq, found: badSeq + 1)
      replacement = nil
    case .lineTooLong:
      var line = LogText()
      line.action(seq: badSeq, .add(title: String(repeating: "x", count: 700)))
      let content = Array(line.bytes.dropLast())
      reason = .lineTooLong(length: content.count, limit: 512)
      replacement = content
    case .tooDeep:
      let content = Array(
        (#"{"kind":"action","seq":42,"type":"add","action":"#
          + String(repeating: "[", count: 513) + String(repeating: "]", count: 513) + "}").utf8)
      // The object is depth 1, so the 512th '[' opens container 513.
      let crossing = try #require(
        content.indices.filter { content[$0] == UInt8(ascii: "[") }.dropFirst(511).first)
      reason = .invalidJSON(
        JSONParseError(offset: bad.start + crossing, reason: .tooDeep(limit: 512)))
      replacement = content
    }
    var bytes = Array(text.bytes[..<bad.start])
    if let replacement { bytes += replacement + [UInt8(ascii: "\n")] }
    bytes += text.bytes[(bad.start + bad.content.count + 1)...]
    var limits = ReaderLimits.default
    if corruption == .lineTooLong { limits.maxLineBytes = 512 }
    return Case(
      bytes: bytes, actions: actions, limits: limits,
      fault: LogFault(path: name, line: badLine, byteOffset: bad.start, reason: reason),
      totalLines: LogLines(bytes).lines.count)
  }

  private static func indexOf(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first {
      Array(haystack[$0..<($0 + needle.count)]) == needle
    }
  }

  @Test(arguments: Corruption.allCases, [RecoveryMode.tail, .strict])
  func faultBeforeTheLastLineThrowsNamingItsLineAndByte(
    corruption: Corruption, recovery: RecoveryMode
  ) throws {
    let bad = try Self.make(corruption)
    let error = expectReplayError {
      try ReplayLog(name: Self.name, contents: bad.bytes, recovery: recovery, limits: bad.limits)
    }
    #expect(
      error?.faultError
        == FaultError(
          fault: bad.fault, recovery: recovery, intactActions: 41,
          droppedLines: bad.totalLines - Self.badLine + 1))
    #expect(error?.location == "corrupt.jsonl:43 (byte \(bad.fault.byteOffset))")
    #expect(error?.message == bad.fault.reason.summary)
    #expect(error?.notes.first == "41 actions before it are intact")
    #expect(
      error?.hint
        == "replay corrupt.jsonl --recovery prefix   # replay the 41 intact actions; "
        + "or --recovery salvage to skip bad lines")
  }

  @Test(arguments: Corruption.allCases)
  func prefixRecoveryOpensWithTheActionsBeforeTheBadLine(corruption: Corruption) throws {
    let bad = try Self.make(corruption)
    let log = try ReplayLog(
      name: Self.name, contents: bad.bytes, recovery: .prefix, limits: bad.limits)
    #expect(log.actionCount == 41)
    #expect(log.positions == 0...41)
    #expect(log.faults == [bad.fault])
    #expect(log.isCutOff)
    #expect(log.suspectFrom == nil)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: bad.actions.prefix(41))
    #expect(try Timeline(log: log, reducer: todoReducer).state(at: 41) == expected[41])
  }

  @Test(arguments: Corruption.allCases)
  func salvageRecoverySkipsTheBadLineAndFlagsLaterStatesAsSuspect(corruption: Corruption) throws {
    let bad = try Self.make(corruption)
    let log = try ReplayLog(
      name: Self.name, contents: bad.bytes, recovery: .salvage, limits: bad.limits)
    #expect(log.faults.first == bad.fault)
    #expect(log.suspectFrom == Self.badSeq)
    #expect(log.actionCount == 60)
    #expect(log.hasEndRecord)
    #expect(try log.action(at: Self.badSeq).status == .missing)
    #expect(try log.action(at: Self.badSeq + 1).status == .recorded)
    // Later states are those of a store that never saw the skipped action.
    var withoutBad = bad.actions
    withoutBad.remove(at: Self.badSeq - 1)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: withoutBad)
    let timeline = Timeline(log: log, reducer: todoReducer)
    #expect(try timeline.state(at: 41) == expected[41])
    #expect(try timeline.state(at: 60) == expected[59])
  }

  @Test func checksummedLineTooDeepToParseIsAFaultWhenTheLogIsOpened() throws {
    // A checksummed line is indexed without being parsed, but a one-pass nesting scan still
    // finds a line too deep to parse, so recovery modes see it when the log is opened.
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.action(
      seq: 2, type: "add",
      json: String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
    text.end(seq: 2)
    let line = LogLines(text.bytes).lines[2]
    let crossing = try #require(
      line.content.indices.filter { line.content[$0] == UInt8(ascii: "[") }.dropFirst(511).first)
    let error = expectReplayError { try ReplayLog(name: "deep.jsonl", contents: text.bytes) }
    #expect(
      error?.faultError?.fault
        == LogFault(
          path: "deep.jsonl", line: 3, byteOffset: line.start,
          reason: .invalidJSON(
            JSONParseError(offset: line.start + crossing, reason: .tooDeep(limit: 512)))))
    #expect(error?.faultError?.intactActions == 1)
  }

  @Test(arguments: Corruption.allCases)
  func salvageReportsOnlyTheBadLineAsAFault(corruption: Corruption) throws {
    // `faults` holds the lines the recovery mode dropped or skipped; the line after the skipped
    // one is kept, so the seq jump it shows is not a fault of its own.
    let bad = try Self.make(corruption)
    let log = try ReplayLog(
      name: Self.name, contents: bad.bytes, recovery: .salvage, limits: bad.limits)
    #expect(log.faults == [bad.fault])
  }

  @Test func hintOfATooDeepLineLeadsToALogThatReplays() throws {
    // The hint of a fault says `--recovery prefix` replays the intact actions; following it
    // must give a log whose every position replays.
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.action(
      seq: 2, type: "add",
      json: String(repeating: "[", count: 513) + String(repeating: "]", count: 513))
    text.action(seq: 3, .toggle(id: 1))
    text.end(seq: 3)
    let error = try #require(
      expectReplayError { try ReplayLog(name: "deep.jsonl", contents: text.bytes) })
    let hint = try #require(error.hint)
    #expect(hint.contains("--recovery prefix"))
    let prefix = try ReplayLog(name: "deep.jsonl", contents: text.bytes, recovery: .prefix)
    #expect(prefix.actionCount == error.faultError?.intactActions)
    let timeline = Timeline(log: prefix, reducer: todoReducer)
    #expect(throws: Never.self) { try timeline.state(at: prefix.positions.upperBound) }
  }

}

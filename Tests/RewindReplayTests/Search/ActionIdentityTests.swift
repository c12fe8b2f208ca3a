import Foundation
import Rewind
import Testing

@testable import RewindReplay

/// The identities `replay diff` compares actions by, found by the open (`identifiesActions`)
/// against found afterwards from an open that did not (every line read again).
@Suite struct ActionIdentityTests {
  /// Each identity of `log`'s actions as text.
  private func texts(_ identities: ActionIdentities, of log: ReplayLog) -> [String] {
    (0..<identities.count).map { index in
      identities.withBytes(index, in: log) { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// Opens `bytes` both ways and checks that the identities are the same, hash and bytes, and
  /// `expected`; returns the log opened with `identifiesActions`.
  @discardableResult
  private func expectSameBothWays(
    _ bytes: [UInt8], recovery: RecoveryMode = .tail, expected: [String],
    leftToDecode: [Int], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ReplayLog {
    let opened = try ReplayLog(
      name: "a", contents: bytes, recovery: recovery, identifiesActions: true)
    let plain = try ReplayLog(name: "a", contents: bytes, recovery: recovery)
    #expect(plain.identitiesFromOpen == nil, sourceLocation: sourceLocation)
    let fromOpen = try #require(opened.identitiesFromOpen, sourceLocation: sourceLocation)
    // What the open could not take from the lines is left for the diff to decode.
    #expect(fromOpen.unidentifiedIndexes == leftToDecode, sourceLocation: sourceLocation)
    let found = try opened.actionIdentities()
    let foundLater = try plain.actionIdentities()
    #expect(found.unidentifiedIndexes.isEmpty, sourceLocation: sourceLocation)
    #expect(texts(found, of: opened) == expected, sourceLocation: sourceLocation)
    #expect(texts(foundLater, of: plain) == expected, sourceLocation: sourceLocation)
    #expect(found.hashes == foundLater.hashes, sourceLocation: sourceLocation)
    #expect(
      (0..<found.count).map { found.isBorrowed($0) }
        == (0..<foundLater.count).map { foundLater.isBorrowed($0) },
      sourceLocation: sourceLocation)
    return opened
  }

  @Test func recorderLinesAreTheirActionsBytes() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, type: "add", json: #"{"add":{"title":"milk"}}"#)
    text.record(
      #""kind":"action","seq":2,"time":0.5,"type":"add","action":{"add":{"title":"eggs"}},"sanitized":true"#
    )
    text.record(#""kind":"skipped","seq":3,"time":0.75,"type":"rename","reason":"denied""#)
    text.action(seq: 4, type: "add", json: #"{"add":{"title":"crème brûlée 🍮 \u00e9 \"x\""}}"#)
    // Checksummed, but not the recorder's layout (`time` before `seq`): parsed, still compact.
    text.record(
      #""kind":"action","time":1.25,"seq":5,"type":"toggle","action":{"toggle":{"id":1}}"#)
    // Checksummed in the recorder's layout: taken as the recorder wrote it, spaces and all.
    text.record(
      #""kind":"action","seq":6,"time":1.5,"type":"toggle","action":{ "toggle": {"id":2} }"#)
    text.end(seq: 6)
    try expectSameBothWays(
      text.bytes,
      expected: [
        #"{"add":{"title":"milk"}}"#, #"{"add":{"title":"eggs"}}"#, "skipped:rename:denied",
        #"{"add":{"title":"crème brûlée 🍮 \u00e9 \"x\""}}"#, #"{"toggle":{"id":1}}"#,
        #"{ "toggle": {"id":2} }"#,
      ], leftToDecode: [2])
  }

  /// The payload of a recorder's line, searched from the body or from after the seq (as the
  /// open does), whatever the members between: a type holding quotes, backslashes, commas and
  /// the key itself escaped, a time with an exponent or none, a site and a cause.
  @Test func recordedPayloadIsFoundPastEveryMemberBeforeIt() throws {
    let cases: [(members: String, payload: String)] = [
      (#""time":0.5,"type":"add""#, #"{"add":{"title":"a,b"}}"#),
      (#""time":1e-3,"type":"a\",\"action\":\"x\\""#, #"{"b":1}"#),
      (#""type":"plain""#, "7"),
      (#""time":2,"type":"t","site":"A.swift:3","cause":12"#, #"[1,",\"action\":"]"#),
      (#""time":3.25E+2,"type":"\\","via":"viewer""#, #"{"c":{}}"#),
    ]
    for (seq, example) in cases.enumerated() {
      var text = LogText()
      text.record(
        #""kind":"action","seq":\#(seq + 7),\#(example.members),"action":\#(example.payload)"#)
      let line = Array(text.bytes.dropLast())
      line.withUnsafeBytes { bytes in
        for start in [LogLine.bodyOffset, RecordPeek.endOfActionSeq(seq + 7)] {
          let found = ReplayLog.recordedPayload(bytes, from: start).map {
            String(decoding: bytes[$0], as: UTF8.self)
          }
          #expect(found == example.payload, "\(example.members) from \(start)")
        }
      }
    }
  }

  @Test func handWrittenLinesAreParsedAndCompacted() throws {
    var text = LogText(checksummed: false)
    text.header()
    text.action(seq: 1, type: "add", json: #"{"add":{"title":"milk"}}"#)
    text.action(seq: 2, type: "add", json: #"{ "add" : { "title" : "é🍮" } }"#)
    text.raw(#"{"action":{"toggle":{"id":1}},"kind":"action","seq":3}"#)
    text.end(seq: 3)
    try expectSameBothWays(
      text.bytes,
      expected: [
        #"{"add":{"title":"milk"}}"#, #"{"add":{"title":"é🍮"}}"#, #"{"toggle":{"id":1}}"#,
      ],
      leftToDecode: [1])
  }

  @Test func aLineWithABadChecksumIsMissing() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, type: "add", json: #"{"add":{"title":"milk"}}"#)
    text.action(seq: 2, type: "add", json: #"{"add":{"title":"eggs"}}"#)
    text.action(seq: 3, type: "add", json: #"{"add":{"title":"ham"}}"#)
    text.end(seq: 3)
    var bytes = text.bytes
    // A changed letter in the second action: its checksum no longer matches.
    let line = text.start(ofLine: 3)
    let letter = try #require(bytes[(line + 16)...].firstIndex(of: UInt8(ascii: "g")))
    bytes[letter] = UInt8(ascii: "G")
    let log = try expectSameBothWays(
      bytes, recovery: .salvage,
      expected: [#"{"add":{"title":"milk"}}"#, "missing", #"{"add":{"title":"ham"}}"#],
      leftToDecode: [1])
    #expect(log.faults.map(\.line) == [3])
  }

  @Test func aDiffOfLogsOpenedEitherWayFindsTheSameHunks() throws {
    func log(_ name: String, changed: Set<Int>, identifies: Bool) throws -> ReplayLog {
      var text = LogText()
      text.header()
      for seq in 1...3_000 {
        let title = changed.contains(seq) ? "changed \(seq)" : "todo \(seq % 97) é"
        text.action(seq: seq, type: "add", json: #"{"add":{"title":"\#(title)"}}"#)
      }
      text.end(seq: 3_000)
      return try ReplayLog(name: name, contents: text.bytes, identifiesActions: identifies)
    }
    let changed: Set<Int> = [1, 500, 1_499, 3_000]
    var results: [[LogDiff.Hunk]] = []
    for (identifiesA, identifiesB) in [(true, true), (false, false), (true, false)] {
      let a = try log("a", changed: [], identifies: identifiesA)
      let b = try log("b", changed: changed, identifies: identifiesB)
      results.append(try LogDiff(a, b, timelines: nil).hunks)
    }
    #expect(results[0].map(\.seqsInA) == changed.sorted().map { $0...$0 })
    #expect(results[1] == results[0])
    #expect(results[2] == results[0])
  }

  @Test func exactNumbersAreEqualForEqualBytesBorrowedOrOwned() throws {
    // What a collision falls back on: numbers from the bytes, not the hashes.
    func log(_ name: String, second: String, identifies: Bool) throws -> ReplayLog {
      var text = LogText()
      text.header()
      text.action(seq: 1, type: "add", json: #"{"add":{"title":"milk"}}"#)
      text.record(#""kind":"skipped","seq":2,"time":0.5,"type":"rename","reason":"denied""#)
      text.action(seq: 3, type: "add", json: second)
      text.end(seq: 3)
      return try ReplayLog(name: name, contents: text.bytes, identifiesActions: identifies)
    }
    let a = try log("a", second: #"{"add":{"title":"eggs"}}"#, identifies: true)
    let b = try log("b", second: #"{"add":{"title":"ham"}}"#, identifies: false)
    let (numbersA, numbersB) = ReplayLog.exactNumbers(
      try a.actionIdentities(), in: a, try b.actionIdentities(), in: b)
    #expect(numbersA == [0, 1, 2])
    #expect(numbersB == [0, 1, 3])
  }
}

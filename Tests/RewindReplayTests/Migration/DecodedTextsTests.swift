import Foundation
import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// `replay compat` decodes each distinct action text once (``DecodedTexts``): the set itself, and
/// the counts of a log whose good and bad texts repeat.
@Suite struct DecodedTextsTests {
  @Test func aTextIsKnownOnlyAfterItWasInsertedAndOnlyWithTheSameElementBudget() {
    let texts = [#"{"toggle":{"id":1}}"#, #"{"toggle":{"id":2}}"#, #"{"clearCompleted":{}}"#]
      .map { Array($0.utf8) }
    var known = DecodedTexts(capacity: 16)
    texts.withBuffers { buffers in
      for buffer in buffers {
        let probe = known.probe(buffer, elements: 5)
        #expect(!probe.isKnown)
        known.insert(buffer, elements: 5, at: probe)
      }
      for buffer in buffers {
        #expect(known.probe(buffer, elements: 5).isKnown)
        // The same text counted against another element budget is another key.
        #expect(!known.probe(buffer, elements: 6).isKnown)
      }
      // Equal bytes elsewhere in memory are the same text (the texts it holds must stay valid).
      Array(#"{"toggle":{"id":2}}"#.utf8).withUnsafeBytes {
        #expect(known.probe($0, elements: 5).isKnown)
      }
      Array(#"{"toggle":{"id":3}}"#.utf8).withUnsafeBytes {
        #expect(!known.probe($0, elements: 5).isKnown)
      }
    }
  }

  @Test func itStopsGrowingAtItsCapacityAndFindsEveryTextItHolds() {
    let texts = (0..<500).map { Array(#"{"toggle":{"id":\#($0)}}"#.utf8) }
    var known = DecodedTexts(capacity: 300)
    texts.withBuffers { buffers in
      for buffer in buffers {
        known.insert(buffer, elements: 5, at: known.probe(buffer, elements: 5))
      }
      let held = buffers.map { known.probe($0, elements: 5).isKnown }
      #expect(held.prefix(300).allSatisfy { $0 })
      #expect(held.dropFirst(300).allSatisfy { !$0 })
    }
  }

  @Test func repeatedTextsAreCountedOnEveryLineGoodOrBad() throws {
    // 6,000 actions of five texts, two of which do not decode: every line is counted, every bad
    // line is a failure of its type, and the first seq is the first line's.
    var log = LogText()
    log.header()
    let texts: [(type: String, json: String)] = [
      ("toggle", #"{"toggle":{"id":1}}"#), ("clearCompleted", #"{"clearCompleted":{}}"#),
      ("archive", #"{"archive":{"id":1}}"#), ("setFilter", #"{"setFilter":{"_0":"all"}}"#),
      ("add", #"{"add":{"text":"Milk"}}"#),
    ]
    for seq in 1...6_000 {
      let text = texts[(seq * 7 + seq / 3) % texts.count]
      log.action(seq: seq, type: text.type, json: text.json)
    }
    var expected: [String: (count: Int, first: Int)] = [:]
    for seq in 1...6_000 {
      let type = texts[(seq * 7 + seq / 3) % texts.count].type
      guard type == "archive" || type == "add" else { continue }
      expected[type, default: (0, seq)].count += 1
    }
    let report = try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("repeats.jsonl").path
      try Data(log.bytes).write(to: URL(fileURLWithPath: path))
      let app = ReplayApp(name: "todo", reducer: todoReducer)
      return app.compatibility(of: try ReplayLog(path: path))
    }
    #expect(report.actionsChecked == 6_000)
    #expect(report.failingTypes.map(\.type).sorted() == ["add", "archive"])
    for failing in report.failingTypes {
      #expect(failing.count == expected[failing.type]?.count)
      #expect(failing.firstSeq == expected[failing.type]?.first)
    }
    #expect(report.failingTypes.first { $0.type == "add" }?.codingPath == "add.title")
  }
}

extension DecodedTextsTests {
  @Test func aLineThatIsNotAnActionDoesNotRepeatThePreviousFailure() throws {
    // An action that does not decode, then a `skipped` line (no action to decode), then one that
    // decodes: the failure is counted once, and the skipped line not at all.
    var log = LogText()
    log.header()
    log.action(seq: 1, type: "add", json: #"{"add":{"text":"Milk"}}"#)
    log.record(#""kind":"skipped","seq":2,"type":"login","reason":"denied""#)
    log.action(seq: 3, type: "toggle", json: #"{"toggle":{"id":1}}"#)
    let report = try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("skipped.jsonl").path
      try Data(log.bytes).write(to: URL(fileURLWithPath: path))
      return ReplayApp(name: "todo", reducer: todoReducer).compatibility(
        of: try ReplayLog(path: path))
    }
    #expect(report.actionsChecked == 2)
    #expect(report.failingTypes.map(\.type) == ["add"])
    #expect(report.failingTypes.map(\.count) == [1])
  }
}

extension Array where Element == [UInt8] {
  /// Runs `body` with a buffer over each array, all valid at once.
  fileprivate func withBuffers(_ body: ([UnsafeRawBufferPointer]) -> Void) {
    let copies = map { bytes -> UnsafeMutableRawBufferPointer in
      let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
      copy.copyBytes(from: bytes)
      return copy
    }
    defer { for copy in copies { copy.deallocate() } }
    body(copies.map { UnsafeRawBufferPointer($0) })
  }
}

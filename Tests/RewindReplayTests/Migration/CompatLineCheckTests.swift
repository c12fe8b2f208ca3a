import Foundation
import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// `replay compat` opens a log without checking each line's JSON (``ReaderLimits/checksJSONAtOpen``)
/// and checks every line itself as it decodes (``CompatibilityChecker``): a checksummed line that
/// is not JSON is found wherever it is — an action, around an action's text, a checkpoint, a line
/// of a kind `replay` does not know, before the first action, in a log with no action — and on a
/// sound log the report is the one a checked open gives.
@Suite struct CompatLineCheckTests {
  /// Where a test puts its bad line.
  enum Place: CaseIterable, Sendable {
    case actionText, actionType, checkpoint, unknownKind, beforeTheFirstAction, afterTheLastAction
  }

  /// A todo log of 6,000 actions (more than one chunk of the check) with a checkpoint every 500,
  /// and one line that is checksummed but not JSON at `bad`.
  private func log(bad: Place?) -> [UInt8] {
    var log = LogText()
    log.header()
    if bad == .beforeTheFirstAction { log.record(#""kind":"note","seq":0,"text":"x"]"#) }
    var workload = TodoWorkload(seed: 3)
    var state = TodoState()
    for seq in 1...6_000 {
      let action = workload.next(for: state)
      todoReducer.reduce(&state, action)
      switch (bad, seq) {
      case (.actionText?, 4_500):
        log.action(seq: seq, type: "add", json: #"{"add":{"title":"x"]}"#)
      case (.actionType?, 4_500):
        log.action(seq: seq, type: #"a\q"#, json: #"{"add":{"title":"x"}}"#)
      default: log.action(seq: seq, action)
      }
      if seq % 500 == 0 {
        log.checkpoint(
          seq: seq,
          state: bad == .checkpoint && seq == 3_000 ? #"{"todos":[}"# : LogText.encodeState(state))
      }
      if bad == .unknownKind, seq == 5_000 { log.record(#""kind":"note","seq":5000,"text":"x",}"#) }
    }
    if bad == .afterTheLastAction { log.record(#""kind":"costs","seq":6000,"#) }
    log.end(seq: 6_000)
    return log.bytes
  }

  private func report(_ bytes: [UInt8], checksJSON: Bool) throws -> CompatibilityReport {
    var limits = ReaderLimits.default
    limits.checksJSONAtOpen = checksJSON
    let log = try ReplayLog(name: "log.jsonl", contents: bytes, recovery: .tail, limits: limits)
    return ReplayApp(name: "todo", reducer: todoReducer).compatibility(of: log)
  }

  @Test func aSoundLogReportsAsACheckedOpenDoes() throws {
    let bytes = log(bad: nil)
    let unchecked = try report(bytes, checksJSON: false)
    let checked = try report(bytes, checksJSON: true)
    #expect(!unchecked.hasUncheckedInvalidLine)
    #expect(!checked.hasUncheckedInvalidLine)
    #expect(unchecked.actionsChecked == 6_000)
    #expect(unchecked.statesChecked == 13)
    #expect(unchecked.isCompatible)
    #expect(checked.actionsChecked == unchecked.actionsChecked)
    #expect(checked.statesChecked == unchecked.statesChecked)
  }

  @Test(arguments: Place.allCases)
  func aLineThatIsNotJSONIsFoundWhereverItIs(_ place: Place) throws {
    let bytes = log(bad: place)
    #expect(try report(bytes, checksJSON: false).hasUncheckedInvalidLine)
    // A checked open refuses the log, naming the line (the CLI opens it so for its report).
    var limits = ReaderLimits.default
    limits.checksJSONAtOpen = true
    #expect(throws: ReplayError.self) {
      try ReplayLog(name: "log.jsonl", contents: bytes, recovery: .tail, limits: limits)
    }
  }

  @Test func aLogWithNoActionHasItsLinesCheckedToo() throws {
    var sound = LogText()
    sound.header()
    sound.end(seq: 0)
    #expect(!(try report(sound.bytes, checksJSON: false).hasUncheckedInvalidLine))
    var bad = LogText()
    bad.header()
    bad.record(#""kind":"note","seq":0,"text":[1,]"#)
    bad.end(seq: 0)
    #expect(try report(bad.bytes, checksJSON: false).hasUncheckedInvalidLine)
  }

  @Test func aTornLastLineIsNotABadLine() throws {
    // The default mode drops a line cut off mid-write: the check stops before it.
    var bytes = log(bad: nil)
    bytes.removeLast(9)
    let unchecked = try report(bytes, checksJSON: false)
    #expect(!unchecked.hasUncheckedInvalidLine)
    #expect(unchecked.actionsChecked == 6_000)
  }
}

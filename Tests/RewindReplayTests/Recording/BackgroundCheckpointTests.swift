import Foundation
import Rewind
import RewindJSON
import Testing

@testable import RewindReplay

/// Checkpoints of large states are encoded and written off the dispatching thread, as `state`
/// records that may follow later actions, in parts when large; the reader puts them back
/// together, and `verify` compares them as any checkpoint.
@Suite struct BackgroundCheckpointTests {
  /// A state of `items` strings, large enough for the background path (over 16 KiB of JSON),
  /// with a secret the sanitizer hides.
  struct BigState: Codable, Equatable, Sendable {
    var items: [String]
    var total = 0
    var secret = "hunter2"
  }

  enum BigAction: Codable, Equatable, Sendable {
    case add(Int)
  }

  static let reducer = Reducer<BigState, BigAction> { state, action in
    switch action {
    case .add(let n):
      state.total += n
      state.items[n % state.items.count] =
        "item \(n) — ünïcödé ✓ \(String(repeating: "x", count: n % 7))"
    }
  }

  static func initial(items: Int) -> BigState {
    BigState(items: (0..<items).map { "item \($0): water the plants, buy milk ✓" })
  }

  /// Records `count` actions on a state of `items` items; returns the states the store went
  /// through (`states[n]` after action n).
  static func record(
    to path: String, items: Int, count: Int, interval: Int,
    stateSanitizer: (@Sendable (BigState) -> BigState)? = nil
  ) throws -> [BigState] {
    let store = Store(initialState: initial(items: items), reducer: reducer)
    let recorder = try store.startRecording(
      to: path, app: "big", options: RecordingOptions(checkpointInterval: interval),
      stateSanitizer: stateSanitizer)
    var states = [store.state]
    for n in 1...count {
      store.dispatch(.add(n))
      states.append(store.state)
    }
    recorder.close()
    return states
  }

  static func decode(_ value: JSONValue) throws -> BigState {
    try RewindJSONDecoder().decode(BigState.self, from: value)
  }

  @Test func largeCheckpointsAreWrittenInPartsAndReadBackWhole() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("big.jsonl").path
      // About 400 KiB of JSON: seven parts of at most 64 KiB each.
      let states = try Self.record(to: path, items: 8_000, count: 300, interval: 50)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.contains(#""kind":"state","seq":"#), "written as state records")
      #expect(text.contains(#","part":1,"parts":"#), "in parts")
      // None on the dispatching thread; closing may write the final one (when the state for 300
      // was skipped), after the last action.
      let inline = text.components(separatedBy: "\n").filter {
        $0.contains(#""kind":"checkpoint""#)
      }
      #expect(inline.allSatisfy { $0.contains(#""seq":300,"#) }, "\(inline.count) inline")
      let log = try ReplayLog(path: path, recovery: .strict)
      #expect(log.hasEndRecord)
      #expect(!log.checkpointSeqs.isEmpty)
      #expect(log.checkpointSeqs.count + log.skippedCheckpoints >= 6, "one per 50 actions")
      #expect(log.checkpointSeqs.last == 300, "the end state is always there")
      for seq in log.checkpointSeqs {
        // Every 50th action, or the first after one skipped for a busy encoder (owed).
        #expect(seq % 50 == 0 || log.skippedCheckpoints > 0, "state \(seq)")
        let state = try #require(try log.checkpointState(at: seq))
        #expect(try Self.decode(state) == states[seq], "state \(seq)")
      }
      // verify rebuilds every state and compares each checkpoint.
      let app = ReplayApp(name: "big", reducer: Self.reducer)
      let report = try Verifier.verify(try app.timeline(for: log, usesCheckpoints: false))
      #expect(report.isReproduced)
      #expect(report.checkpointsCompared == log.checkpointSeqs.count)
    }
  }

  @Test func aCheckpointDueWhileAnotherIsWrittenIsSkippedVisibly() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("slow.jsonl").path
      // A sanitizer that takes 20 ms: with a checkpoint due at every action, most fall due while
      // the previous one is still being written.
      let states = try Self.record(
        to: path, items: 2_000, count: 40, interval: 1,
        stateSanitizer: { state in
          Thread.sleep(forTimeInterval: 0.02)
          return state
        })
      let log = try ReplayLog(path: path, recovery: .strict)
      #expect(log.skippedCheckpoints > 0)
      // Every seq has a state or a skip mark; the last one a state, written on close if skipped.
      #expect(log.checkpointSeqs.count + log.skippedCheckpoints >= 40)
      #expect(log.checkpointSeqs.last == 40)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(
        text.components(separatedBy: #""kind":"state-skipped""#).count - 1 == log.skippedCheckpoints
      )
      for seq in log.checkpointSeqs {
        let state = try #require(try log.checkpointState(at: seq))
        #expect(try Self.decode(state) == states[seq], "state \(seq)")
      }
      #expect(log.lastSeq == 40, "no action lost")
    }
  }

  @Test func theStateSanitizerRunsOnTheBackgroundPath() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("secret.jsonl").path
      _ = try Self.record(
        to: path, items: 3_000, count: 60, interval: 20,
        stateSanitizer: { state in
          var copy = state
          copy.secret = "<redacted>"
          return copy
        })
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(!text.contains("hunter2"))
      let log = try ReplayLog(path: path, recovery: .strict)
      #expect(!log.checkpointSeqs.isEmpty)
      for seq in log.checkpointSeqs {
        #expect(try log.checkpointState(at: seq)?["secret"]?.stringValue == "<redacted>")
      }
    }
  }

  /// Hand-written `state` records: late, in parts cut inside a multi-byte character's
  /// neighbourhood, out of order, incomplete.
  @Test func theReaderTakesLateAndPartedStatesAndRefusesDisorder() throws {
    try withScratchDirectory { directory in
      let header =
        #"{"kind":"header","format":"rewind","version":1,"session":"s","app":"counter","#
        + #""actionType":"CounterAction","stateType":"CounterState","firstSeq":1,"#
        + #""state":{"count":0}}"#
      func action(_ seq: Int) -> String {
        #"{"kind":"action","seq":\#(seq),"type":"increment","action":{"increment":{}}}"#
      }
      func write(_ lines: [String]) throws -> String {
        let path = directory.appendingPathComponent("\(UUID().uuidString).jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(
          toFile: path, atomically: true, encoding: .utf8)
        return path
      }
      // A whole state for seq 1 after action 3; a state in two parts for seq 2 around action 4.
      let good = try write([
        header, action(1), action(2), action(3), #"{"kind":"state","seq":1,"state":{"count":1}}"#,
        #"{"kind":"state","seq":2,"part":0,"parts":2,"text":"{\"cou"}"#, action(4),
        #"{"kind":"state","seq":2,"part":1,"parts":2,"text":"nt\":2}"}"#,
        #"{"kind":"state","seq":4,"part":0,"parts":3,"text":"{"}"#,
        #"{"kind":"state-skipped","seq":3}"#, #"{"kind":"end","seq":4}"#,
      ])
      let log = try ReplayLog(path: good, recovery: .strict)
      #expect(log.checkpointSeqs == [1, 2], "the incomplete state for 4 is left out")
      #expect(try log.checkpointState(at: 1) == .object([JSONMember("count", .number("1"))]))
      #expect(try log.checkpointState(at: 2) == .object([JSONMember("count", .number("2"))]))
      #expect(log.skippedCheckpoints == 1)
      #expect(log.ignoredLines == 0)

      let early = try write([header, action(1), #"{"kind":"state","seq":2,"state":{"count":2}}"#])
      #expect(throws: ReplayError.self) { try ReplayLog(path: early, recovery: .strict) }
      let disorder = try write([
        header, action(1), #"{"kind":"state","seq":1,"part":1,"parts":2,"text":"{}"}"#, action(2),
      ])
      do {
        _ = try ReplayLog(path: disorder, recovery: .strict)
        Issue.record("a part out of order was accepted")
      } catch {
        #expect(
          "\(error)".contains("part 1 of 2 of the state for seq 1 is out of order"), "\(error)")
      }
    }
  }

  /// Parts are cut between UTF-8 sequences, and put back together byte for byte.
  @Test func piecesNeverSplitACharacter() {
    let text = String(repeating: "aé✓😀", count: 40_000)
    let json = Array(text.utf8)
    let pieces = StateRecord.pieces(of: json)
    #expect(pieces.count > 1)
    #expect(pieces.allSatisfy { $0.count <= StateRecord.partBytes })
    var joined: [UInt8] = []
    for piece in pieces {
      let part = json[piece]
      #expect(part.first.map { $0 & 0xC0 != 0x80 } ?? true, "a piece starts on a character")
      joined += part
    }
    #expect(joined == json)
  }
}

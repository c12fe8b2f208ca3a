import Foundation
import Rewind
import RewindExamples
import RewindTestSupport
import Testing

/// A durability policy of `rewind-testbed record`.
enum KillPolicy: String, CaseIterable, Sendable {
  case process, interval, every, buffered

  /// The most acknowledgements to wait for before the kill. `every` syncs the disk for each
  /// action (milliseconds each), so it gets a smaller range to keep the test fast.
  var maxAcks: Int { self == .every ? 60 : 2000 }

  /// Whether every action whose dispatch returned must be in the file after `kill -9`.
  var keepsEveryAcknowledgedAction: Bool { self != .buffered }

  /// The seed of this policy's kill points.
  var seed: UInt64 {
    0x4B11_5EED_0000 + UInt64(KillPolicy.allCases.firstIndex(of: self) ?? 0)
  }
}

/// How many times each policy is killed: `REWIND_KILL_ROUNDS`, 25 by default (100 kills in all).
private let killRounds = max(
  1, ProcessInfo.processInfo.environment["REWIND_KILL_ROUNDS"].flatMap { Int($0) } ?? 25)

/// The action `rewind-testbed record` dispatches as number `n`.
private func childAction(_ n: Int) -> CounterAction { n % 7 == 0 ? .add(n) : .increment }

@Suite struct RecorderKillTests {
  @Test(arguments: KillPolicy.allCases)
  func killedRecorderLeavesOnlyWholeVerifiedLines(policy: KillPolicy) throws {
    let directory = try TemporaryDirectory()
    var random = SplitMix64(seed: policy.seed)
    for round in 1...killRounds {
      let target = random.int(in: 1...policy.maxAcks)
      let path = directory.file("\(policy.rawValue)-\(round).jsonl")
      let context = Comment(
        rawValue: "policy \(policy.rawValue), round \(round), kill after ack \(target)")
      let outcome = try Testbed.recordUntilKilled(log: path, policy: policy.rawValue, acks: target)
      #expect(outcome.wasKilled, context)
      #expect(outcome.terminationReason == .uncaughtSignal, context)
      #expect(outcome.terminationStatus == Testbed.killSignal, context)
      #expect(outcome.ackProblems == [], context)
      #expect(outcome.highestAck >= target, context)

      // A line cut off by the kill can only be the last bytes of the file (`partialTail`);
      // every line before it ends with `\n` and must verify.
      let log = try RecordedLog(path: path)
      #expect(log.checksumProblems() == [], context)
      let records = try log.records(CounterAction.self, CounterState.self)
      #expect(RecordedLog.sequenceProblems(records) == [], context)
      #expect(!records.contains { $0.kind == "end" }, context)
      try expectRecordsMatchTheChild(records, context)

      // The action being dispatched when the child died may be in the file without its ack.
      let actionCount = records.count { $0.kind == "action" }
      #expect(actionCount <= outcome.highestAck + 1, context)
      if policy.keepsEveryAcknowledgedAction {
        #expect(records.first?.kind == "header", context)
        #expect(actionCount >= outcome.highestAck, context)
      }
      // `buffered` keeps lines in memory until 4 KB have gathered: `kill -9` loses that tail
      // (the header too, while it is still in the buffer), so for it only whole, verified lines
      // are required.
      try? FileManager.default.removeItem(atPath: path)
    }
  }

  /// Every action line holds what the child dispatched with that `seq`, and every checkpoint the
  /// count after it.
  private func expectRecordsMatchTheChild(
    _ records: [LogRecord<CounterAction, CounterState>], _ context: Comment
  ) throws {
    var state = CounterState()
    var seq = 0
    for record in records {
      switch record.kind {
      case "header":
        #expect(record.state == CounterState(), context)
      case "action":
        seq += 1
        #expect(record.action == childAction(seq), context)
        counterReducer.reduce(&state, childAction(seq))
      case "checkpoint":
        #expect(record.state == state, context)
      default:
        Issue.record("unexpected \(record.kind) record; \(context)")
      }
    }
  }
}

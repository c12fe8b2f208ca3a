import Foundation
import Rewind
import RewindExamples
import RewindTestSupport
import Testing

@testable import RewindReplay

/// Every state the engine rebuilds equals the state of a fresh `Store` that dispatched the same
/// actions, decoded from the file with Foundation's `JSONDecoder` — whatever order the positions
/// are asked in and however thin the state cache gets.
@Suite struct TimelineEquivalenceTests {
  /// The order positions are asked in.
  enum Order: String, CaseIterable, Sendable {
    /// 0, 1, 2, … last.
    case forward
    /// last, then every step back to 0.
    case backward
    /// A seeded shuffle of every position.
    case shuffled
  }

  /// How the timeline caches states.
  struct CacheSetting: Sendable, CustomTestStringConvertible {
    var stride: Int
    var memoryBudget: Int
    var testDescription: String { "stride \(stride), budget \(memoryBudget) bytes" }

    static let all = [
      CacheSetting(stride: 64, memoryBudget: 256 << 20),
      // A budget this small keeps 4 states: the cache thins (its stride doubles) again and again.
      CacheSetting(stride: 4, memoryBudget: 1),
    ]
  }

  @Test(arguments: Order.allCases, CacheSetting.all)
  func todoSessionStatesEqualAStoreThatDispatchedTheSameActions(
    order: Order, setting: CacheSetting
  ) throws {
    let mismatches = try replayMismatches(
      "todo-session.jsonl", TodoState.self, reducer: todoReducer, order: order, setting: setting)
    #expect(mismatches.isEmpty, "positions whose state differs from the store's: \(mismatches)")
  }

  @Test(arguments: Order.allCases, CacheSetting.all)
  func counterStatesEqualAStoreThatDispatchedTheSameActions(
    order: Order, setting: CacheSetting
  ) throws {
    let mismatches = try replayMismatches(
      "counter.jsonl", CounterState.self, reducer: counterReducer, order: order, setting: setting)
    #expect(mismatches.isEmpty, "positions whose state differs from the store's: \(mismatches)")
  }

  @Test func todoSessionRecordedCheckpointsEqualTheStoreStates() throws {
    let bytes = try LogFixture.bytes("todo-session.jsonl")
    let (initial, actions) = try ReferenceReplay.decode(bytes, as: TodoState.self, TodoAction.self)
    let expected = ReferenceReplay.states(initial: initial, reducer: todoReducer, actions: actions)
    let log = try ReplayLog(path: LogFixture.path("todo-session.jsonl"))
    #expect(log.checkpointSeqs == [50, 100, 150, 200, 250, 300, 340])
    for seq in log.checkpointSeqs {
      let json = try #require(try log.checkpointState(at: seq))
      let state = try JSONDecoder().decode(TodoState.self, from: Data(json.serializedBytes))
      #expect(state == expected[seq], "checkpoint at seq \(seq)")
    }
  }

  @Test func stepsBackAfterSkippingAnActionStillMatchAStoreWithoutIt() throws {
    let bytes = try LogFixture.bytes("counter.jsonl")
    let (initial, actions) = try ReferenceReplay.decode(
      bytes, as: CounterState.self, CounterAction.self)
    var withoutThird = actions
    withoutThird.remove(at: 2)
    let expected = ReferenceReplay.states(
      initial: initial, reducer: counterReducer, actions: withoutThird)
    let log = try ReplayLog(path: LogFixture.path("counter.jsonl"))
    let timeline = Timeline(log: log, reducer: counterReducer, stride: 2, memoryBudget: 1)
    _ = try timeline.state(at: 12)
    timeline.setSkipped(3, true)
    for position in stride(from: 12, through: 3, by: -1) {
      // Position p holds the state after action p, which is action p - 1 of the list without it.
      #expect(try timeline.state(at: position) == expected[position - 1], "position \(position)")
    }
    #expect(try timeline.state(at: 2) == expected[2])
  }

  /// Replays `fixture` in `order` and returns the positions whose state differs from the store's.
  private func replayMismatches<State: Codable & Sendable & Equatable, Action: Codable & Sendable>(
    _ fixture: String, _: State.Type, reducer: Reducer<State, Action>, order: Order,
    setting: CacheSetting
  ) throws -> [Int] {
    let bytes = try LogFixture.bytes(fixture)
    let (initial, actions) = try ReferenceReplay.decode(bytes, as: State.self, Action.self)
    let expected = ReferenceReplay.states(initial: initial, reducer: reducer, actions: actions)
    let log = try ReplayLog(path: LogFixture.path(fixture))
    #expect(log.positions == 0...(expected.count - 1))
    let timeline = Timeline(
      log: log, reducer: reducer, stride: setting.stride, memoryBudget: setting.memoryBudget)
    var positions = Array(log.positions)
    switch order {
    case .forward: break
    case .backward: positions.reverse()
    case .shuffled:
      var generator = SplitMix64(seed: 0x5EED)
      positions.shuffle(using: &generator)
    }
    var mismatches: [Int] = []
    for position in positions {
      if try timeline.state(at: position) != expected[position] { mismatches.append(position) }
    }
    return mismatches
  }
}

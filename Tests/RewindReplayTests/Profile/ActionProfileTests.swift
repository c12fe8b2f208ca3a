import Foundation
import Rewind
import RewindReplay
import Testing

/// `profile`'s engine: each action's reduction timed over passes from the initial state
/// (``Timeline/reductionTimes(through:passes:)``), gathered per type (``ActionProfile``) and
/// compared with a baseline (``ProfileComparison``).
@Suite struct ActionProfileTests {
  /// An app with one slow action type: `slow` spins for 200 µs, `quick` appends a number.
  enum SlowAction: Codable, Sendable, Equatable {
    case quick(Int)
    case slow
    case touch
  }

  /// A reference the walk must hold alone: the reducer counts the times it is shared.
  final class Box: Codable, @unchecked Sendable {
    var value = 0
  }

  struct SlowState: Codable, Sendable {
    var numbers: [Int] = []
    var box = Box()
  }

  /// How many times `touch` found the state's box shared (a copy on write inside the timing).
  final class SharedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }

  static func reducer(counting shared: SharedCount = SharedCount()) -> Reducer<
    SlowState, SlowAction
  > {
    Reducer { state, action in
      switch action {
      case .quick(let n): state.numbers.append(n)
      case .slow:
        let start = Platform.monotonicNanoseconds()
        while Platform.monotonicNanoseconds() - start < 200_000 {}
      case .touch:
        if !isKnownUniquelyReferenced(&state.box) { shared.add() }
        state.box.value += 1
      }
    }
  }

  /// Records `actions` with the slow app; returns the log.
  static func record(_ actions: [SlowAction], in directory: URL) throws -> ReplayLog {
    let path = directory.appendingPathComponent("slow.jsonl").path
    let store = Store(initialState: SlowState(), reducer: reducer())
    let recorder = try store.startRecording(
      to: path, app: "slow", options: RecordingOptions(checkpointInterval: 4, ifExists: .replace))
    for action in actions { store.dispatch(action) }
    recorder.close()
    return try ReplayLog(path: path, recovery: .strict)
  }

  /// 40 quick actions with a slow one at every 8th seq (8, 16, 24, 32, 40).
  static let actions: [SlowAction] = (1...40).map { $0 % 8 == 0 ? .slow : .quick($0) }

  @Test func theSlowTypeComesFirstWithExactCountsAndIsAllOfTheSlowest() throws {
    try withScratchDirectory { directory in
      let log = try Self.record(Self.actions, in: directory)
      let timeline = try ReplayApp(name: "slow", reducer: Self.reducer()).timeline(for: log)
      let profile = try timeline.actionProfile(
        through: log.lastSeq, passes: 2, top: 5, type: nil)
      #expect(profile.passes == 2)
      #expect(profile.first == 1)
      #expect(profile.through == 40)
      #expect(profile.timed == 40)
      #expect(profile.notReduced == 0)
      #expect(profile.types.map(\.type) == ["slow", "quick"])
      #expect(profile.types.map(\.replayed.count) == [5, 35])
      #expect(profile.slowest.map(\.type) == Array(repeating: "slow", count: 5))
      #expect(profile.slowest.map(\.seq).sorted() == [8, 16, 24, 32, 40])
      let slow = try #require(profile.cost(of: "slow")?.replayed)
      #expect(slow.p50 >= 200_000, "the spin is timed")
      #expect(slow.total >= 5 * 200_000)
      #expect(slow.max >= slow.p99 && slow.p99 >= slow.p50)
    }
  }

  @Test func eachActionIsTimedOncePerPassAndTheLeastIsKept() throws {
    try withScratchDirectory { directory in
      let log = try Self.record(Self.actions, in: directory)
      let timeline = try #require(
        try ReplayApp(name: "slow", reducer: Self.reducer()).timeline(for: log)
          as? Timeline<SlowState, SlowAction>)
      let times = try timeline.reductionTimes(through: 20, passes: 3)
      #expect(times.first == 1)
      #expect(times.passes == 3)
      #expect(times.nanoseconds.count == 20)
      #expect(!times.nanoseconds.contains(ReductionTimes.notReduced))
      #expect(times.nanoseconds[7] >= 200_000, "seq 8 is slow")
      #expect(times.nanoseconds[6] < 200_000, "seq 7 is quick")
    }
  }

  /// The walk's state is its own: no cache or cursor shares it, so no reducer's change copies
  /// it inside the timing — even when the timeline had just rebuilt and cached those states.
  @Test func theReducerAlwaysHoldsTheOnlyReferenceToTheState() throws {
    try withScratchDirectory { directory in
      let log = try Self.record(Array(repeating: .touch, count: 30), in: directory)
      let shared = SharedCount()
      let timeline = try ReplayApp(name: "slow", reducer: Self.reducer(counting: shared))
        .timeline(for: log, usesCheckpoints: false)
      _ = try timeline.stateJSONText(at: 30)
      let before = shared.value
      let profile = try timeline.actionProfile(through: 30, passes: 3, top: 0, type: nil)
      #expect(profile.timed == 30)
      #expect(shared.value == before, "the walk shared the state \(shared.value - before) times")
    }
  }

  @Test func aTypeFilterKeepsOnlyThatType() throws {
    try withScratchDirectory { directory in
      let log = try Self.record(Self.actions, in: directory)
      let timeline = try ReplayApp(name: "slow", reducer: Self.reducer()).timeline(for: log)
      let profile = try timeline.actionProfile(through: 40, passes: 1, top: 50, type: "quick")
      #expect(profile.types.map(\.type) == ["quick"])
      #expect(profile.timed == 35)
      #expect(profile.slowest.count == 35)
      #expect(profile.slowest.allSatisfy { $0.type == "quick" })
    }
  }

  @Test func anEmptyStretchHasNoTypes() throws {
    try withScratchDirectory { directory in
      let log = try Self.record(Self.actions, in: directory)
      let timeline = try ReplayApp(name: "slow", reducer: Self.reducer()).timeline(for: log)
      let profile = try timeline.actionProfile(through: 0, passes: 3, top: 10, type: nil)
      #expect(profile.timed == 0)
      #expect(profile.types.isEmpty)
      #expect(profile.slowest.isEmpty)
      #expect(throws: ReplayError.self) {
        _ = try timeline.actionProfile(through: 41, passes: 1, top: 1, type: nil)
      }
    }
  }

  @Test(arguments: [
    ([7], 7, 7, 7), ([1, 2], 1, 2, 2), ([4, 1, 3, 2], 2, 4, 4),
    (Array(1...100), 50, 99, 100), (Array(1...200), 100, 198, 200),
  ])
  func percentilesAreNearestRank(values: [UInt64], p50: UInt64, p99: UInt64, max: UInt64) throws {
    let stats = try #require(ReductionStats(nanoseconds: values))
    #expect(stats.count == values.count)
    #expect(stats.total == values.reduce(0, +))
    #expect(stats.p50 == p50)
    #expect(stats.p99 == p99)
    #expect(stats.max == max)
  }

  @Test func aComparisonFlagsOnlyTypesSlowerBeyondTheThresholdAndTheFloor() {
    func cost(_ type: String, p50: UInt64) -> ActionProfile.TypeCost {
      .init(
        type: type, replayed: ReductionStats(count: 4, total: 4 * p50, p50: p50, p99: p50, max: p50)
      )
    }
    let baseline = [
      cost("slow", p50: 2_000), cost("tiny", p50: 100), cost("steady", p50: 10_000),
      cost("better", p50: 50_000), cost("gone", p50: 1_000),
    ]
    let current = [
      cost("slow", p50: 200_000), cost("tiny", p50: 400), cost("steady", p50: 12_000),
      cost("better", p50: 20_000), cost("fresh", p50: 3_000),
    ]
    let comparison = ProfileComparison(current, baseline: baseline)
    #expect(comparison.rows.map(\.type) == ["slow", "better", "fresh", "gone", "steady", "tiny"])
    #expect(
      comparison.rows.map(\.verdict) == [.slower, .faster, .new, .missing, .same, .same])
    #expect(comparison.slower.map(\.type) == ["slow"])
    #expect(comparison.rows.first?.p50Ratio == 100)
    #expect(comparison.rows.first?.totalRatio == 100)
    #expect(ProfileComparison(current, baseline: current).hasRegression == false)
  }
}

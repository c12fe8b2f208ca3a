import Foundation
import Rewind

/// (9) The worst dispatch, as a shipping app feels it: the latency of every `Store.dispatch` on
/// a big state with the recorder's default options, against the same store without recording,
/// by percentile (p50, p99, p99.9, max over `dispatches` calls per repetition).
struct DispatchLatencyBench {
  /// A state of `count` items of about 100 bytes of JSON each, in chunks of `chunkSize` (one
  /// chunk of them all: a flat array).
  struct BigState: Codable, Equatable, Sendable {
    var items: [[Item]]
    var chunkSize: Int
    var touches = 0
  }

  struct Item: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var count: Int
    var done: Bool
  }

  enum BigAction: Codable, Equatable, Sendable {
    /// Changes one item in place (O(1)).
    case touch(index: Int)
  }

  static let reducer = Reducer<BigState, BigAction> { state, action in
    switch action {
    case .touch(let index):
      let (chunk, offset) = index.quotientAndRemainder(dividingBy: state.chunkSize)
      state.items[chunk][offset].count += 1
      state.items[chunk][offset].done.toggle()
      state.touches += 1
    }
  }

  let directory: String
  /// Item counts: about 1, 5 and 20 MB of JSON.
  let sizes: [Int]
  let dispatches: Int
  let repetitions: Int

  /// The state of `count` items, flat (`chunkSize` nil) or in chunks of `chunkSize`.
  static func state(items count: Int, chunkSize: Int? = nil) -> BigState {
    let size = max(1, chunkSize ?? count)
    let items = (0..<count).map { n in
      Item(
        id: n, title: "Item \(n): water the plants, buy milk, renew the passport #\(n % 997)",
        count: 0, done: false)
    }
    return BigState(
      items: stride(from: 0, to: count, by: size).map { Array(items[$0..<min(count, $0 + size)]) },
      chunkSize: size)
  }

  /// The chunk size of the chunked variant, run on the largest state: a mutation after a
  /// checkpoint copies one chunk, not the whole array (docs/recording.md).
  static let chunkSize = 1_024

  /// The latencies of `dispatches` dispatches, in seconds, with or without a recorder.
  func latencies(items: Int, chunkSize: Int?, recording: Bool) throws -> [Double] {
    let store = Store(
      initialState: Self.state(items: items, chunkSize: chunkSize), reducer: Self.reducer)
    let path = "\(directory)/latency-\(items)-\(UUID().uuidString).jsonl"
    let recorder =
      recording
      ? try store.startRecording(to: path, app: "big", options: RecordingOptions()) : nil
    defer {
      recorder?.close()
      try? FileManager.default.removeItem(atPath: path)
    }
    var generator = SplitMix(seed: 9)
    var values: [Double] = []
    values.reserveCapacity(dispatches)
    for _ in 0..<dispatches {
      let action = BigAction.touch(index: generator.next(items))
      let start = Platform.monotonicNanoseconds()
      store.dispatch(action)
      values.append(Double(Platform.monotonicNanoseconds() - start) / 1e9)
    }
    return values
  }

  static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
    return sorted[max(0, index)]
  }

  func run() throws -> [Row] {
    var rows: [Row] = []
    let variants = sizes.map { ($0, Int?.none) } + (sizes.last.map { [($0, Self.chunkSize)] } ?? [])
    for (items, chunkSize) in variants {
      let bytes = try LogCoder.rewind.encode(Self.state(items: items, chunkSize: chunkSize)).count
      var with: [[Double]] = [[], [], [], []]
      var without: [[Double]] = [[], [], [], []]
      for _ in 0..<repetitions {
        for (recording, into) in [(false, 0), (true, 1)] {
          let sorted = try latencies(items: items, chunkSize: chunkSize, recording: recording)
            .sorted()
          let figures = [0.5, 0.99, 0.999].map { Self.percentile(sorted, $0) } + [sorted.last ?? 0]
          for (k, value) in figures.enumerated() {
            if into == 0 { without[k].append(value) } else { with[k].append(value) }
          }
        }
      }
      let size = FigureUnit.bytes.format(Double(bytes))
      let suffix =
        "-\(Int((Double(bytes) / Double(1 << 20)).rounded()))MiB"
        + (chunkSize == nil ? "" : "-chunked")
      let names = ["p50", "p99", "p99.9", "max"]
      let targets: [Target?] = [
        nil, nil, .addedAtMost(0.000_1, .seconds), .addedAtMost(0.001, .seconds),
      ]
      for k in 0..<4 {
        rows.append(
          Row(
            id: "9\(["a", "b", "c", "d"][k])\(suffix)",
            title: "Store.dispatch \(names[k]) with recording vs without (\(size) state"
              + (chunkSize.map { ", its items in arrays of \($0)" } ?? "") + ")",
            subject: Figure(
              label: "\(names[k]) recording", unit: .seconds, sample: Sample(with[k])),
            baseline: Figure(
              label: "\(names[k]) alone", unit: .seconds, sample: Sample(without[k])),
            target: targets[k],
            note: "\(grouped(items)) items, \(grouped(dispatches)) dispatches per repetition, "
              + "default RecordingOptions (a checkpoint every "
              + "\(LogFormat.defaultCheckpointInterval) actions)"))
      }
    }
    return rows
  }
}

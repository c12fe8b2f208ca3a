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

  /// The rotating variant, as an app with a large state and rotation might run: a checkpoint
  /// every 250 actions and a new file every 16 MiB, so that a file rotates every three or four
  /// states of 5 MiB; 2,500 dispatches a repetition, 1 ms apart (the thread asleep between them,
  /// as a UI thread waits for its next event) — about 20 MB of log a second. Its items are in
  /// chunks, as docs/recording.md advises for large states, so that the copy-on-write after each
  /// state handed over (about 0.5 ms for the flat 5 MiB state, rows 9d) does not hide what a
  /// rotation costs.
  static let rotating = (
    options: RecordingOptions(
      checkpointInterval: 250, rotation: Rotation(maxBytes: 16 << 20, keepFiles: 2)),
    dispatches: 2_500, pause: UInt64(1_000_000)
  )

  /// The latencies of `dispatches` dispatches, in seconds, with or without a recorder (with
  /// `options`, by default the default ones), `pause` nanoseconds apart (asleep: a thread that
  /// spins instead loses its core to the background for a scheduler tick now and then, which
  /// measures the scheduler, not the recorder; docs/performance.md, section 9).
  func latencies(
    items: Int, chunkSize: Int?, recording: Bool, options: RecordingOptions = RecordingOptions(),
    dispatches: Int, pause: UInt64 = 0
  ) throws -> [Double] {
    let store = Store(
      initialState: Self.state(items: items, chunkSize: chunkSize), reducer: Self.reducer)
    let path = "\(directory)/latency-\(items)-\(UUID().uuidString).jsonl"
    let recorder =
      recording
      ? try store.startRecording(to: path, app: "big", options: options) : nil
    defer {
      recorder?.close()
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: LogWriter.rotatedPath(path, index: 1))
    }
    var generator = SplitMix(seed: 9)
    var values: [Double] = []
    values.reserveCapacity(dispatches)
    for _ in 0..<dispatches {
      let action = BigAction.touch(index: generator.next(items))
      let start = Platform.monotonicNanoseconds()
      store.dispatch(action)
      values.append(Double(Platform.monotonicNanoseconds() - start) / 1e9)
      // Paced like an app's events, when asked: the thread sleeps between them, as a UI
      // thread waits for the next event, and the background has time to write states.
      if pause > 0 { Thread.sleep(forTimeInterval: Double(pause) / 1e9) }
    }
    return values
  }

  static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    let index = min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)
    return sorted[max(0, index)]
  }

  func run() throws -> [Row] {
    var rows: [Row] = []
    // Each size flat; the largest in chunks; the middle one (5 MiB) in chunks and rotating.
    var variants = sizes.map { (items: $0, chunkSize: Int?.none, rotates: false) }
    if let largest = sizes.last { variants.append((largest, Self.chunkSize, false)) }
    if sizes.count > 1 { variants.append((sizes[1], Self.chunkSize, true)) }
    for (items, chunkSize, rotates) in variants {
      let options = rotates ? Self.rotating.options : RecordingOptions()
      let count = rotates ? Self.rotating.dispatches : dispatches
      let bytes = try LogCoder.rewind.encode(Self.state(items: items, chunkSize: chunkSize)).count
      var with: [[Double]] = [[], [], [], []]
      var without: [[Double]] = [[], [], [], []]
      for _ in 0..<repetitions {
        for (recording, into) in [(false, 0), (true, 1)] {
          let sorted = try latencies(
            items: items, chunkSize: chunkSize, recording: recording, options: options,
            dispatches: count, pause: rotates ? Self.rotating.pause : 0
          ).sorted()
          let figures = [0.5, 0.99, 0.999].map { Self.percentile(sorted, $0) } + [sorted.last ?? 0]
          for (k, value) in figures.enumerated() {
            if into == 0 { without[k].append(value) } else { with[k].append(value) }
          }
        }
      }
      let size = FigureUnit.bytes.format(Double(bytes))
      let suffix =
        "-\(Int((Double(bytes) / Double(1 << 20)).rounded()))MiB"
        + (chunkSize == nil ? "" : "-chunked") + (rotates ? "-rotating" : "")
      let names = ["p50", "p99", "p99.9", "max"]
      // The rotating variant's 2,500 dispatches put its p99.9 at the third worst: a state
      // handed over or a rotation. Only its maximum has a target.
      let targets: [Target?] = [
        nil, nil, rotates ? nil : .addedAtMost(0.000_1, .seconds), .addedAtMost(0.001, .seconds),
      ]
      for k in 0..<4 {
        rows.append(
          Row(
            id: "9\(["a", "b", "c", "d"][k])\(suffix)",
            title: "Store.dispatch \(names[k]) with recording vs without (\(size) state"
              + (chunkSize.map { ", its items in arrays of \($0)" } ?? "")
              + (rotates ? ", a new file every 16 MiB" : "") + ")",
            subject: Figure(
              label: "\(names[k]) recording", unit: .seconds, sample: Sample(with[k])),
            baseline: Figure(
              label: "\(names[k]) alone", unit: .seconds, sample: Sample(without[k])),
            target: targets[k],
            note: "\(grouped(items)) items, \(grouped(count)) dispatches per repetition, "
              + (rotates
                ? "a checkpoint every 250 actions and a new file every 16 MiB, dispatches "
                  + "1 ms apart"
                : "default RecordingOptions (a checkpoint every "
                  + "\(LogFormat.defaultCheckpointInterval) actions)")))
      }
    }
    return rows
  }
}

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

  /// What one timed run gave.
  struct Run {
    /// The latency of each timed dispatch, in seconds.
    var latencies: [Double]
    /// The latencies of the dispatches that copied a state held (``latencies(items:chunkSize:recording:options:dispatches:pause:holdsCopies:)``).
    var copies: [Double] = []
    /// What the log holds (recording runs).
    var checkpoints: CheckpointCount?
  }

  /// The checkpoints of a log: written (`checkpoint` and `state` records), skipped
  /// (`state-skipped`), and the most actions between two written ones (the header's state
  /// counting as one at its first seq, the last action as one at the end).
  struct CheckpointCount {
    var written = 0
    var skipped = 0
    var longestGap = 0

    init(log: [UInt8]) {
      var last = 0
      var lastAction = 0
      var start = 0
      while start < log.count {
        let end = log[start...].firstIndex(of: UInt8(ascii: "\n")) ?? log.count
        // The line's head: its `kind`, `seq` and a state part's `part` are in the first 128
        // bytes, and searching the whole of a state's line (megabytes, through NSString) took
        // most of this section's time.
        let line = String(decoding: log[start..<min(end, start + 128)], as: UTF8.self)
        start = end + 1
        let seq = Self.integer(after: "\"seq\":", in: line)
        if line.contains("\"kind\":\"action\"") {
          lastAction = seq ?? lastAction
        } else if line.contains("\"kind\":\"state-skipped\"") {
          skipped += 1
        } else if line.contains("\"kind\":\"checkpoint\"")
          || (line.contains("\"kind\":\"state\"")
            && (Self.integer(after: "\"part\":", in: line) ?? 0) == 0)
        {
          written += 1
          if let seq {
            longestGap = max(longestGap, seq - last)
            last = seq
          }
        }
      }
      longestGap = max(longestGap, lastAction - last)
    }

    static func integer(after key: String, in line: String) -> Int? {
      guard let range = line.range(of: key) else { return nil }
      return Int(line[range.upperBound...].prefix { $0.isNumber })
    }
  }

  /// Dispatches before the timed ones, untimed: the first checkpoints (and the first copies of
  /// the state) happen there, as in an app that has run for a while.
  static let warmUp = 2 * LogFormat.defaultCheckpointInterval

  /// The latencies of `dispatches` dispatches, in seconds, with or without a recorder (with
  /// `options`, by default the default ones), `pause` nanoseconds apart (asleep: a thread that
  /// spins instead loses its core to the background for a scheduler tick now and then, which
  /// measures the scheduler, not the recorder; docs/performance.md, section 9).
  func latencies(
    items: Int, chunkSize: Int?, recording: Bool, options: RecordingOptions = RecordingOptions(),
    dispatches: Int, pause: UInt64 = 0
  ) throws -> [Double] {
    try measure(
      items: items, chunkSize: chunkSize, recording: recording, options: options,
      dispatches: dispatches, pause: pause
    ).latencies
  }

  /// A timed run, after ``warmUp`` untimed dispatches. With `holdsCopies` (and no recorder),
  /// the benchmark holds the state after every dispatch a checkpoint would follow, and lets it
  /// go after the next one, which therefore copies the state: one copy of the state, the floor of
  /// a state handed to another thread, timed as the app's thread pays it.
  func measure(
    items: Int, chunkSize: Int?, recording: Bool, options: RecordingOptions = RecordingOptions(),
    dispatches: Int, pause: UInt64 = 0, holdsCopies: Bool = false
  ) throws -> Run {
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
    let interval = max(1, options.checkpointInterval)
    var held: BigState?
    for n in 0..<(pause > 0 ? 0 : Self.warmUp) {
      store.dispatch(.touch(index: generator.next(items)))
      held = nil
      if holdsCopies && (n + 1) % interval == 0 { held = store.state }
    }
    var values: [Double] = []
    var copies: [Double] = []
    values.reserveCapacity(dispatches)
    let trace = ProcessInfo.processInfo.environment["REWIND_DISPATCH_TRACE"] != nil
    var samples: [ThreadSample] = []
    for n in 0..<dispatches {
      let action = BigAction.touch(index: generator.next(items))
      let before = trace ? ThreadSample.now() : nil
      let start = Platform.monotonicNanoseconds()
      store.dispatch(action)
      values.append(Double(Platform.monotonicNanoseconds() - start) / 1e9)
      if let before {
        var after = ThreadSample.now()
        after.subtract(before, index: n, wall: values[n])
        samples.append(after)
      }
      if held != nil {
        copies.append(values[n])
        held = nil
      }
      if holdsCopies && (Self.warmUp + n + 1) % interval == 0 { held = store.state }
      // Paced like an app's events, when asked: the thread sleeps between them, as a UI
      // thread waits for the next event, and the background has time to write states.
      if pause > 0 { Thread.sleep(forTimeInterval: Double(pause) / 1e9) }
    }
    if trace {
      let worst = samples.sorted { $0.wall > $1.wall }.prefix(4)
      let line = worst.map(\.text).joined(separator: " | ")
      FileHandle.standardError.write(
        Data("trace \(items) items recording=\(recording): \(line)\n".utf8))
    }
    var counted: CheckpointCount?
    if let recorder {
      recorder.close()
      if let log = FileManager.default.contents(atPath: path) {
        counted = CheckpointCount(log: Array(log))
      }
    }
    return Run(latencies: values, copies: copies, checkpoints: counted)
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
      let state = Self.state(items: items, chunkSize: chunkSize)
      // One encoding of the state, timed on this thread: what the checkpoint encoder does per
      // state, with a core of its own (9f's floor).
      let encodingStart = Platform.monotonicNanoseconds()
      let bytes = try LogCoder.rewind.encode(state).count
      let encoding = Double(Platform.monotonicNanoseconds() - encodingStart) / 1e9
      var with: [[Double]] = [[], [], [], []]
      var without: [[Double]] = [[], [], [], []]
      var added: [Double] = []
      var copy: [Double] = []
      var skipped: [Double] = []
      var gaps: [Int] = []
      var intervals: [Double] = []
      for _ in 0..<repetitions {
        if !rotates {
          // One copy of the state, the floor: the median of the dispatches that copied it.
          let copies = try measure(
            items: items, chunkSize: chunkSize, recording: false, dispatches: count,
            holdsCopies: true
          ).copies.sorted()
          if !copies.isEmpty { copy.append(Self.percentile(copies, 0.5)) }
        }
        for (recording, into) in [(false, 0), (true, 1)] {
          let run = try measure(
            items: items, chunkSize: chunkSize, recording: recording, options: options,
            dispatches: count, pause: rotates ? Self.rotating.pause : 0)
          let sorted = run.latencies.sorted()
          let figures = [0.5, 0.99, 0.999].map { Self.percentile(sorted, $0) } + [sorted.last ?? 0]
          for (k, value) in figures.enumerated() {
            if into == 0 { without[k].append(value) } else { with[k].append(value) }
          }
          if let checkpoints = run.checkpoints {
            // The dispatches of one checkpoint interval, back to back, with recording.
            let perDispatch = run.latencies.reduce(0, +) / Double(max(1, run.latencies.count))
            intervals.append(perDispatch * Double(LogFormat.defaultCheckpointInterval))
            skipped.append(Double(checkpoints.skipped))
            gaps.append(checkpoints.longestGap)
          }
        }
        added.append(max(0, (with[3].last ?? 0) - (without[3].last ?? 0)))
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
      guard !rotates, !copy.isEmpty, !skipped.isEmpty else { continue }
      let shape =
        "(\(size) state" + (chunkSize.map { ", its items in arrays of \($0)" } ?? "") + ")"
      rows.append(
        Row(
          id: "9e\(suffix)",
          title: "Store.dispatch max added by recording (max recording − max alone) vs one copy "
            + "of the state \(shape)",
          subject: Figure(label: "max added", unit: .seconds, sample: Sample(added)),
          baseline: Figure(label: "one copy", unit: .seconds, sample: Sample(copy)),
          target: .atMostTimesBaselineOr(1.5, floor: 0.001, .seconds),
          note: "one copy: the median of the dispatches that copy the state because the "
            + "benchmark held it, as a checkpoint handed over holds it; "
            + "\(grouped(Self.warmUp)) dispatches of warm-up before the timed ones"))
      let total = Self.warmUp + count
      let due = Double(total / LogFormat.defaultCheckpointInterval)
      // The floor: a state takes `encoding` to encode with a core of its own, an interval's
      // dispatches `interval`; at most one checkpoint is written per encoding, so at least the
      // others of the run's due ones are skipped.
      let interval = intervals.sorted()[intervals.count / 2]
      let written = max(
        1,
        (Double(total) / Double(LogFormat.defaultCheckpointInterval)) * interval
          / max(encoding, interval))
      let floor = max(0, due - written.rounded(.up))
      rows.append(
        Row(
          id: "9f\(suffix)",
          title: "Checkpoints skipped (state-skipped) vs due in \(grouped(total)) back-to-back "
            + "dispatches \(shape)",
          subject: Figure(label: "skipped", unit: .count, sample: Sample(skipped)),
          baseline: Figure(
            label: "due", unit: .count, sample: Sample(Array(repeating: due, count: skipped.count))),
          target: nil,
          note: "at most \(grouped(gaps.max() ?? 0)) actions between two checkpoints written "
            + "(the longest of the repetitions); encoding the state once took "
            + "\(FigureUnit.seconds.format(encoding)) on the benchmark's thread ("
            + "\(FigureUnit.seconds.format(encoding / (Double(bytes) / Double(1 << 20)))) a MiB), "
            + "1,000 dispatches with recording \(FigureUnit.seconds.format(interval)): with a core "
            + "of its own the encoder would still skip about \(Int(floor)) of \(Int(due))"))
    }
    return rows
  }
}

/// What the dispatching thread did during one dispatch (`REWIND_DISPATCH_TRACE=1`): its own CPU
/// time, the part of it in the kernel, minor page faults and context switches, from the kernel's
/// per-thread counters.
struct ThreadSample {
  var wall = 0.0
  var cpu = 0.0
  /// The part of `cpu` the kernel spent for the thread (system calls, faults): the kernel's
  /// split of a thread's time is sampled at its clock ticks (4 ms here), so it tells a long
  /// dispatch's kernel time from its own only roughly.
  var system = 0.0
  var faults = 0
  var involuntary = 0
  var voluntary = 0
  var index = 0

  static func now() -> ThreadSample {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    var sample = ThreadSample(cpu: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    #if os(Linux)
      var usage = rusage()
      getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD, a macro Glibc's module leaves out
      sample.system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
      sample.faults = usage.ru_minflt
      sample.involuntary = usage.ru_nivcsw
      sample.voluntary = usage.ru_nvcsw
    #endif
    return sample
  }

  mutating func subtract(_ other: ThreadSample, index: Int, wall: Double) {
    cpu -= other.cpu
    system -= other.system
    faults -= other.faults
    involuntary -= other.involuntary
    voluntary -= other.voluntary
    self.index = index
    self.wall = wall
  }

  var text: String {
    "#\(index) wall \(FigureUnit.seconds.format(wall)) cpu \(FigureUnit.seconds.format(cpu)) "
      + "(system \(FigureUnit.seconds.format(system))) faults \(faults) ivcsw \(involuntary) vcsw \(voluntary)"
  }
}

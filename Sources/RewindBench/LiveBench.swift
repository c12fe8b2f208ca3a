import Foundation
import Rewind
import RewindServers

/// (15) The live connection (docs/live.md): the worst dispatch of a store recording with a live
/// viewer connected, slow or absent, against the same store without recording (the targets of
/// file recording, section 9); and how many actions a second `replay listen`'s server saves,
/// against the recorder writing the same actions to a buffered file alone.
struct LiveBench {
  /// What the viewer does.
  enum Viewer: String, CaseIterable {
    /// No live viewer: the file alone, for reference (as section 9).
    case none
    /// Reads everything as it comes.
    case connected
    /// Reads 4 KiB every 10 ms: the app's queue overflows and lines are dropped.
    case slow
    /// Nobody listens: every attempt to connect fails.
    case absent
  }

  let directory: String
  let items: Int
  let dispatches: Int
  let throughputActions: Int
  let repetitions: Int

  func run() throws -> [Row] {
    var rows: [Row] = []
    let latency = DispatchLatencyBench(
      directory: directory, sizes: [items], dispatches: dispatches, repetitions: repetitions)
    let bytes = try LogCoder.rewind.encode(DispatchLatencyBench.state(items: items)).count
    let size = FigureUnit.bytes.format(Double(bytes))
    for viewer in Viewer.allCases {
      var with: [[Double]] = [[], []]
      var without: [[Double]] = [[], []]
      // The states each recording wrote: each costs the app's thread a copy of the state (the
      // next change after one is handed over), and p99.9 of 10,000 dispatches is the 11th worst.
      var states: [Int] = []
      for _ in 0..<repetitions {
        let alone = try latency.latencies(
          items: items, chunkSize: nil, recording: false, dispatches: dispatches
        ).sorted()
        let socket = "\(directory)/live-\(UInt32.random(in: 0...UInt32.max)).sock"
        let server =
          viewer == .absent || viewer == .none
          ? nil : try RawViewer(socket: socket, slow: viewer == .slow)
        defer { server?.stop() }
        var options = RecordingOptions()
        if viewer != .none {
          options.liveViewer = .unixSocket(socket, token: "")
          options.liveViewer?.queueCapacity = 1 << 20
        }
        let run = try latency.measure(
          items: items, chunkSize: nil, recording: true, options: options,
          dispatches: dispatches)
        let recorded = run.latencies.sorted()
        if let written = run.checkpoints?.written { states.append(written) }
        for (k, fraction) in [0.999, 1.0].enumerated() {
          without[k].append(DispatchLatencyBench.percentile(alone, fraction))
          with[k].append(DispatchLatencyBench.percentile(recorded, fraction))
        }
      }
      for (k, name) in ["p99.9", "max"].enumerated() {
        rows.append(
          Row(
            id: "15\(["a", "b"][k])-\(viewer.rawValue)",
            title: "Store.dispatch \(name) recording "
              + (viewer == .none ? "to the file alone" : "with a live viewer \(viewer.rawValue)")
              + " vs without recording (\(size) state)",
            subject: Figure(
              label: "\(name) live \(viewer.rawValue)", unit: .seconds, sample: Sample(with[k])),
            baseline: Figure(label: "\(name) alone", unit: .seconds, sample: Sample(without[k])),
            target: k == 0 ? .addedAtMost(0.000_1, .seconds) : .addedAtMost(0.001, .seconds),
            note: "\(grouped(items)) items, \(grouped(dispatches)) dispatches per repetition, "
              + "default RecordingOptions plus a live viewer over a Unix socket (1 MiB queue)"
              + (viewer == .slow ? "; the viewer reads 4 KiB every 10 ms" : "")
              + "; states written per recording (warm-up included): "
              + (states.map(String.init).joined(separator: ", "))))
      }
    }
    rows.append(try throughput())
    return rows
  }

  /// Actions a second through `replay listen`'s server into its saved file, against the same
  /// actions recorded to a buffered file alone.
  private func throughput() throws -> Row {
    var listened: [Double] = []
    var buffered: [Double] = []
    for repetition in 0..<repetitions {
      let alone = "\(directory)/throughput-\(repetition).jsonl"
      defer { try? FileManager.default.removeItem(atPath: alone) }
      let start = Platform.monotonicNanoseconds()
      try record(to: alone, options: RecordingOptions(durability: .buffered(capacity: 1 << 20)))
      buffered.append(Double(throughputActions) / seconds(since: start))

      let socket = "\(directory)/listen-\(repetition).sock"
      let saved = "\(directory)/listened-\(repetition).jsonl"
      let file = "\(directory)/recorded-\(repetition).jsonl"
      defer {
        for path in [saved, file] { try? FileManager.default.removeItem(atPath: path) }
      }
      let ended = Locked(false)
      let listener = try LiveListener(
        LiveListener.Configuration(
          address: .unix(path: socket), token: "", save: saved, folder: directory)
      ) { event in
        if case .disconnected = event { ended.withLock { $0 = true } }
      }
      listener.start()
      defer { listener.stop() }
      var options = RecordingOptions(durability: .buffered(capacity: 1 << 20))
      options.liveViewer = .unixSocket(socket, token: "")
      options.liveViewer?.queueCapacity = 64 << 20
      let began = Platform.monotonicNanoseconds()
      try record(to: file, options: options)
      while !ended.withLock({ $0 }) { usleep(200) }
      listened.append(Double(throughputActions) / seconds(since: began))
    }
    return Row(
      id: "15c-listener-throughput",
      title:
        "Actions a second saved by replay listen's server vs recorded to a buffered file alone",
      subject: Figure(label: "listened", unit: .actionsPerSecond, sample: Sample(listened)),
      baseline: Figure(label: "buffered file", unit: .actionsPerSecond, sample: Sample(buffered)),
      target: nil,
      note: "\(grouped(throughputActions)) counter actions dispatched back to back; the listener "
        + "checks each line (JSON, checksum, seq order) and writes it; timed until its connection "
        + "ended")
  }

  private func record(to path: String, options: RecordingOptions) throws {
    let store = Store(initialState: BenchCounter(), reducer: BenchCounter.reducer)
    let recorder = try store.startRecording(to: path, app: "counter", options: options)
    for n in 0..<throughputActions { store.dispatch(n % 7 == 0 ? .add(n) : .increment) }
    recorder.close()
  }

  private func seconds(since start: UInt64) -> Double {
    Double(Platform.monotonicNanoseconds() - start) / 1e9
  }
}

/// A counter, for the throughput row.
struct BenchCounter: Codable, Equatable, Sendable {
  var count = 0

  enum Action: Codable, Equatable, Sendable {
    case increment
    case add(Int)
  }

  static let reducer = Reducer<BenchCounter, Action> { state, action in
    switch action {
    case .increment: state.count += 1
    case .add(let n): state.count += n
    }
  }
}

/// A viewer of the benchmark's own on a Unix socket: accepts each connection, answers the
/// greeting, and reads everything — at once, or 4 KiB every 10 ms.
final class RawViewer: @unchecked Sendable {
  private let fd: Int32
  private let socket: String
  private let stopped = Locked(false)

  init(socket: String, slow: Bool) throws {
    switch Platform.listenStream(on: .unix(path: socket)) {
    case .success(let bound): fd = bound.fd
    case .failure(let failure): throw BenchError(failure.description)
    }
    self.socket = socket
    let thread = Thread { [self] in self.serve(slow: slow) }
    thread.start()
  }

  func stop() {
    stopped.withLock { $0 = true }
    Platform.shutdownSocket(fd)
    Platform.close(fd)
    Platform.removeFile(socket)
  }

  private func serve(slow: Bool) {
    while !stopped.withLock({ $0 }) {
      let client = Platform.acceptConnection(fd)
      guard client >= 0 else { return }
      let thread = Thread {
        var buffer = [UInt8](repeating: 0, count: slow ? 4096 : 1 << 16)
        var greeted = false
        while true {
          let n = buffer.withUnsafeMutableBytes { Platform.readSome(client, into: $0) }
          if n <= 0 { break }
          if !greeted, buffer[0..<n].contains(UInt8(ascii: "\n")) {
            greeted = true
            _ = LiveProtocol.accepted.withUnsafeBytes { Platform.sendAll(client, $0) }
          }
          if slow { usleep(10_000) }
        }
        Platform.close(client)
      }
      thread.start()
    }
  }
}

import Dispatch
import Foundation
import Rewind
import Testing

/// When a checkpoint falls due while the previous one is still being encoded, it is skipped
/// (marked `state-skipped`, reason `busy`) — and a later one is always written: the first state
/// after the writer is idle again, not the next one the interval names. The writer is kept busy
/// by a state whose encoding waits at a gate the test holds, so nothing here depends on timing.
@Suite struct CheckpointDistanceTests {
  /// Opened and closed by a test; a state's encoding waits while it is closed.
  final class Gate: Sendable {
    private let isClosed = Locked(false)
    private let opened = DispatchSemaphore(value: 0)
    /// Signalled when an encoding reaches the closed gate.
    let reached = DispatchSemaphore(value: 0)

    func close() { isClosed.withLock { $0 = true } }

    func open() {
      isClosed.withLock { $0 = false }
      opened.signal()
    }

    func pass() {
      guard isClosed.withLock({ $0 }) else { return }
      reached.signal()
      opened.wait()
    }

    /// The gate of each test, by the number its states carry.
    static let all = Locked<[Int: Gate]>([:])
  }

  /// A state of over 16 KiB of JSON (checkpointed in the background), whose encoding passes its
  /// test's gate.
  struct GatedState: Codable, Sendable, Equatable {
    var gate: Int
    var count = 0
    var padding = String(repeating: "x", count: 20_000)

    init(gate: Int) { self.gate = gate }

    func encode(to encoder: any Encoder) throws {
      Gate.all.withLock { $0[gate] }?.pass()
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(gate, forKey: .gate)
      try container.encode(count, forKey: .count)
      try container.encode(padding, forKey: .padding)
    }
  }

  enum Step: Codable, Sendable, Equatable {
    case step
  }

  /// `kind seq` of each record that is not an action or the header, in the file's order.
  static func stateRecords(_ path: String) throws -> [String] {
    try RecordedLog(path: path).lineTexts.compactMap { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let kind = object["kind"] as? String, let seq = object["seq"] as? Int,
        kind != "action", kind != "header"
      else { return nil }
      return "\(kind) \(seq)"
    }
  }

  /// Waits (polling, up to a minute) until `condition` holds; whether it did.
  static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
    for _ in 0..<6_000 {
      if try condition() { return true }
      usleep(10_000)
    }
    return false
  }

  @Test func aCheckpointSkippedWhileTheWriterIsBusyIsWrittenOnceItIsIdle() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("distance.jsonl")
    let id = Int.random(in: 1...Int.max)
    let gate = Gate()
    Gate.all.withLock { $0[id] = gate }
    defer {
      gate.open()
      Gate.all.withLock { $0[id] = nil }
    }
    let store = Store(
      initialState: GatedState(gate: id),
      reducer: Reducer<GatedState, Step> { state, _ in state.count += 1 })
    let recorder = try store.startRecording(
      to: path, app: "gated",
      options: RecordingOptions(checkpointInterval: 10, determinismCheck: .off))

    // The checkpoint of action 10 is handed over and waits at the gate: the writer is busy.
    gate.close()
    for _ in 1...10 { store.dispatch(.step) }
    #expect(gate.reached.wait(timeout: .now() + 60) == .success)
    // 20 and 30 fall due while it is busy: skipped, and marked so (and 11–35 get no mark).
    for _ in 11...35 { store.dispatch(.step) }
    #expect(try Self.stateRecords(path) == ["state-skipped 20", "state-skipped 30"])

    // Once the writer is idle, the next state is checkpointed: action 36's, not 40's.
    gate.open()
    #expect(Self.eventually { recorder.isCheckpointWriterIdle })
    store.dispatch(.step)
    let written = try Self.eventually {
      try Self.stateRecords(path).count == 4 && recorder.isCheckpointWriterIdle
    }
    #expect(written)
    #expect(
      try Self.stateRecords(path) == [
        "state-skipped 20", "state-skipped 30", "state 10", "state 36",
      ])
    recorder.close()
    // The final checkpoint closes the file after action 36.
    #expect(try Self.stateRecords(path).suffix(2) == ["state 36", "end 36"])
  }

  @Test func aBackToBackRunAlwaysGetsALaterCheckpoint() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("back-to-back.jsonl")
    let id = Int.random(in: 1...Int.max)
    let gate = Gate()
    Gate.all.withLock { $0[id] = gate }
    defer {
      gate.open()
      Gate.all.withLock { $0[id] = nil }
    }
    let store = Store(
      initialState: GatedState(gate: id),
      reducer: Reducer<GatedState, Step> { state, _ in state.count += 1 })
    let recorder = try store.startRecording(
      to: path, app: "gated",
      options: RecordingOptions(checkpointInterval: 10, determinismCheck: .off))
    // Three rounds: each holds the writer at the gate while 25 actions are dispatched back to
    // back, then lets it go. Every round's skips are followed by a checkpoint written.
    for round in 0..<3 {
      gate.close()
      let before = try Self.stateRecords(path).filter { $0.hasPrefix("state ") }.count
      // Dispatch until a checkpoint is handed over; it then waits at the gate.
      var dispatched = 0
      while recorder.isCheckpointWriterIdle && dispatched < 20 {
        store.dispatch(.step)
        dispatched += 1
      }
      try #require(!recorder.isCheckpointWriterIdle, "round \(round): nothing was handed over")
      #expect(gate.reached.wait(timeout: .now() + 60) == .success)
      for _ in 0..<25 { store.dispatch(.step) }
      gate.open()
      #expect(Self.eventually { recorder.isCheckpointWriterIdle })
      store.dispatch(.step)
      let written = try Self.eventually {
        try Self.stateRecords(path).filter { $0.hasPrefix("state ") }.count == before + 2
          && recorder.isCheckpointWriterIdle
      }
      let records = try Self.stateRecords(path)
      #expect(written, "round \(round): \(records)")
    }
    recorder.close()
    // Between two checkpoints written: at most the interval plus the 25 actions of a round.
    var last = 0
    let records = try Self.stateRecords(path)
    for record in records where record.hasPrefix("state ") {
      let seq = Int(record.dropFirst("state ".count)) ?? 0
      #expect(seq - last <= 10 + 25 + 1, "\(records)")
      last = max(last, seq)
    }
  }
}

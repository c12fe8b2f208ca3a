import Dispatch
import Foundation
import Rewind
import RewindExamples
import Testing

/// Eight threads dispatch while the recorder rotates its file every few KiB, writes checkpoints in
/// the background, and the app closes it and starts a new one mid-stream: afterwards every
/// recorded action is in exactly one file of one session, once, and each session holds a
/// contiguous run of the actions in the order the reducer saw them, with its checkpoints' states
/// right.
///
/// Short in the suite; `REWIND_SOAK_ROUNDS` and `REWIND_SOAK_DISPATCHES` (per thread) make it
/// long: `REWIND_SOAK_ROUNDS=40 REWIND_SOAK_DISPATCHES=50000 swift test --filter RecorderSoak`.
@Suite(.serialized) struct RecorderSoakTests {
  static let environment = ProcessInfo.processInfo.environment
  /// Recording sessions, one after the other while the threads dispatch.
  static let rounds = environment["REWIND_SOAK_ROUNDS"].flatMap(Int.init) ?? 4
  /// Dispatches per thread.
  static let perThread = environment["REWIND_SOAK_DISPATCHES"].flatMap(Int.init) ?? 2_500
  static let threads = 8

  /// The action lines and checkpoints of one session: its rotated files, oldest first.
  static func session(_ path: String) throws -> (
    amounts: [Int], seqs: [Int], checkpoints: [(seq: Int, count: Int)]
  ) {
    let directory = (path as NSString).deletingLastPathComponent
    let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    var rotated: [(number: Int, path: String)] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
      let parts = name.split(separator: ".")
      if parts.count == 3, parts[0] == stem, parts[2] == "jsonl", let number = Int(parts[1]) {
        rotated.append((number, directory + "/" + name))
      }
    }
    var files = rotated.sorted { $0.number > $1.number }.map(\.path)
    files.append(path)
    var amounts: [Int] = []
    var seqs: [Int] = []
    var checkpoints: [(seq: Int, count: Int)] = []
    for file in files {
      let log = try RecordedLog(path: file)
      #expect(log.partialTail.isEmpty, "\(file) ends mid-line")
      #expect(log.checksumProblems(usingReference: false) == [], "\(file)")
      for record in try log.records(CounterAction.self, CounterState.self) {
        switch record.kind {
        case "action":
          guard case .add(let amount)? = record.action, let seq = record.seq else {
            Issue.record("\(file): an action that is not an add: \(record.shape)")
            continue
          }
          amounts.append(amount)
          seqs.append(seq)
        case "checkpoint":
          if let seq = record.seq, let count = record.state?.count {
            checkpoints.append((seq, count))
          }
        default: break
        }
      }
    }
    return (amounts, seqs, checkpoints)
  }

  @Test func everyActionIsInExactlyOneSegmentInTheReducersOrder() throws {
    let directory = try TemporaryDirectory()
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    // Every action adds a different amount, so the change of the count names the action.
    let reducerOrder = ReducerOrder(of: store)
    let seen = reducerOrder.amounts
    let options = RecordingOptions(
      checkpointInterval: 25, rotation: Rotation(maxBytes: 8_192, keepFiles: 1_000_000))
    let paths = (0..<Self.rounds).map { directory.file("soak-\($0).jsonl") }
    let current = Locked<Recorder<CounterState, CounterAction>?>(nil)
    current.withLock {
      $0 = try? store.startRecording(to: paths[0], app: "counter", options: options)
    }
    let total = Self.threads * Self.perThread
    // The last round whose recorder has started.
    let opened = Locked(0)
    // The app closes the recorder and starts the next one as the dispatches pass each share.
    let reopener = Thread {
      for round in 1..<Self.rounds {
        while seen.count < total * round / Self.rounds { usleep(200) }
        current.withLock { recorder in
          recorder?.close()
          recorder = try? store.startRecording(to: paths[round], app: "counter", options: options)
        }
        opened.withLock { $0 = round }
      }
    }
    reopener.start()
    // Threads of their own, not `concurrentPerform`: its iterations share as many threads as
    // there are cores, and one waiting for the next recorder would keep the rest from starting.
    let finished = DispatchGroup()
    for thread in 0..<Self.threads {
      finished.enter()
      Thread {
        defer { finished.leave() }
        for index in 0..<Self.perThread {
          // A thread goes on dispatching into the next round's share while the recorder is
          // closed and started again, but waits for the new one after the first quarter of the
          // share: however the threads are scheduled, most of every round is recorded (and its
          // file rotates), which the checks below count on.
          let round = index * Self.rounds / Self.perThread
          let roundStart = (round * Self.perThread + Self.rounds - 1) / Self.rounds
          if index >= roundStart + Self.perThread / (4 * Self.rounds) {
            while opened.withLock({ $0 }) < round { usleep(100) }
          }
          store.dispatch(.add(thread * Self.perThread + index + 1))
        }
      }.start()
    }
    finished.wait()
    while seen.count < total { usleep(200) }
    // The reopener may still be starting the last session: wait until it has.
    while !reopener.isFinished { usleep(200) }
    current.withLock { $0?.close() }
    reducerOrder.cancel()

    let order = seen.elements
    #expect(order.count == total && Set(order).count == total)
    var place: [Int: Int] = [:]
    for (index, amount) in order.enumerated() { place[amount] = index }
    var running = [0]
    for amount in order { running.append(running[running.count - 1] + amount) }

    var recorded: Set<Int> = []
    var lastEnd = -1
    var rotatedFiles = 0
    for path in paths {
      let session = try Self.session(path)
      rotatedFiles +=
        (try FileManager.default.contentsOfDirectory(atPath: directory.path))
        .filter {
          $0.hasPrefix(
            ((path as NSString).lastPathComponent as NSString).deletingPathExtension + ".")
        }
        .count
      guard let first = session.amounts.first, let start = place[first] else { continue }
      // A contiguous run of what the reducer saw, after the previous session's.
      #expect(start > lastEnd, "\(path) starts before the previous session ended")
      let expected = Array(order[start..<min(order.count, start + session.amounts.count)])
      #expect(session.amounts == expected, "\(path) is not a contiguous run of the reducer's order")
      #expect(session.seqs == Array(1...session.seqs.count), "\(path): seqs do not continue")
      for amount in session.amounts {
        #expect(recorded.insert(amount).inserted, "action add(\(amount)) recorded twice")
      }
      // Each checkpoint holds the state after its action, counted from the start of the session's
      // store (the store was not reset between sessions).
      for checkpoint in session.checkpoints where checkpoint.seq >= 1 {
        let index = start + checkpoint.seq - 1
        let near = (max(0, index - 50)...min(order.count - 1, index + 50)).filter {
          running[$0 + 1] == checkpoint.count
        }.map { $0 - index }
        #expect(
          checkpoint.count == running[index + 1],
          "\(path): checkpoint at \(checkpoint.seq) of \(session.seqs.count) holds the state \(near) actions away"
        )
      }
      lastEnd = start + session.amounts.count - 1
    }
    #expect(rotatedFiles > Self.rounds, "the recorder never rotated")
    #expect(
      recorded.count >= total - total / 4, "most actions were dispatched while a recorder was open")
  }
}

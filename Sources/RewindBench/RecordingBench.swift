import CodegenSamples
import Foundation
import Rewind
import RewindExamples

/// (1) Recording: the recorder's cost per action against a bare `write(2)` of the same line, its
/// buffered throughput, the same through `Store.dispatch`, and the recorder with Foundation's
/// `JSONEncoder` (`LogCoder.foundation`) in place of Rewind's coder.
///
/// "Recorder alone" is the loop an app with its own store runs (docs/recording.md):
/// `willReduce(action)`, the reducer, `didReduce(state)`. The target (1a) is judged on what the
/// recorder adds to that loop — the loop less the same loop without the recorder — since the
/// reducer is the app's cost; 1i shows the whole loop against the same `write(2)`. The `Store`
/// rows show what `Store.dispatch` adds around it.
struct RecordingBench {
  let directory: String
  let actionCount: Int
  let bufferedActionCount: Int
  let repetitions: Int

  func run() throws -> [Row] {
    let (initial, actions) = BenchLogs.actions(count: actionCount, stateSize: .small, seed: 3)
    let (_, bufferedActions) = BenchLogs.actions(
      count: bufferedActionCount, stateSize: .small, seed: 3)
    let recordedPath = "\(directory)/recording.jsonl"
    let writePath = "\(directory)/bare-write.jsonl"
    var actionLines: (bytes: [UInt8], ends: [Int]) = ([], [])

    func perAction(_ seconds: Double, _ count: Int) -> Double { seconds * 1e9 / Double(count) }
    func recorder(
      _ path: String, _ durability: Durability, coder: LogCoder = .rewind
    ) throws -> Recorder<TodoState, TodoAction> {
      try Recorder(
        path: path, app: "todo", initialState: initial,
        options: RecordingOptions(durability: durability, ifExists: .replace, coder: coder))
    }
    func finish(_ recorder: Recorder<TodoState, TodoAction>) throws {
      recorder.close()
      if case .stopped(let error) = recorder.status { throw error }
    }
    /// The app's own dispatch loop, with or without a recorder.
    func appLoop(_ actions: [TodoAction], _ recorder: Recorder<TodoState, TodoAction>?) -> Double {
      var state = initial
      return Stopwatch.seconds {
        if let recorder {
          for action in actions {
            recorder.willReduce(action)
            todoReducer.reduce(&state, action)
            recorder.didReduce(state)
          }
        } else {
          for action in actions { todoReducer.reduce(&state, action) }
        }
      }
    }

    let recorderAlone = { () throws -> Double in
      let recorder = try recorder(recordedPath, .processCrash)
      let seconds = appLoop(actions, recorder)
      try finish(recorder)
      if actionLines.ends.isEmpty { actionLines = try Self.actionLines(of: recordedPath) }
      return perAction(seconds, actions.count)
    }
    /// The recorder and the app's loop for actions of another type, the same todo reducer.
    func recordingLoop<Action: Codable & Sendable>(
      _ actions: [Action], _ reducer: Reducer<TodoState, Action>, _ suffix: String
    ) throws -> Double {
      let recorder = try Recorder<TodoState, Action>(
        path: recordedPath + suffix, app: "todo", initialState: initial,
        options: RecordingOptions(ifExists: .replace))
      var state = initial
      let seconds = Stopwatch.seconds {
        for action in actions {
          recorder.willReduce(action)
          reducer.reduce(&state, action)
          recorder.didReduce(state)
        }
      }
      recorder.close()
      if case .stopped(let error) = recorder.status { throw error }
      return perAction(seconds, actions.count)
    }
    let codableActions = actions.map(CodableOnly.init)
    let recorderThroughCodable = { () throws -> Double in
      try recordingLoop(codableActions, codableOnlyTodoReducer, ".codable")
    }
    let generatedActions = actions.map(SampleTodoAction.init)
    let recorderGenerated = { () throws -> Double in
      try recordingLoop(generatedActions, generatedTodoReducer, ".generated")
    }
    let recorderWithFoundation = { () throws -> Double in
      let recorder = try recorder(recordedPath + ".foundation", .processCrash, coder: .foundation)
      let seconds = appLoop(actions, recorder)
      try finish(recorder)
      return perAction(seconds, actions.count)
    }
    let bareWrite = { () throws -> Double in
      let fd = BenchPlatform.openForAppend(writePath)
      guard fd >= 0 else { throw BenchError("cannot create \(writePath)") }
      defer { BenchPlatform.close(fd) }
      let seconds = actionLines.bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0.0 }
        return Stopwatch.seconds {
          var start = 0
          for end in actionLines.ends {
            _ = BenchPlatform.write(fd, base + start, end - start)
            start = end
          }
        }
      }
      return perAction(seconds, actionLines.ends.count)
    }
    let writeThenReduce = { () throws -> Double in
      let fd = BenchPlatform.openForAppend(writePath)
      guard fd >= 0 else { throw BenchError("cannot create \(writePath)") }
      defer { BenchPlatform.close(fd) }
      var state = initial
      let seconds = actionLines.bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return 0.0 }
        return Stopwatch.seconds {
          var start = 0
          for (end, action) in zip(actionLines.ends, actions) {
            _ = BenchPlatform.write(fd, base + start, end - start)
            start = end
            todoReducer.reduce(&state, action)
          }
        }
      }
      return perAction(seconds, actionLines.ends.count)
    }
    /// The checksum of every action line's body, five times over, one way or the other.
    func checksums(_ update: (UInt32, UnsafeRawBufferPointer) -> UInt32) -> Double {
      actionLines.bytes.withUnsafeBytes { buffer in
        var sink: UInt32 = 0
        let seconds = Stopwatch.seconds {
          for _ in 0..<5 {
            var start = 0
            for end in actionLines.ends {
              let body = UnsafeRawBufferPointer(
                rebasing: buffer[(start + LogLine.bodyOffset)..<(end - 2)])
              sink ^= update(0, body)
              start = end
            }
          }
        }
        blackHole(sink)
        return perAction(seconds, actionLines.ends.count * 5)
      }
    }
    let checksumByInstruction = { () -> Double in
      guard let hardware = CRC32C.Hardware.available else { return .nan }
      return checksums(hardware.update)
    }
    let checksumBySlicing = { () -> Double in checksums(CRC32C.updateBySlicing) }
    let reducerAlone = { () -> Double in
      Double(bufferedActions.count) / appLoop(bufferedActions, nil)
    }
    /// The same loop as `recorderAlone` without the recorder: what the app costs by itself.
    let appAlone = { () -> Double in perAction(appLoop(actions, nil), actions.count) }
    let bufferedAlone = { () throws -> Double in
      let recorder = try recorder(recordedPath + ".buffered", .buffered(capacity: 1 << 20))
      let seconds = appLoop(bufferedActions, recorder) + Stopwatch.seconds { recorder.flush() }
      try finish(recorder)
      return Double(bufferedActions.count) / seconds
    }
    let storeAlone = { () -> Double in
      let store = Store(initialState: initial, reducer: todoReducer)
      return perAction(
        Stopwatch.seconds { for action in actions { store.dispatch(action) } }, actions.count)
    }
    let storeRecording = { () throws -> Double in
      let store = Store(initialState: initial, reducer: todoReducer)
      let recorder = try store.startRecording(
        to: recordedPath + ".store", app: "todo", options: RecordingOptions(ifExists: .replace))
      let seconds = Stopwatch.seconds { for action in actions { store.dispatch(action) } }
      try finish(recorder)
      return perAction(seconds, actions.count)
    }
    /// An app's own store recording through `recorder.reduce(&state, action, with:)`, with the
    /// reducer checked as it records (`determinismCheck`) or not.
    func wrapperLoop(_ check: DeterminismCheck, _ suffix: String) throws -> Double {
      let recorder = try Recorder<TodoState, TodoAction>(
        path: recordedPath + suffix, app: "todo", initialState: initial,
        options: RecordingOptions(ifExists: .replace, determinismCheck: check))
      var state = initial
      let seconds = Stopwatch.seconds {
        for action in actions { recorder.reduce(&state, action, with: todoReducer.reduce) }
      }
      try finish(recorder)
      return perAction(seconds, actions.count)
    }
    let wrapperChecked = { () throws -> Double in try wrapperLoop(.sampled(every: 16), ".checked") }
    let wrapperUnchecked = { () throws -> Double in try wrapperLoop(.off, ".unchecked") }
    // A warm-up round, so that no repetition pays for first page faults.
    _ = try recorderAlone()
    let samples = try interleaved(
      repetitions,
      [
        recorderAlone, bareWrite, reducerAlone, bufferedAlone, storeAlone, storeRecording,
        recorderWithFoundation, recorderThroughCodable, writeThenReduce, checksumByInstruction,
        checksumBySlicing, appAlone, recorderGenerated, wrapperChecked, wrapperUnchecked,
      ])
    let (alone, write, reducer, buffered, store, storeWithRecorder) = (
      samples[0], samples[1], samples[2], samples[3], samples[4], samples[5]
    )
    let withFoundation = samples[6]
    let throughCodable = samples[7]
    let floor = samples[8]
    let (byInstruction, bySlicing) = (samples[9], samples[10])
    let app = samples[11]
    let generated = samples[12]
    let (checked, unchecked) = (samples[13], samples[14])
    // What recording adds to each action, repetition by repetition: the app's loop with the
    // recorder, less the same loop without it. The reducer is the app's cost, not recording's.
    let recording = Sample(zip(alone.values, app.values).map { $0 - $1 })
    let note = "\(grouped(actions.count)) todo actions, small state, a checkpoint every 1,000"
    let added = Sample(zip(storeWithRecorder.values, store.values).map { $0 - $1 })
    return [
      Row(
        id: "1a",
        title:
          "recording, default durability: what the recorder adds per action vs a bare write(2) of the same line",
        subject: Figure(
          label: "(willReduce + reduce + didReduce) − reduce", unit: .nanosecondsPerAction,
          sample: recording),
        baseline: Figure(label: "write(2) of the line", unit: .nanosecondsPerAction, sample: write),
        target: .ratioAtMost(1.5), note: note),
      Row(
        id: "1i",
        title:
          "recording, default durability: the app's whole loop with the recorder vs a bare write(2) of the same line",
        subject: Figure(
          label: "willReduce + reduce + didReduce", unit: .nanosecondsPerAction, sample: alone),
        baseline: Figure(label: "write(2) of the line", unit: .nanosecondsPerAction, sample: write),
        note: note + "; the reducer counted as if it were recording's (how 1a was judged before)"),
      Row(
        id: "1g",
        title:
          "recording, default durability: recorder per action vs a bare write(2) of the line and the reducer",
        subject: Figure(
          label: "willReduce + reduce + didReduce", unit: .nanosecondsPerAction, sample: alone),
        baseline: Figure(
          label: "write(2) of the line, then reduce", unit: .nanosecondsPerAction, sample: floor),
        note: note + "; what the recorder adds to the least an app that writes ahead can do"),
      Row(
        id: "1b", title: "recording, buffered (1 MiB): recorder throughput vs the reducer alone",
        subject: Figure(label: "recorder + reduce", unit: .actionsPerSecond, sample: buffered),
        baseline: Figure(label: "reduce alone", unit: .actionsPerSecond, sample: reducer),
        target: .subjectAtLeast(2_000_000),
        note: "\(grouped(bufferedActions.count)) todo actions, small state"),
      Row(
        id: "1h",
        title: "CRC-32C of an action line: the CPU's instruction vs the slicing-by-16 tables",
        subject: Figure(
          label: "CRC32C.Hardware", unit: .nanosecondsPerAction, sample: byInstruction),
        baseline: Figure(
          label: "CRC32C.updateBySlicing", unit: .nanosecondsPerAction, sample: bySlicing),
        note: byInstruction.values.contains(where: \.isNaN)
          ? "this CPU has no CRC-32C instruction: the recorder uses the tables"
          : "the same \(grouped(actionLines.ends.count)) lines, five times over"),
      Row(
        id: "1c",
        title:
          "Store.dispatch with the recorder (default durability) vs the same dispatch without it",
        subject: Figure(
          label: "dispatch + recorder", unit: .nanosecondsPerAction, sample: storeWithRecorder),
        baseline: Figure(label: "dispatch alone", unit: .nanosecondsPerAction, sample: store),
        note: note),
      Row(
        id: "1d",
        title: "what the recorder adds to Store.dispatch vs a bare write(2) of the same line",
        subject: Figure(
          label: "(dispatch + recorder) − dispatch", unit: .nanosecondsPerAction, sample: added),
        baseline: Figure(label: "write(2) of the line", unit: .nanosecondsPerAction, sample: write),
        note: note),
      Row(
        id: "1e",
        title:
          "recording, default durability: Rewind's coder vs Foundation's JSONEncoder in the same recorder",
        subject: Figure(
          label: "recorder, Rewind's coder", unit: .nanosecondsPerAction, sample: alone),
        baseline: Figure(
          label: "recorder, LogCoder.foundation", unit: .nanosecondsPerAction,
          sample: withFoundation),
        note: note),
      Row(
        id: "1f",
        title:
          "recording, default durability: the action's direct path vs the same action through Codable",
        subject: Figure(
          label: "recorder, JSONDirectEncodable", unit: .nanosecondsPerAction, sample: alone),
        baseline: Figure(
          label: "recorder, encode(to:)", unit: .nanosecondsPerAction, sample: throughCodable),
        note: note + "; the same bytes"),
      Row(
        id: "1j",
        title:
          "recording, default durability: a direct path generated from Codable (rewind-codegen) vs the hand-written one",
        subject: Figure(
          label: "recorder, generated", unit: .nanosecondsPerAction, sample: generated),
        baseline: Figure(
          label: "recorder, hand-written", unit: .nanosecondsPerAction, sample: alone),
        target: .ratioAtMost(1.2),
        note: note + "; the same bytes; the generated side maps each action to a TodoAction"),
      Row(
        id: "1k",
        title:
          "recording an app's own store, the reducer checked as it records (every 16th action reduced twice) vs not checked",
        subject: Figure(
          label: "recorder.reduce, determinismCheck .sampled(every: 16)",
          unit: .nanosecondsPerAction, sample: checked),
        baseline: Figure(
          label: "recorder.reduce, determinismCheck .off", unit: .nanosecondsPerAction,
          sample: unchecked),
        target: .ratioAtMost(1.2),
        note: note + "; TodoState is Equatable, so a sample compares with =="),
    ]
  }

  /// The action lines of a log: one buffer and the end offset of each line.
  static func actionLines(of path: String) throws -> (bytes: [UInt8], ends: [Int]) {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var bytes: [UInt8] = []
    var ends: [Int] = []
    let marker = Array(#""kind":"action""#.utf8)
    for line in data.split(separator: UInt8(ascii: "\n")) {
      let content = Array(line)
      guard content.count > 16 + marker.count, Array(content[16..<(16 + marker.count)]) == marker
      else { continue }
      bytes += content
      bytes.append(UInt8(ascii: "\n"))
      ends.append(bytes.count)
    }
    return (bytes, ends)
  }
}

/// A failure of the harness itself.
struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

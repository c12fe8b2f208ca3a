import Foundation
import Rewind
import RewindExamples
import RewindJSON
import Testing

@testable import RewindReplay

/// Foundation's coders as the selectable other path (`LogCoder.foundation`): in the recorder and
/// in the timeline, each against the other and against a store that dispatched the actions.
@Suite struct FoundationCoderTests {
  private func timeline(
    _ log: ReplayLog, coder: LogCoder, prefetching: Bool
  ) -> Timeline<TodoState, TodoAction> {
    let timeline = Timeline(log: log, reducer: todoReducer, usesCheckpoints: false, coder: coder)
    timeline.prefetchThreshold = prefetching ? 2 : Int.max
    timeline.prefetchBatchSize = 16
    return timeline
  }

  @Test(arguments: LogCoder.allCases, LogCoder.allCases)
  func aLogRecordedWithOneCoderReplaysWithEither(recordedWith: LogCoder, replayedWith: LogCoder)
    throws
  {
    let (bytes, actions) = try TodoRecording.record(
      actions: 500, seed: 5, checkpointInterval: 100, coder: recordedWith)
    let log = try ReplayLog(name: "recorded.jsonl", contents: bytes)
    #expect(log.faults.isEmpty)
    let expected = ReferenceReplay.states(
      initial: TodoState(), reducer: todoReducer, actions: actions)
    for prefetching in [false, true] {
      let timeline = timeline(log, coder: replayedWith, prefetching: prefetching)
      #expect(timeline.coder == replayedWith)
      for position in [500, 0, 1, 99, 100, 101, 250, 499] {
        #expect(
          try timeline.state(at: position) == expected[position],
          "position \(position), prefetching \(prefetching)")
      }
    }
    // Checkpoints decode with the chosen coder too.
    let fromCheckpoints = Timeline(log: log, reducer: todoReducer, coder: replayedWith)
    #expect(try fromCheckpoints.state(at: 300) == expected[300])
    #expect(try fromCheckpoints.action(at: 42) == actions[41])
  }

  @Test func foundationsActionLinesHoldWhatItsEncoderWrites() throws {
    let (bytes, actions) = try TodoRecording.record(
      actions: 200, seed: 9, checkpointInterval: 50, coder: .foundation)
    let text = String(decoding: bytes, as: UTF8.self)
    let encoder = LogCoder.makeFoundationEncoder()
    let log = try ReplayLog(name: "recorded.jsonl", contents: bytes)
    for (index, action) in actions.enumerated() {
      let json = String(decoding: try encoder.encode(action), as: UTF8.self)
      let type = String(json.dropFirst(2).prefix { $0 != "\"" })
      #expect(text.contains(#""type":"\#(type)","action":\#(json)}"#), "\(json)")
      #expect(try log.action(at: index + 1).type == type)
    }
    // Sorted keys, unlike the declaration order (todos, filter, nextID; id, title, done) that
    // Rewind's coder keeps; `/` unescaped.
    #expect(text.contains(#""state":{"filter":"all","nextID":1,"todos":[]}"#))
    #expect(text.contains(#""todos":[{"done":"#))
    #expect(!text.contains(#"\/"#))
  }

  @Test(arguments: LogCoder.allCases)
  func theSameSessionIsTheSameBytesEveryTime(coder: LogCoder) throws {
    let first = try TodoRecording.record(
      actions: 300, seed: 3, checkpointInterval: 100, coder: coder)
    let second = try TodoRecording.record(
      actions: 300, seed: 3, checkpointInterval: 100, coder: coder)
    #expect(first.bytes == second.bytes)
  }

  @Test func anActionThatDoesNotDecodeFailsWithTheSameErrorWithEitherCoder() throws {
    var text = LogText()
    text.header()
    for seq in 1...40 {
      if seq == 23 {
        text.action(seq: seq, type: "add", json: #"{"add":{"titel":"x"}}"#)
      } else {
        text.action(seq: seq, .add(title: "todo \(seq)"))
      }
    }
    let log = try ReplayLog(name: "old.jsonl", contents: text.bytes)
    for prefetching in [false, true] {
      let rewind = expectReplayError {
        try timeline(log, coder: .rewind, prefetching: prefetching).state(at: 40)
      }
      let foundation = expectReplayError {
        try timeline(log, coder: .foundation, prefetching: prefetching).state(at: 40)
      }
      #expect(foundation?.location == "old.jsonl:24")
      #expect(foundation?.message == rewind?.message)
      #expect(
        foundation?.message == #"action 23 (type "add") does not decode: add.title: key not found"#)
    }
  }

  @Test func sanitizedAndDeniedActionsGoThroughFoundationsEncoderToo() throws {
    let bytes = try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("sanitized.jsonl").path
      let recorder = try Recorder<TodoState, TodoAction>(
        path: path, app: "todo", initialState: TodoState(),
        options: RecordingOptions(deniedActionTypes: ["toggle"], coder: .foundation),
        actionSanitizer: { action in
          if case .rename(let id, _) = action { return .rename(id: id, title: "***") }
          return action
        })
      var state = TodoState()
      for action: TodoAction in [
        .add(title: "a/b"), .rename(id: 1, title: "pin 1234"), .toggle(id: 1),
      ] {
        recorder.willReduce(action)
        todoReducer.reduce(&state, action)
        recorder.didReduce(state)
      }
      recorder.close()
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(#""type":"add","action":{"add":{"title":"a/b"}}}"#))
    #expect(
      text.contains(
        #""type":"rename","action":{"rename":{"id":1,"title":"***"}},"sanitized":true}"#))
    #expect(text.contains(#""kind":"skipped","seq":3,"type":"toggle","reason":"denied""#))
    let log = try ReplayLog(name: "sanitized.jsonl", contents: bytes)
    let state = try Timeline(log: log, reducer: todoReducer, coder: .foundation).state(at: 3)
    #expect(state.todos.map(\.title) == ["***"])
    #expect(state.todos.map(\.done) == [false])
  }
}

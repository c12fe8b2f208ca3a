import Rewind
import RewindExamples
import Testing

@testable import RewindReplay

/// Logs that no longer decode with the app's current types fail with errors naming the seq, the
/// line, the coding path and what is wrong — never with a crash.
@Suite struct DecodingFailureTests {
  private func handWrittenLog(action: String, type: String, state: String? = nil) throws
    -> ReplayLog
  {
    var text = LogText(checksummed: false)
    if let state { text.header(state: state) } else { text.header() }
    text.action(seq: 1, .add(title: "Buy milk"))
    text.action(seq: 2, type: type, json: action)
    text.end(seq: 2)
    return try ReplayLog(name: "old.jsonl", contents: text.bytes)
  }

  @Test func actionWithAMisspelledKeyFailsNamingItsSeqTypeAndCodingPath() throws {
    let log = try handWrittenLog(action: #"{"add":{"titel":"x"}}"#, type: "add")
    let timeline = Timeline(log: log, reducer: todoReducer)
    #expect(try timeline.state(at: 1).todos.map(\.title) == ["Buy milk"])
    let error = expectReplayError { try timeline.state(at: 2) }
    guard
      case .actionDecodingFailed(
        let path, let line, let seq, let type, let codingPath, let reason)? =
        error
    else {
      Issue.record("expected actionDecodingFailed, got \(String(describing: error))")
      return
    }
    #expect(path == "old.jsonl")
    #expect(line == 3)
    #expect(seq == 2)
    #expect(type == "add")
    #expect(codingPath == "add.title")
    #expect(reason == "key not found")
    #expect(error?.message == #"action 2 (type "add") does not decode: add.title: key not found"#)
    #expect(error?.location == "old.jsonl:3")
    #expect(error?.hint?.contains("replay actions old.jsonl --from 2 --to 2 --json") == true)
  }

  @Test func actionOfARenamedCaseFailsNamingItsType() throws {
    let log = try handWrittenLog(action: #"{"append":{"title":"x"}}"#, type: "append")
    let timeline = Timeline(log: log, reducer: todoReducer)
    let error = expectReplayError { try timeline.action(at: 2) }
    guard case .actionDecodingFailed(_, let line, let seq, let type, _, let reason)? = error else {
      Issue.record("expected actionDecodingFailed, got \(String(describing: error))")
      return
    }
    #expect(line == 3)
    #expect(seq == 2)
    #expect(type == "append")
    #expect(!reason.isEmpty)
    // The state before it still replays.
    #expect(try timeline.state(at: 1).nextID == 2)
  }

  @Test func actionWithAValueOfTheWrongTypeFailsNamingTheValuePath() throws {
    let log = try handWrittenLog(action: #"{"toggle":{"id":"seven"}}"#, type: "toggle")
    let error = expectReplayError { try Timeline(log: log, reducer: todoReducer).state(at: 2) }
    guard case .actionDecodingFailed(_, _, _, _, let codingPath, let reason)? = error else {
      Issue.record("expected actionDecodingFailed, got \(String(describing: error))")
      return
    }
    #expect(codingPath == "toggle.id")
    #expect(reason.hasPrefix("expected Int"))
  }

  @Test func headerStateThatDoesNotDecodeFailsAtLineOne() throws {
    let log = try handWrittenLog(
      action: #"{"toggle":{"id":1}}"#, type: "toggle",
      state: #"{"todos":"none","filter":"all","nextID":1}"#)
    let timeline = Timeline(log: log, reducer: todoReducer)
    let error = expectReplayError { try timeline.state(at: 0) }
    guard case .stateDecodingFailed(let path, let line, let what, let codingPath, _)? = error else {
      Issue.record("expected stateDecodingFailed, got \(String(describing: error))")
      return
    }
    #expect(path == "old.jsonl")
    #expect(line == 1)
    #expect(what == "header's initial state")
    #expect(codingPath == "todos")
    #expect(
      error?.notes == ["the app's State type has probably changed since the log was recorded"])
    // Every later position needs the header's state too.
    #expect(
      expectReplayError { try timeline.state(at: 2) }.map { "\($0.message)" } == error?.message)
  }

  @Test func checkpointStateThatDoesNotDecodeFailsAtItsLine() throws {
    var text = LogText()
    text.header()
    text.action(seq: 1, .add(title: "Buy milk"))
    text.checkpoint(seq: 1, state: #"{"todos":[{"id":1}],"filter":"all","nextID":2}"#)
    text.action(seq: 2, .toggle(id: 1))
    let log = try ReplayLog(name: "cp.jsonl", contents: text.bytes)
    let timeline = Timeline(log: log, reducer: todoReducer)
    let error = expectReplayError { try timeline.state(at: 2) }
    guard case .stateDecodingFailed(_, let line, let what, let codingPath, let reason)? = error
    else {
      Issue.record("expected stateDecodingFailed, got \(String(describing: error))")
      return
    }
    #expect(line == 3)
    #expect(what == "checkpoint at seq 1")
    #expect(codingPath == "todos[0].title")
    #expect(reason == "key not found")
  }
}

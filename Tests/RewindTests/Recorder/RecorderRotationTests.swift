import Foundation
import Rewind
import RewindExamples
import Testing

@Suite struct RecorderRotationTests {
  @Test func rotationKeepsTheNewestFilesEachReplayableAlone() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("x.jsonl")
    let session = try RecordedTodoSession.record(
      to: path, seed: 5, count: 300,
      options: RecordingOptions(
        checkpointInterval: 50, rotation: Rotation(maxBytes: 2048, keepFiles: 3)))
    #expect(session.recorder.status.isClosed)
    #expect(try directory.fileNames() == ["x.1.jsonl", "x.2.jsonl", "x.jsonl"])

    // Oldest first.
    let paths = ["x.2.jsonl", "x.1.jsonl", "x.jsonl"].map(directory.file)
    var files: [[LogRecord<TodoAction, TodoState>]] = []
    for path in paths {
      let log = try RecordedLog(path: path)
      #expect(log.partialTail.isEmpty, "\(path)")
      #expect(log.checksumProblems() == [], "\(path)")
      let records = try log.records(TodoAction.self, TodoState.self)
      #expect(RecordedLog.sequenceProblems(records) == [], "\(path)")
      files.append(records)
    }

    let headers = files.compactMap(\.first)
    try #require(headers.count == 3 && headers.allSatisfy { $0.kind == "header" })
    #expect(Set(headers.map(\.session)).count == 1)
    let segments = headers.compactMap(\.segment)
    try #require(segments.count == 3)
    #expect(segments == [segments[0], segments[0] + 1, segments[0] + 2])
    #expect(segments[0] >= 2)
    #expect(files.map { $0.last?.reason } == ["rotated", "rotated", "closed"])

    var previousLastSeq: Int?
    for (records, path) in zip(files, paths) {
      let header = records[0]
      let firstSeq = try #require(header.firstSeq)
      if let previousLastSeq { #expect(firstSeq == previousLastSeq + 1, "\(path)") }
      // The header holds the live state just before its first action.
      #expect(header.state == session.states[firstSeq - 1], "\(path)")
      for record in records where record.kind == "checkpoint" {
        #expect(record.state == session.states[record.seq ?? 0], "\(path) \(record.shape)")
      }
      for record in records where record.kind == "action" {
        let seq = try #require(record.seq)
        #expect(record.action == session.actions[seq - 1], "\(path) \(record.shape)")
      }
      previousLastSeq = records.last?.seq
    }
    #expect(previousLastSeq == 300)

    // The newest file alone replays to the final state.
    let newest = try #require(files.last)
    var state = try #require(newest.first?.state)
    for record in newest where record.kind == "action" {
      todoReducer.reduce(&state, try #require(record.action))
    }
    #expect(state == session.finalState)
  }

  @Test func everyRotatedFileHasTheSizeLimitOrLittleMore() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("x.jsonl")
    _ = try RecordedTodoSession.record(
      to: path, seed: 6, count: 200,
      options: RecordingOptions(
        checkpointInterval: 0, rotation: Rotation(maxBytes: 1500, keepFiles: 2)))
    #expect(try directory.fileNames() == ["x.1.jsonl", "x.jsonl"])
    // A file rotates after the line that took it past the limit: it holds at least the limit,
    // and less than the limit plus one action line and the end record.
    let rotated = try RecordedLog(path: directory.file("x.1.jsonl"))
    let longest = rotated.lines.map(\.count).max() ?? 0
    #expect(rotated.bytes.count >= 1500)
    #expect(rotated.bytes.count < 1500 + 2 * (longest + 1))
  }
}

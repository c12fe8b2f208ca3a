import Foundation
import Rewind
import RewindExamples
import Testing

@Suite struct RecorderRoundTripTests {
  private static let initialState = TodoState(
    todos: [Todo(id: 1, title: "Seed the garden 🌱", done: true)], nextID: 2)

  @Test func todoSessionReadsBackLineByLine() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("todo.jsonl")
    let earliest = Date()
    let session = try RecordedTodoSession.record(
      to: path, seed: 2026, count: 300, initialState: Self.initialState,
      options: RecordingOptions(checkpointInterval: 50))
    #expect(session.recorder.status.isClosed)
    #expect(Set(session.actions.map(\.caseName)) == TodoAction.allCaseNames)

    let log = try RecordedLog(path: path)
    #expect(log.partialTail.isEmpty)
    #expect(log.checksumProblems() == [])
    let records = try log.records(TodoAction.self, TodoState.self)
    var expectedShape = ["header"]
    for seq in 1...300 {
      expectedShape.append("action \(seq)")
      if seq % 50 == 0 { expectedShape.append("checkpoint \(seq)") }
    }
    expectedShape.append("end 300")
    #expect(records.map(\.shape) == expectedShape)

    let header = try #require(records.first)
    #expect(header.format == "rewind")
    #expect(header.version == 1)
    #expect(header.app == "todo")
    #expect(header.actionType == "TodoAction")
    #expect(header.stateType == "TodoState")
    #expect(header.firstSeq == 1)
    #expect(header.checkpointInterval == 50)
    #expect(header.segment == nil)
    #expect(header.state == Self.initialState)
    #expect(UUID(uuidString: header.session ?? "") != nil)
    let recordedAt = try #require(header.recordedAt)
    let date = try #require(ISO8601DateFormatter().date(from: recordedAt), "\(recordedAt)")
    // Whole seconds, so it may read up to a second before `earliest`; the slack only guards
    // against a wrong clock or time zone, not against slowness.
    #expect(abs(date.timeIntervalSince(earliest)) < 3600)

    let actions = records.filter { $0.kind == "action" }
    #expect(actions.map(\.action) == session.actions.map(Optional.some))
    #expect(actions.map(\.type) == session.actions.map { Optional.some($0.caseName) })
    #expect(actions.allSatisfy { $0.sanitized == nil })
    let times = actions.map { $0.time ?? -1 }
    #expect(times.allSatisfy { $0 >= 0 })
    #expect(times == times.sorted())

    let checkpoints = records.filter { $0.kind == "checkpoint" }
    #expect(checkpoints.map(\.seq) == [50, 100, 150, 200, 250, 300])
    for checkpoint in checkpoints {
      let seq = try #require(checkpoint.seq)
      #expect(checkpoint.state == session.states[seq], "checkpoint \(seq)")
    }

    let end = try #require(records.last)
    #expect(end.kind == "end")
    #expect(end.seq == 300)
    #expect(end.reason == "closed")
  }

  @Test func everyLineIsAJSONObjectThatJqCanRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("todo.jsonl")
    _ = try RecordedTodoSession.record(
      to: path, seed: 7, count: 120, options: RecordingOptions(checkpointInterval: 25))
    let log = try RecordedLog(path: path)
    #expect(log.lines.count == 1 + 120 + 4 + 1 + 1, "the final checkpoint at 120")
    let kinds = Set(LogFormat.Kind.allCases.map(\.rawValue))
    for (number, line) in log.lines.enumerated() {
      let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
      let checksum = object?["c"] as? String
      #expect(checksum?.count == 8, "line \(number + 1)")
      #expect(checksum.flatMap { UInt32($0, radix: 16) } != nil, "line \(number + 1)")
      #expect((object?["kind"] as? String).map(kinds.contains) == true, "line \(number + 1)")
    }
  }

  @Test func reproducibleRecordingsAreByteForByteEqual() throws {
    let directory = try TemporaryDirectory()
    var options = RecordingOptions(checkpointInterval: 50)
    options.reproducible = RecordingOptions.Reproducible(
      session: "00000000-0000-4000-8000-00000000abcd", recordedAt: "2026-01-02T03:04:05Z",
      secondsPerAction: 0.5)
    let first = directory.file("first.jsonl")
    let second = directory.file("second.jsonl")
    _ = try RecordedTodoSession.record(to: first, seed: 99, count: 300, options: options)
    _ = try RecordedTodoSession.record(to: second, seed: 99, count: 300, options: options)

    let firstLog = try RecordedLog(path: first)
    let secondLog = try RecordedLog(path: second)
    #expect(firstLog.lines.count == 1 + 300 + 6 + 1)
    #expect(firstLog.bytes == secondLog.bytes)
    let lines = firstLog.lineTexts
    let header: String =
      #""kind":"header","format":"rewind","version":1,"#
      + #""session":"00000000-0000-4000-8000-00000000abcd","app":"todo","#
      + #""actionType":"TodoAction","stateType":"TodoState","#
      + #""recordedAt":"2026-01-02T03:04:05Z","firstSeq":1,"checkpointInterval":50,"#
      + #""state":{"todos":[],"filter":"all","nextID":1}}"#
    #expect(lines.first.map { String($0.dropFirst(16)) } == header)
    #expect(lines.dropFirst().first?.contains(#""seq":1,"time":0.500000,"#) == true)
    #expect(lines.dropFirst(2).first?.contains(#""seq":2,"time":1.000000,"#) == true)
  }

  @Test func dictionariesAreWrittenWithSortedKeys() throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("inventory.jsonl")
    // Twelve keys: Swift's per-process hash seed makes an unsorted order almost certain to
    // differ from the sorted one.
    let names = [
      "lime", "apple", "kiwi", "banana", "fig", "cherry", "mango", "date", "grape", "elder",
      "honeydew", "jackfruit",
    ]
    var counts: [String: Int] = [:]
    for (index, name) in names.enumerated() { counts[name] = index }
    let store = Store(initialState: Inventory(counts: counts), reducer: inventoryReducer)
    var options = RecordingOptions(checkpointInterval: 1)
    options.reproducible = RecordingOptions.Reproducible(
      session: "s", recordedAt: "2026-01-02T03:04:05Z", secondsPerAction: 1)
    let recorder = try store.startRecording(to: path, app: "inventory", options: options)
    store.dispatch(.restock(["zucchini": 3, "carrot": 2, "beet": 1, "Apple": 9]))
    recorder.close()

    let lines = try RecordedLog(path: path).lineTexts
    try #require(lines.count == 4)
    let headerState: String =
      #""state":{"counts":{"apple":1,"banana":3,"cherry":5,"date":7,"elder":9,"fig":4,"#
      + #""grape":8,"honeydew":10,"jackfruit":11,"kiwi":2,"lime":0,"mango":6}}}"#
    let action: String =
      #""type":"restock","action":{"restock":{"_0":{"Apple":9,"beet":1,"carrot":2,"#
      + #""zucchini":3}}}}"#
    let checkpointState: String =
      #""state":{"counts":{"Apple":9,"apple":1,"banana":3,"beet":1,"carrot":2,"cherry":5,"#
      + #""date":7,"elder":9,"fig":4,"grape":8,"honeydew":10,"jackfruit":11,"kiwi":2,"#
      + #""lime":0,"mango":6,"zucchini":3}}}"#
    #expect(lines[0].hasSuffix(headerState), "\(lines[0])")
    #expect(lines[1].hasSuffix(action), "\(lines[1])")
    #expect(lines[2].hasSuffix(checkpointState), "\(lines[2])")
  }
}

/// A state with a dictionary, whose order Swift seeds differently in every process.
private struct Inventory: Codable, Equatable, Sendable {
  var counts: [String: Int]
}

private enum InventoryAction: Codable, Equatable, Sendable {
  case restock([String: Int])
}

private let inventoryReducer = Reducer<Inventory, InventoryAction> { state, action in
  switch action {
  case .restock(let delivery):
    state.counts.merge(delivery, uniquingKeysWith: +)
  }
}

import Foundation
import RewindExamples
import RewindTestSupport
import Testing

@testable import Rewind

/// A recordings folder: its index (read without a reducer), retention at its limits (never the
/// session this process records), and flushing a buffered recording on the app's lifecycle
/// notifications.
@Suite struct RecordingsFolderTests {
  /// Writes a closed session of `count` counter actions named for January `day`, 2026, and
  /// returns its path.
  @discardableResult
  static func oldSession(
    in folder: String, day: Int, count: Int, id: String = "0000", rotateAt: Int? = nil
  ) throws -> String {
    let stamp = "2026-01-\(day < 10 ? "0" : "")\(day)T00-00-00-000Z"
    let path = "\(folder)/\(stamp)-counter-\(id).jsonl"
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter",
      options: RecordingOptions(
        checkpointInterval: 0,
        rotation: rotateAt.map { Rotation(maxBytes: $0, keepFiles: 10) }))
    for _ in 0..<count { store.dispatch(.increment) }
    recorder.close()
    return path
  }

  @Test func theIndexReadsEachSessionWithoutAReducer() throws {
    let folder = try TemporaryDirectory()
    try Self.oldSession(in: folder.path, day: 1, count: 5)
    let cut = try Self.oldSession(in: folder.path, day: 2, count: 7)
    // Cut off: the end record and half of the last line's newline are gone.
    let text = try String(contentsOfFile: cut, encoding: .utf8)
    var lines = text.split(separator: "\n")
    lines.removeLast(2)  // the end record and the final checkpoint
    try (lines.joined(separator: "\n") + "\n" + #"{"c":"0000"#)
      .write(toFile: cut, atomically: true, encoding: .utf8)
    try Self.oldSession(in: folder.path, day: 3, count: 40, rotateAt: 1500)
    try "not a log\n".write(
      toFile: folder.file("2026-01-04T00-00-00-000Z-junk-0000.jsonl"), atomically: true,
      encoding: .utf8)
    try "unrelated".write(toFile: folder.file("notes.txt"), atomically: true, encoding: .utf8)

    let sessions = RecordingsFolder(path: folder.path).sessions()
    #expect(
      sessions.map(\.id) == [
        "2026-01-01T00-00-00-000Z-counter-0000", "2026-01-02T00-00-00-000Z-counter-0000",
        "2026-01-03T00-00-00-000Z-counter-0000", "2026-01-04T00-00-00-000Z-junk-0000",
      ])
    #expect(sessions.map(\.ending) == [.closed, .cutOff, .closed, .unreadable])
    #expect(sessions.map(\.actionCount) == [5, 7, 40, 0])
    #expect(sessions[0].app == "counter")
    #expect(sessions[0].files.count == 1)
    let size = try FileManager.default.attributesOfItem(atPath: sessions[0].files[0])[.size]
    #expect(sessions[0].byteCount == size as? Int)
    #expect(
      sessions[0].startedAt
        == DateComponents(
          calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
          year: 2026, month: 1, day: 1
        ).date)
    // A rotated session: its files oldest first, the current one last.
    let rotated = sessions[2]
    #expect(rotated.files.count > 2)
    #expect(rotated.files.last?.hasSuffix("-counter-0000.jsonl") == true)
    #expect(rotated.files.first?.hasSuffix(".\(rotated.files.count - 1).jsonl") == true)
    #expect(sessions.map(\.endedBadly) == [false, true, false, true])
  }

  /// `state` lines the background wrote after the last action (a rotated file's header state,
  /// a last part after the signal line, a part torn by the kill) do not hide how far the file got
  /// or how it ended; a bundle leaves out an older file's torn part.
  @Test func stateLinesAtTheEndDoNotHideTheLastActionOrTheCrash() throws {
    let folder = try TemporaryDirectory()
    let stamp = "2026-01-05T00-00-00-000Z-counter-0000"
    let header = CounterLogLines.header()
    let next = CounterLogLines.header(firstSeq: 4, stateFollows: true, segment: 1)
    let action = CounterLogLines.increment
    // The old file: killed while the background wrote its final state (a torn part).
    try
      ([header, action(1), action(2), action(3)].joined(separator: "\n") + "\n"
      + #"{"kind":"state","seq":3,"part":0,"parts":2,"text":"{\"co"#)
      .write(toFile: folder.file("\(stamp).1.jsonl"), atomically: true, encoding: .utf8)
    // The new file: its actions, the signal line, then the header's state, the last part torn.
    try
      ([
        next, action(4), action(5), #"{"kind":"signal","seq":5,"signal":"SIGSEGV"}"#,
        #"{"kind":"state","seq":3,"part":0,"parts":2,"text":"{\"co"}"#,
      ].joined(separator: "\n") + "\n" + #"{"kind":"state","seq":3,"part":1,"par"#)
      .write(toFile: folder.file("\(stamp).jsonl"), atomically: true, encoding: .utf8)
    let session = try #require(RecordingsFolder(path: folder.path).sessions().first)
    #expect(session.actionCount == 5)
    #expect(session.ending == .crashed(signal: "SIGSEGV"))
    let bundle = try String(
      contentsOfFile: session.bundle(to: folder.file("bundle.jsonl")), encoding: .utf8)
    #expect(bundle.contains(action(3) + "\n" + next + "\n"), "the torn part is left out")
  }

  @Test func retentionKeepsTheNewestSessionsWithinTheLimits() throws {
    let folder = try TemporaryDirectory()
    for day in 1...5 { try Self.oldSession(in: folder.path, day: day, count: day * 10) }
    try "unrelated".write(toFile: folder.file("notes.txt"), atomically: true, encoding: .utf8)
    let before = RecordingsFolder(path: folder.path).sessions()

    // Three sessions at most, the new one included: the two newest old ones stay.
    let recordings = RecordingsFolder(
      path: folder.path, retention: .init(sessions: 3, bytes: 1 << 30))
    let path = try recordings.newSessionPath(app: "counter")
    #expect(recordings.sessions().map(\.id) == before.suffix(2).map(\.id))
    #expect(FileManager.default.fileExists(atPath: folder.file("notes.txt")))
    #expect(path.hasPrefix(folder.path + "/") && path.hasSuffix(".jsonl"))
    #expect(path.contains("-counter-"))
    #expect(RecordingsFolder.parse(fileName: String(path.split(separator: "/").last ?? "")) != nil)

    // A byte limit that the newest old session alone fits in.
    let newest = try #require(recordings.sessions().last)
    let byBytes = RecordingsFolder(
      path: folder.path, retention: .init(sessions: 100, bytes: newest.byteCount))
    byBytes.applyRetention()
    #expect(byBytes.sessions().map(\.id) == [newest.id])
  }

  @Test func retentionDeletesEveryFileOfARotatedSessionAndNeverOneOfThisProcess() throws {
    let folder = try TemporaryDirectory()
    try Self.oldSession(in: folder.path, day: 1, count: 40, rotateAt: 600)
    #expect(try folder.fileNames().count > 2)
    let recordings = RecordingsFolder(path: folder.path, retention: .init(sessions: 1, bytes: 0))
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let first = try store.startRecording(in: recordings, app: "counter")
    store.dispatch(.increment)
    #expect(try folder.fileNames() == [String(first.path.split(separator: "/").last ?? "")])

    // A second session of this process: over both limits, yet the first one stays.
    let other = Store(initialState: CounterState(), reducer: counterReducer)
    let second = try other.startRecording(in: recordings, app: "counter")
    #expect(try folder.fileNames().count == 2)
    #expect(recordings.previousSession() == nil, "both are this launch's")
    first.close()
    second.close()
  }

  @Test func thePreviousLaunchIsTheNewestSessionNotRecordedByThisProcess() throws {
    let folder = try TemporaryDirectory()
    try Self.oldSession(in: folder.path, day: 1, count: 3)
    let crashed = try Self.oldSession(in: folder.path, day: 2, count: 4)
    let recordings = RecordingsFolder(path: folder.path)
    #expect(recordings.crashOfLastLaunch() == nil, "it closed")
    // Cut it off: no end record.
    let text = try String(contentsOfFile: crashed, encoding: .utf8)
    try (text.split(separator: "\n").dropLast().joined(separator: "\n") + "\n")
      .write(toFile: crashed, atomically: true, encoding: .utf8)
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(in: recordings, app: "counter")
    defer { recorder.close() }
    let previous = try #require(recordings.crashOfLastLaunch())
    #expect(previous.files == [crashed])
    #expect(previous.ending == .cutOff)
    #expect(recordings.crashOfLastLaunch(app: "todo") == nil)
  }

  @Test func aBufferedRecordingIsFlushedWhenTheAppGoesToTheBackground() throws {
    let folder = try TemporaryDirectory()
    let path = folder.file("buffered.jsonl")
    let store = Store(initialState: CounterState(), reducer: counterReducer)
    let recorder = try store.startRecording(
      to: path, app: "counter", options: RecordingOptions(durability: .buffered(capacity: 1 << 20)))
    let background = Notification.Name("RewindTestDidEnterBackground")
    recorder.flushOnLifecycleNotifications([background])
    for _ in 0..<5 { store.dispatch(.increment) }
    let lines = {
      (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").count ?? 0
    }
    #expect(lines() == 0, "the header and the actions wait in the buffer")
    NotificationCenter.default.post(name: background, object: nil)
    #expect(lines() == 6)
    recorder.close()
    NotificationCenter.default.post(name: background, object: nil)  // no observer left: nothing
    #expect(lines() >= 7)
  }
}

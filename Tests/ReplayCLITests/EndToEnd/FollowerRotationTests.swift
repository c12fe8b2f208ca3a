import Foundation
import RewindReplay
import RewindTestSupport
import Testing

/// `tail -f`'s follower (``LogTail``) against what happens to a file being recorded: a real
/// writer process rotating every KiB (its last actions and `rotated` record land after the
/// rename), a file truncated, replaced, deleted and made again, and a writer killed mid-line.
@Suite(.serialized) struct FollowerRotationTests {
  /// The actions' seqs, headers, faults and restarts a follower reported.
  struct Seen {
    var seqs: [Int] = []
    var headers = 0
    var ends: [String] = []
    var faults: [LogFault.Reason] = []
    var restarts = 0
    /// Headers whose state followed, told as such (a file begun by a background rotation).
    var statesFollowing = 0

    mutating func add(_ events: [LogTail.Event]) {
      for event in events {
        switch event {
        case .action(let action): seqs.append(action.seq)
        case .header(let header):
          headers += 1
          if header.stateFollows { statesFollowing += 1 }
        case .end(let reason): ends.append(reason)
        case .fault(let fault): faults.append(fault.reason)
        case .restarted: restarts += 1
        }
      }
    }
  }

  /// Runs `rewind-testbed record PATH POLICY COUNT` and follows PATH with a ``LogTail`` while it
  /// writes; checks that the follower saw every action once, in order, with no fault and no
  /// restart, and that the recording closed.
  static func follow(policy: String, count: Int, at path: String) throws -> Seen {
    let process = Process()
    process.executableURL = try TrapKindsTests.testbed()
    process.arguments = ["record", path, policy, String(count)]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let tail = LogTail(path: path)
    var seen = Seen()
    try process.run()
    while process.isRunning {
      seen.add(tail.poll())
      usleep(500)
    }
    let exit = ChildExit.wait(for: process)
    seen.add(tail.poll())
    #expect(exit == ChildExit(status: 0, isSignal: false))
    let missing = Set(1...count).subtracting(seen.seqs).sorted()
    #expect(
      seen.seqs == Array(1...count),
      "missed \(missing.prefix(20)), \(seen.seqs.count - Set(seen.seqs).count) repeated; restarts \(seen.restarts), faults \(seen.faults)"
    )
    #expect(seen.faults.isEmpty, "\(seen.faults)")
    #expect(seen.restarts == 0, "a rotation is not a replacement")
    #expect(seen.ends.last == "closed")
    #expect(seen.ends.dropLast().allSatisfy { $0 == "rotated" })
    return seen
  }

  @Test func aFollowerMissesNoActionOfAWriterRotatingEveryKilobyte() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      let seen = try Self.follow(policy: "rotating", count: 3_000, at: path)
      #expect(seen.headers > 10, "the writer rotated \(seen.headers - 1) times")
      #expect(seen.ends.count == seen.headers, "every file's end record was read")
    }
  }

  /// A writer whose state is large rotates in the background: each new file begins (its
  /// header's state follows) before the old one's final state and `end` record are written. The
  /// follower goes on with the new file at once, as a rotation, missing nothing.
  @Test func aFollowerMissesNoActionOfAWriterRotatingInTheBackground() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      let count = 3_000
      let seen = try Self.follow(policy: "rotating-large", count: count, at: path)
      #expect(seen.headers > 3, "the writer rotated \(seen.headers - 1) times")
      #expect(seen.statesFollowing == seen.headers - 1, "every rotated file's state follows")
      // Every file joined oldest first is one log with every action once.
      let files =
        (1..<seen.headers).reversed().map {
          directory.appendingPathComponent("live.\($0).jsonl").path
        } + [path]
      var bundle: [UInt8] = []
      for file in files { bundle += Array(try Data(contentsOf: URL(fileURLWithPath: file))) }
      let log = try ReplayLog(name: "bundle", contents: bundle, recovery: .strict)
      #expect(log.firstSeq == 1)
      #expect(log.lastSeq == count)
      #expect(log.joinedFiles == files.count - 1)
    }
  }

  /// A tail that starts on a file whose header's state follows holds the header and the actions
  /// back until the state's record completes it: a follower needs the state to start from.
  @Test func aTailStartingOnAFileWhoseStateFollowsWaitsForTheState() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      let header = CounterLogLines.header(firstSeq: 4, stateFollows: true)
      let action = CounterLogLines.increment
      try ([header, action(4)].joined(separator: "\n") + "\n")
        .write(toFile: path, atomically: false, encoding: .utf8)
      let tail = LogTail(path: path)
      #expect(tail.poll().isEmpty, "held until the state comes")
      let handle = try #require(FileHandle(forWritingAtPath: path))
      handle.seekToEndOfFile()
      handle.write(
        Data(
          ([
            #"{"kind":"state","seq":3,"part":0,"parts":2,"text":"{\"cou"}"#, action(5),
            #"{"kind":"state","seq":3,"part":1,"parts":2,"text":"nt\":3}"}"#, action(6),
          ].joined(separator: "\n") + "\n").utf8))
      try handle.close()
      let events = tail.poll()
      guard case .header(let read) = events.first else {
        Issue.record("no header first: \(events)")
        return
      }
      #expect(!read.stateFollows)
      #expect(read.state["count"]?.intValue == 3)
      var seen = Seen()
      seen.add(events)
      #expect(seen.seqs == [4, 5, 6])
      #expect(seen.faults.isEmpty)
    }
  }

  /// A counter log file of session `session` holding actions `seqs`, ending `rotated` unless it
  /// is the last.
  static func segment(session: String, seqs: ClosedRange<Int>, rotated: Bool) -> String {
    var lines = [
      #"{"kind":"header","format":"rewind","version":1,"session":"\#(session)","app":"counter","#
        + #""actionType":"CounterAction","stateType":"CounterState","#
        + #""recordedAt":"2026-11-21T10:00:00Z","firstSeq":\#(seqs.lowerBound),"#
        + #""checkpointInterval":5,"state":{"count":0}}"#
    ]
    for seq in seqs {
      lines.append(#"{"kind":"action","seq":\#(seq),"type":"increment","action":{"increment":{}}}"#)
    }
    if rotated { lines.append(#"{"kind":"end","seq":\#(seqs.upperBound),"reason":"rotated"}"#) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A tail started before the recording begins with its first file, even when the recorder
  /// rotated (twice here) before the first poll; one started on a file that exists begins with
  /// that file, as `tail -f` does; an older recording's rotated file is not taken.
  @Test func aTailStartedBeforeTheRecordingBeginsWithItsFirstFile() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      let waiting = LogTail(path: path)
      try Self.segment(session: "old", seqs: 1...9, rotated: true)
        .write(
          toFile: directory.appendingPathComponent("live.3.jsonl").path, atomically: false,
          encoding: .utf8)
      try Self.segment(session: "s", seqs: 1...2, rotated: true)
        .write(
          toFile: directory.appendingPathComponent("live.2.jsonl").path, atomically: false,
          encoding: .utf8)
      try Self.segment(session: "s", seqs: 3...4, rotated: true)
        .write(
          toFile: directory.appendingPathComponent("live.1.jsonl").path, atomically: false,
          encoding: .utf8)
      try Self.segment(session: "s", seqs: 5...6, rotated: false)
        .write(toFile: path, atomically: false, encoding: .utf8)
      var seen = Seen()
      seen.add(waiting.poll())
      #expect(seen.seqs == Array(1...6))
      #expect(seen.headers == 3)
      #expect(seen.restarts == 0)

      var late = Seen()
      late.add(LogTail(path: path).poll())
      #expect(late.seqs == [5, 6])
    }
  }

  /// A tail that waited for the recording looks while the recorder rotates: the files are being
  /// renamed (highest first, so one name is free: `.2` here), or the new file at the path has no
  /// header yet. Either way it still begins with the recording's first file.
  @Test func aTailStartedBeforeTheRecordingFindsItsFirstFileMidRotation() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      func write(_ text: String, _ name: String) throws {
        try text.write(
          toFile: directory.appendingPathComponent(name).path, atomically: false, encoding: .utf8)
      }
      let renaming = LogTail(path: path)
      try write(Self.segment(session: "s", seqs: 1...2, rotated: true), "live.3.jsonl")
      try write(Self.segment(session: "s", seqs: 3...4, rotated: true), "live.1.jsonl")
      try write(Self.segment(session: "s", seqs: 5...6, rotated: false), "live.jsonl")
      var seen = Seen()
      seen.add(renaming.poll())
      #expect(seen.seqs == Array(1...6), "the file renamed to .3 is the first")
      #expect(seen.headers == 3 && seen.restarts == 0)

      for name in ["live.jsonl", "live.1.jsonl", "live.3.jsonl"] {
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent(name).path)
      }
      let headerless = LogTail(path: path)
      try write(Self.segment(session: "t", seqs: 1...2, rotated: true), "live.2.jsonl")
      try write(Self.segment(session: "t", seqs: 3...4, rotated: true), "live.1.jsonl")
      try write("", "live.jsonl")
      var waited = Seen()
      waited.add(headerless.poll())
      #expect(waited.seqs.isEmpty, "a file with no header yet is waited for")
      try write(Self.segment(session: "t", seqs: 5...6, rotated: false), "live.jsonl")
      waited.add(headerless.poll())
      #expect(waited.seqs == Array(1...6))
      #expect(waited.headers == 3 && waited.restarts == 0)
    }
  }

  /// Lines of `Fixtures/counter.jsonl`: a header, 12 actions, checkpoints and an end record.
  static func counterLines() throws -> [String] {
    try String(contentsOfFile: CLIFixture.path("counter.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
  }

  @Test func truncatedReplacedDeletedAndRecreatedFilesAreReadFromTheirStart() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      let lines = try Self.counterLines()
      let firstHalf = lines.prefix(6).joined(separator: "\n") + "\n"
      try firstHalf.write(toFile: path, atomically: false, encoding: .utf8)
      let tail = LogTail(path: path)
      var seen = Seen()
      seen.add(tail.poll())
      #expect(seen.seqs == [1, 2, 3, 4, 5])

      // Truncated in place, then written again from the start.
      let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
      try handle.truncate(atOffset: 0)
      try handle.close()
      try (lines.prefix(3).joined(separator: "\n") + "\n").write(
        toFile: path, atomically: false, encoding: .utf8)
      var after = Seen()
      after.add(tail.poll())
      #expect(after.restarts == 1 && after.headers == 1 && after.seqs == [1, 2])

      // Deleted, and made again while the follower was not looking.
      try FileManager.default.removeItem(atPath: path)
      #expect(tail.poll().isEmpty)
      try (lines.joined(separator: "\n") + "\n").write(
        toFile: path, atomically: false, encoding: .utf8)
      var again = Seen()
      again.add(tail.poll())
      #expect(again.restarts == 1 && again.headers == 1)
      #expect(again.seqs == Array(1...12) && again.ends == ["closed"])

      // Replaced by another file (a new recording over the old path).
      try (lines.prefix(4).joined(separator: "\n") + "\n").write(
        toFile: path, atomically: true, encoding: .utf8)
      var replaced = Seen()
      replaced.add(tail.poll())
      #expect(replaced.restarts == 1 && replaced.seqs == [1, 2, 3])
    }
  }

  @Test func aLineLeftUnfinishedByAKilledWriterIsReportedWhenTheFileIsLeftBehind() throws {
    try CLIFixture.withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("live.jsonl").path
      let lines = try Self.counterLines()
      // A writer killed in the middle of action 4's line.
      let torn = lines.prefix(4).joined(separator: "\n") + "\n" + lines[4].prefix(30)
      try torn.write(toFile: path, atomically: false, encoding: .utf8)
      let tail = LogTail(path: path)
      var seen = Seen()
      seen.add(tail.poll())
      #expect(seen.seqs == [1, 2, 3] && seen.faults.isEmpty, "a line being written is waited for")
      // The app starts again and records a new session over the path.
      try (lines.prefix(3).joined(separator: "\n") + "\n").write(
        toFile: path, atomically: true, encoding: .utf8)
      var after = Seen()
      after.add(tail.poll())
      #expect(after.faults == [.cutOff(length: 30)])
      #expect(after.restarts == 1 && after.seqs == [1, 2])
    }
  }
}

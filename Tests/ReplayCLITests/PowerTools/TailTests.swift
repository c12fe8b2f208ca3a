import Foundation
import Rewind
import RewindReplay
import RewindTestSupport
import Testing

@testable import ReplayCLI

@Suite struct TailTests {
  @Test func aLineBeingWrittenIsWaitedForNeverReportedAsCorrupt() throws {
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("live.jsonl").path
    let lines = try String(contentsOfFile: PowerTools.fixture("counter.jsonl"), encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map { $0 + "\n" }
    _ = FileManager.default.createFile(atPath: path, contents: Data(lines[0].utf8))
    let tail = LogTail(path: path)
    #expect(tail.poll().count == 1)  // the header
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    let second = Data(lines[1].utf8)
    try handle.write(contentsOf: second.prefix(20))
    #expect(tail.poll().isEmpty, "half a line is not an event")
    try handle.write(contentsOf: second.dropFirst(20))
    let events = tail.poll()
    #expect(events.count == 1)
    if case .action(let action) = events.first {
      #expect(action.seq == 1)
      #expect(action.type == "increment")
    } else {
      Issue.record("expected an action, got \(events)")
    }
    try handle.close()
  }

  @Test func aRotatedFileIsReadFromItsStart() throws {
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("live.jsonl").path
    try FileManager.default.copyItem(atPath: PowerTools.fixture("counter.jsonl"), toPath: path)
    let tail = LogTail(path: path)
    let first = tail.poll()
    #expect(first.contains { if case .end = $0 { true } else { false } })
    try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
    try FileManager.default.copyItem(atPath: PowerTools.fixture("todo-crash.jsonl"), toPath: path)
    let second = tail.poll()
    #expect(second.first.map { if case .restarted = $0 { true } else { false } } == true)
    let headers = second.compactMap { event -> LogHeader? in
      if case .header(let header) = event { return header }
      return nil
    }
    #expect(headers.map(\.app) == ["todo"])
  }

  @Test func followPrintsAppendedActionsWithDiffsUntilTheEndRecord() throws {
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("live.jsonl").path
    let lines = try String(contentsOfFile: PowerTools.fixture("counter.jsonl"), encoding: .utf8)
      .split(separator: "\n").map { $0 + "\n" }
    _ = FileManager.default.createFile(atPath: path, contents: Data(lines.prefix(3).joined().utf8))
    let writer = Thread {
      Thread.sleep(forTimeInterval: 0.3)
      guard let handle = FileHandle(forWritingAtPath: path) else { return }
      _ = try? handle.seekToEnd()
      for line in lines.dropFirst(3) {
        try? handle.write(contentsOf: Data(line.utf8))
        Thread.sleep(forTimeInterval: 0.05)
      }
      try? handle.close()
    }
    writer.start()
    let result = PowerTools.run(["tail", "-f", path, "--diff", "--timeout", "20"])
    #expect(result.status == 0, "stderr: \(result.err)")
    #expect(result.out.contains("   12    3.000s  add            -20\n        count: 115 → 95\n"))
    #expect(result.out.hasSuffix("-- the recording ended (end record)\n"))
    #expect(result.err.isEmpty)
  }

  @Test func withoutFollowTheLastLinesArePrinted() {
    let result = PowerTools.run([
      "tail", PowerTools.fixture("counter.jsonl"), "-n", "2", "--type", "add",
    ])
    #expect(result.status == 0)
    #expect(
      result.out.contains(
        "    10    2.500s  add            7\n    12    3.000s  add            -20\n"))
  }

  /// A file begun by a background rotation, its header's state following in a `state` record:
  /// `tail` shows its actions at once; with `--diff` it waits for the state, and says where the
  /// state is when it never came.
  @Test func aFileWhoseStateFollowsIsShownAndDiffedFromItsState() throws {
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("rotated.jsonl").path
    let header = CounterLogLines.header(firstSeq: 4, stateFollows: true)
    let action = CounterLogLines.increment
    try ([header, action(4), action(5)].joined(separator: "\n") + "\n")
      .write(toFile: path, atomically: false, encoding: .utf8)
    let plain = PowerTools.run(["tail", path])
    #expect(plain.status == 0, "\(plain.err)")
    #expect(plain.out.contains("    4 ") && plain.out.contains("    5 "), "\(plain.out)")
    let waiting = PowerTools.run(["tail", path, "--diff"])
    #expect(waiting.status == 2)
    #expect(
      waiting.err.contains(
        "\(path):1: the file's initial state (the state after action 3, which its header says "
          + #"follows in a "state" record) is not in the file"#), "\(waiting.err)")

    try
      ([header, action(4), #"{"kind":"state","seq":3,"state":{"count":30}}"#, action(5)]
      .joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    let diffed = PowerTools.run(["tail", path, "--diff"])
    #expect(diffed.status == 0, "\(diffed.err)")
    #expect(diffed.out.contains("count: 30 → 31"), "\(diffed.out)")
    #expect(diffed.out.contains("count: 31 → 32"), "\(diffed.out)")
  }

  /// After a reducer crash stops `--diff`, a file begun by a background rotation (its header's
  /// state following) is shown without states, with a warning — not rebuilt from a state it
  /// does not have.
  @Test func afterAReducerCrashAFileWhoseStateFollowsIsShownWithoutStates() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("live.jsonl").path
    // The todo crash fixture without its checksums: it ends with the move that traps (seq 38).
    let crash = try String(contentsOfFile: PowerTools.fixture("todo-crash.jsonl"), encoding: .utf8)
      .split(separator: "\n").map {
        $0.replacingOccurrences(
          of: #"^\{"c":"[0-9a-f]{8}","#, with: "{", options: .regularExpression)
      }
    let session = try #require(
      crash[0].firstMatch(of: /"session":"([^"]*)"/).map { String($0.1) })
    try (crash.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: false, encoding: .utf8)
    let next =
      #"{"kind":"header","format":"rewind","version":2,"session":"\#(session)","app":"todo","#
      + #""actionType":"TodoAction","stateType":"TodoState","firstSeq":39,"segment":1,"#
      + #""stateFollows":true}"#
    let writer = Thread {
      Thread.sleep(forTimeInterval: 0.5)
      try? FileManager.default.moveItem(atPath: path, toPath: path + ".1")
      try?
        ([
          next, #"{"kind":"action","seq":39,"type":"toggle","action":{"toggle":{"id":7}}}"#,
          #"{"kind":"end","seq":39,"reason":"closed"}"#,
        ].joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    }
    writer.start()
    let result = PowerTools.run(["tail", "-f", path, "--diff", "--isolate", "--timeout", "20"])
    #expect(result.status == 0, "stderr: \(result.err)")
    #expect(result.err.contains("the app's reducer crashed"), "\(result.err)")
    #expect(
      result.err.contains("the initial state of \(path) from seq 39 is not known"), "\(result.err)")
    #expect(result.out.contains("   39 "), "\(result.out)")
    #expect(result.out.hasSuffix("-- the recording ended (end record)\n"), "\(result.out)")
  }

  /// While a header waits for its state, a bad line is a warning, not "not a Rewind log"; a state
  /// whose part is damaged (a part missing) or whose parts do not put together releases the
  /// header without it, with a fault at the line that showed it.
  @Test func aBadLineOrADamagedStateWhileAHeaderWaitsIsAFault() throws {
    let directory = try PowerTools.temporaryDirectory()
    let path = directory.appendingPathComponent("rotated.jsonl").path
    let header = CounterLogLines.header(firstSeq: 4, stateFollows: true)
    let action = CounterLogLines.increment
    func write(_ lines: [String]) throws {
      try (lines.joined(separator: "\n") + "\n").write(
        toFile: path, atomically: false, encoding: .utf8)
    }
    try write([
      header, action(4), "{bad json", #"{"kind":"state","seq":3,"state":{"count":30}}"#, action(5),
    ])
    let badLine = PowerTools.run(["tail", path, "--diff"])
    #expect(badLine.status == 0, "\(badLine.err)")
    #expect(badLine.err.contains("\(path):3 (byte "), "\(badLine.err)")
    #expect(badLine.out.contains("count: 30 → 31") && badLine.out.contains("count: 31 → 32"))

    // Part 0 damaged (here: not a record at all), so part 1 comes first.
    try write([
      header, action(4), #"{"kind":"state","seq":3,"part":0,"parts":2,"te"#,
      #"{"kind":"state","seq":3,"part":1,"parts":2,"text":"nt\":30}"}"#, action(5),
    ])
    let damaged = PowerTools.run(["tail", path, "--diff"])
    #expect(damaged.status == 0, "\(damaged.err)")
    #expect(
      damaged.err.contains(
        "\(path):4 (byte 285): invalid record: part 1 of the state for seq 3 comes after 0 of its "
          + "parts: the state is not whole"), "\(damaged.err)")
    #expect(damaged.err.contains("the initial state of \(path) from seq 4 is not known"))
    #expect(damaged.out.contains("    4 ") && damaged.out.contains("    5 "), "\(damaged.out)")
  }
}

import Dispatch
import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindTestSupport
import Testing

@testable import RewindReplay

/// A rotation of a large state starts the new file at once, with a header whose state follows
/// (`"stateFollows":true`, format version 2), and writes the state in the background to both
/// files: the new one's `state` record for `firstSeq - 1`, the old one's final state before its
/// `end` record. Every reader takes each file alone, the files joined, and a file whose old
/// neighbour was cut off before its end.
@Suite struct BackgroundRotationTests {
  typealias Big = BackgroundCheckpointTests

  /// The files of `path`'s rotation, oldest first.
  static func files(of path: String) -> [String] {
    var files = [path]
    while case let older = LogWriter.rotatedPath(path, index: files.count),
      FileManager.default.fileExists(atPath: older)
    {
      files.insert(older, at: 0)
    }
    return files
  }

  @Test func everyFileOfARotatedRecordingOpensAloneAndJoined() throws {
    try withScratchDirectory { directory in
      let path = directory.appendingPathComponent("big.jsonl").path
      // About 200 KiB of state JSON and files of 600 KiB: a rotation every few hundred actions,
      // each with a state large enough for the background.
      let store = Store(initialState: Big.initial(items: 4_000), reducer: Big.reducer)
      let recorder = try store.startRecording(
        to: path, app: "big",
        options: RecordingOptions(
          checkpointInterval: 100, rotation: Rotation(maxBytes: 600 << 10, keepFiles: 10)))
      var states = [store.state]
      // How many rotations there are depends on how fast the background keeps up (a rotation
      // waits while a state is written): dispatch until there were two, in hundreds.
      var count = 0
      while count < 20_000
        && (count < 1_200
          || !FileManager.default.fileExists(
            atPath: LogWriter.rotatedPath(path, index: 2)))
      {
        for _ in 0..<100 {
          count += 1
          store.dispatch(.add(count))
          states.append(store.state)
        }
      }
      recorder.close()
      guard case .closed = recorder.status else {
        Issue.record("the recording stopped: \(recorder.status)")
        return
      }
      let files = Self.files(of: path)
      try #require(files.count >= 3, "\(files)")

      var nextSeq = 1
      var bundle: [UInt8] = []
      for (index, file) in files.enumerated() {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let headerLine = String(text.prefix { $0 != "\n" })
        if index > 0 {
          #expect(headerLine.contains(#""version":2,"#), "\(file)")
          #expect(headerLine.contains(#""stateFollows":true"#), "\(file)")
          #expect(!headerLine.contains(#""state":"#), "\(file)")
        }
        let log = try ReplayLog(path: file, recovery: .strict)
        #expect(log.firstSeq == nextSeq, "\(file)")
        #expect(try Big.decode(log.header.state) == states[log.firstSeq - 1], "\(file)")
        #expect(!log.header.stateFollows)
        #expect(
          !log.checkpointSeqs.contains(log.firstSeq - 1), "the header's state is no checkpoint")
        #expect(log.endReason == (index == files.count - 1 ? "closed" : "rotated"), "\(file)")
        // Each file ends with its last state, so `verify` compares the end of every file.
        #expect(log.checkpointSeqs.last == log.lastSeq, "\(file)")
        for seq in log.checkpointSeqs {
          #expect(try Big.decode(try #require(try log.checkpointState(at: seq))) == states[seq])
        }
        let app = ReplayApp(name: "big", reducer: Big.reducer)
        let report = try Verifier.verify(try app.timeline(for: log, usesCheckpoints: false))
        #expect(report.isReproduced, "\(file)")
        nextSeq = log.lastSeq + 1
        bundle += Array(try Data(contentsOf: URL(fileURLWithPath: file)))
      }
      #expect(nextSeq == count + 1, "no action lost, none twice")

      let joined = try ReplayLog(name: "bundle", contents: bundle, recovery: .strict)
      #expect(joined.joinedFiles == files.count - 1)
      #expect(joined.firstSeq == 1, "ten files kept: the first is there")
      #expect(joined.lastSeq == count)
      let app = ReplayApp(name: "big", reducer: Big.reducer)
      let timeline = try app.timeline(for: joined)
      #expect(try Big.decode(try timeline.stateJSON(at: count)) == states[count])
    }
  }

  // MARK: Hand-written files

  static func bytes(_ lines: [String]) -> [UInt8] { Array(CounterLogLines.text(lines).utf8) }

  @Test func aFileWhoseStateFollowsTakesItFromItsStateRecord() throws {
    let lines = [
      CounterLogLines.header(firstSeq: 4, stateFollows: true), CounterLogLines.increment(4),
      CounterLogLines.increment(5),
      #"{"kind":"state","seq":3,"part":0,"parts":2,"text":"{\"cou"}"#, CounterLogLines.increment(6),
      #"{"kind":"state","seq":3,"part":1,"parts":2,"text":"nt\":3}"}"#,
      #"{"kind":"end","seq":6}"#,
    ]
    let log = try ReplayLog(name: "new.jsonl", contents: Self.bytes(lines), recovery: .strict)
    #expect(log.header.state == .object([JSONMember("count", .number("3"))]))
    #expect(log.positions == 3...6)
    #expect(log.checkpointSeqs.isEmpty)
    let timeline = try ReplayApp(name: "counter", reducer: counterReducer).timeline(for: log)
    #expect(try timeline.stateJSON(at: 6)["count"] == .number("6"))
  }

  /// An error about the header's state names the line of the `state` record it came from.
  @Test func anInitialStateThatDoesNotDecodeIsPlacedAtItsStateRecord() throws {
    let lines = [
      CounterLogLines.header(firstSeq: 4, stateFollows: true), CounterLogLines.increment(4),
      #"{"kind":"state","seq":3,"state":{"count":"three"}}"#, CounterLogLines.increment(5),
    ]
    let log = try ReplayLog(name: "new.jsonl", contents: Self.bytes(lines))
    #expect(log.headerStateLine == 3)
    let timeline = try ReplayApp(name: "counter", reducer: counterReducer).timeline(for: log)
    do {
      _ = try timeline.stateJSON(at: 5)
      Issue.record("a state that does not decode was read")
    } catch {
      #expect(error.location == "new.jsonl:3")
      #expect(error.message.contains("header's initial state"), "\(error.message)")
    }
    let inHeader = try ReplayLog(
      name: "old.jsonl",
      contents: Self.bytes([CounterLogLines.header(firstSeq: 4), CounterLogLines.increment(4)]))
    #expect(inHeader.headerStateLine == 1)
  }

  @Test func aFileWhoseStateNeverCameSaysWhereItIs() throws {
    let lines = [
      CounterLogLines.header(firstSeq: 4, stateFollows: true), CounterLogLines.increment(4),
      CounterLogLines.increment(5),
    ]
    // It opens (its actions read), and a state that needs the initial state says what is
    // missing and where.
    let log = try ReplayLog(name: "new.jsonl", contents: Self.bytes(lines))
    #expect(log.isInitialStateMissing)
    #expect(log.actionCount == 2)
    let timeline = try ReplayApp(name: "counter", reducer: counterReducer).timeline(for: log)
    do {
      _ = try timeline.stateJSON(at: 5)
      Issue.record("a state was rebuilt without the initial state")
    } catch {
      #expect(error.location == "new.jsonl:1")
      #expect(
        error.message
          == "the file's initial state (the state after action 3, which its header says follows "
          + #"in a "state" record) is not in the file"#)
      #expect(error.hint?.contains("cat session.1.jsonl session.jsonl > both.jsonl") == true)
    }
  }

  @Test func anOldReaderIsToldToUpgradeNotThatTheStateIsMissing() throws {
    // Version 2 is what such a header says: a reader of version 1 refuses it by its version.
    let header = CounterLogLines.header(firstSeq: 4, stateFollows: true)
    #expect(header.contains(#""version":2,"#))
    // A version 1 header that claims its state follows is not believed: it has no state.
    let v1 = header.replacingOccurrences(of: #""version":2"#, with: #""version":1"#)
    #expect(throws: ReplayError.self) {
      try ReplayLog(name: "v1.jsonl", contents: Self.bytes([v1, CounterLogLines.increment(4)]))
    }
  }

  @Test func aBundleJoinsAFileCutOffBeforeItsEndRecord() throws {
    // The old file stopped after its last action and half of its final state: the app died
    // during the background part of the rotation. The new file's state did arrive.
    let lines = [
      CounterLogLines.header(firstSeq: 1), CounterLogLines.increment(1),
      CounterLogLines.increment(2), CounterLogLines.increment(3),
      #"{"kind":"state","seq":3,"part":0,"parts":2,"text":"{\"cou"}"#,
      CounterLogLines.header(firstSeq: 4, stateFollows: true), CounterLogLines.increment(4),
      #"{"kind":"state","seq":3,"part":0,"parts":2,"text":"{\"cou"}"#,
      #"{"kind":"state","seq":3,"part":1,"parts":2,"text":"nt\":3}"}"#,
      CounterLogLines.increment(5),
    ]
    let log = try ReplayLog(name: "bundle.jsonl", contents: Self.bytes(lines), recovery: .strict)
    #expect(log.joinedFiles == 1)
    #expect(log.positions == 0...5)
    #expect(log.checkpointSeqs == [3])
    let timeline = try ReplayApp(name: "counter", reducer: counterReducer).timeline(for: log)
    #expect(try timeline.stateJSON(at: 5)["count"] == .number("5"))
    #expect(try Verifier.verify(timeline).isReproduced)

    // Without the new file's state it still joins: the actions continue.
    let cut = lines.filter { !$0.contains(#""part":1"#) }.enumerated().filter { $0.offset != 7 }
      .map(\.element)
    let joined = try ReplayLog(name: "cut.jsonl", contents: Self.bytes(cut), recovery: .strict)
    #expect(joined.lastSeq == 5)
    #expect(joined.checkpointSeqs.isEmpty)

    // A header that does not continue the seqs, or of another session, is still misplaced.
    var gap = lines
    gap[5] = CounterLogLines.header(firstSeq: 5, stateFollows: true)
    #expect(throws: ReplayError.self) {
      try ReplayLog(name: "gap.jsonl", contents: Self.bytes(gap), recovery: .strict)
    }
    var other = lines
    other[5] = other[5].replacingOccurrences(of: #""session":"s""#, with: #""session":"t""#)
    #expect(throws: ReplayError.self) {
      try ReplayLog(name: "other.jsonl", contents: Self.bytes(other), recovery: .strict)
    }
    // An ordinary header there (its state in it) is not a rotation cut short.
    var plain = lines
    plain[5] = CounterLogLines.header(firstSeq: 4)
    #expect(throws: ReplayError.self) {
      try ReplayLog(name: "plain.jsonl", contents: Self.bytes(plain), recovery: .strict)
    }
  }
}

/// `close()` racing a background rotation: an app with its own store may close the recorder on
/// one thread while another dispatches. Closing waits for the rotation's state, so every file
/// opens alone and the files join.
@Suite struct BackgroundRotationCloseTests {
  @Test func closingWhileARotationIsWrittenLeavesEveryFileWhole() throws {
    try withScratchDirectory { directory in
      // A state just over the inline limit and files of 30 KB: a rotation at almost every
      // action the background is idle for, so that closing often falls in the middle of one.
      let initial = BackgroundCheckpointTests.initial(items: 500)
      for round in 0..<60 {
        let path = directory.appendingPathComponent("race-\(round).jsonl").path
        let recorder = try Recorder<
          BackgroundCheckpointTests.BigState, BackgroundCheckpointTests.BigAction
        >(
          path: path, app: "big", initialState: initial,
          options: RecordingOptions(
            checkpointInterval: 0, rotation: Rotation(maxBytes: 30_000, keepFiles: 10_000)))
        let finished = DispatchSemaphore(value: 0)
        let dispatcher = Thread {
          var state = initial
          var n = 0
          while case .recording = recorder.status, n < 200_000 {
            n += 1
            recorder.reduce(&state, .add(n), with: BackgroundCheckpointTests.reducer.reduce)
          }
          finished.signal()
        }
        dispatcher.start()
        usleep(UInt32(500 + round % 20 * 250))
        recorder.close(finalState: initial)
        finished.wait()
        var bundle: [UInt8] = []
        for file in BackgroundRotationTests.files(of: path) {
          let log = try ReplayLog(path: file, recovery: .strict)
          #expect(log.hasEndRecord, "\(file)")
          bundle += Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        let joined = try ReplayLog(name: "race-\(round)", contents: bundle, recovery: .strict)
        #expect(joined.firstSeq == 1)
      }
    }
  }
}

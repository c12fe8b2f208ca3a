import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService
import Testing

@testable import ReplayCLI

/// The crash-isolation worker's typed protocol: requests and replies as `Codable` values, typed
/// errors across the process boundary, and requests that walk the log done whole in the worker.
@Suite struct WorkerProtocolTests {
  @Test(arguments: [
    WorkerRequest(.state(at: 12, aheadLimit: 40), skips: [3, 1], progress: true),
    WorkerRequest(.reach(at: 7, aheadLimit: nil)),
    WorkerRequest(.equal(a: 1, b: 2), skips: [5]),
    WorkerRequest(.run(seqs: [4, 2, 9])),
    WorkerRequest(.check(from: 3, through: 9)),
    WorkerRequest(.verify),
    WorkerRequest(.states(from: 10, through: 1_033, maxBytes: 4 << 20)),
    WorkerRequest(.profile(through: 37, passes: 3, top: 10, type: nil)),
    WorkerRequest(.profile(through: 340, passes: 1, top: 0, type: "move")),
  ])
  func aRequestReadsBackAsItWasSent(request: WorkerRequest) throws {
    #expect(try WorkerRequest(line: request.line) == request)
    // Written without the encoder, in the encoder's own form.
    #expect(request.line == (try RewindJSONEncoder().encode(request)))
    #expect(!request.line.contains(UInt8(ascii: "\n")), "one line")
  }

  @Test func theDoneReplyReadsAsTheEncoderWritesIt() throws {
    let written = try RewindJSONEncoder().encode(WorkerReply.done)
    guard case .done = try WorkerReply(line: written[...]) else {
      Issue.record("\(String(decoding: written, as: UTF8.self)) is not read as done")
      return
    }
    #expect(WorkerReply.done.line == written + [UInt8(ascii: "\n")])
  }

  @Test func skippedActionsAreSentInOrder() {
    let request = WorkerRequest(.verify, skips: [9, 2, 5])
    #expect(request.skips == [2, 5, 9])
  }

  @Test func aRequestThatDoesNotReadSaysSo() {
    #expect {
      _ = try WorkerRequest(line: Array(#"{"operation":{"explode":{}},"skips":[]}"#.utf8))
    } throws: { error in
      guard case ReplayError.encodingFailed(let what, _) = error else { return false }
      return what == "worker request"
    }
  }

  /// The error the worker threw is the error the parent throws: every fact of it.
  @Test func aFailureCarriesItsTypedErrorAcrossTheBoundary() throws {
    let crash = CrashReport(
      seq: 38, type: "move", line: 42, signal: "SIGILL", message: "Index out of range",
      messageLocation: "Swift/Array.swift:1350",
      frames: [.init(function: "todoReducer", file: "Todo.swift", line: 90)], foldedFrames: 3)
    let errors: [ReplayError] = [
      .actionDecodingFailed(
        path: "a.jsonl", line: 9, seq: 8, type: "rename", codingPath: "rename.id",
        reason: "expected a number"),
      .fault(
        LogFault(
          path: "a.jsonl", line: 4, byteOffset: 310,
          reason: .invalidJSON(
            JSONParseError(offset: 12, reason: .unexpectedByte(0x7D, expected: "a value")))),
        recovery: .tail, intactActions: 2, droppedLines: 3),
      .reducerCrashed(crash),
      .positionOutOfRange(99, valid: 0...40),
    ]
    for error in errors {
      let line = WorkerReply.failed(error).line
      #expect(line.last == UInt8(ascii: "\n"))
      guard case .failed(let read) = try WorkerReply(line: line.dropLast()) else {
        Issue.record("not a failure: \(String(decoding: line, as: UTF8.self))")
        continue
      }
      #expect(read.description == error.description)
      #expect(read.location == error.location)
      if case .reducerCrashed(let report) = read { #expect(report == crash) }
    }
  }

  @Test func statesComeBackAsTheirTextsInOneReply() throws {
    let texts = [Array(#"{"a":[1,2,{"b":"]}"}]}"#.utf8), Array("[]".utf8), Array("3".utf8)]
    let line = WorkerReply.statesLine(texts)
    #expect(try WorkerReply.stateTexts(in: line.dropLast()) == texts)
    // The texts are not read again, but how the reply cuts them apart is checked.
    let malformed = [
      (#"{"lengths":[3,9],"states":[123,4]}"#, "byte 31 of a batch of states: state 1 is cut off"),
      (#"{"lengths":[0],"states":[]}"#, "byte 25 of a batch of states: state 0 is empty"),
      (
        #"{"lengths":[1,1],"states":[12]}"#,
        "byte 28 of a batch of states: state 1 does not follow a comma"
      ),
      (
        #"{"lengths":[1],"states":[1,2]}"#,
        "byte 26 of a batch of states: it does not end after its last state"
      ),
    ]
    for (line, reason) in malformed {
      #expect {
        _ = try WorkerReply.stateTexts(in: Array(line.utf8)[...])
      } throws: { error in
        guard case ReplayError.encodingFailed(what: "worker reply", let said) = error else {
          return false
        }
        return said == reason
      }
    }
    let failed = WorkerReply.failed(.noActions(path: "x.jsonl", position: 0)).line
    #expect {
      _ = try WorkerReply.stateTexts(in: failed.dropLast())
    } throws: { error in
      guard case ReplayError.noActions = error else { return false }
      return true
    }
  }

  /// `verify` in a worker is one request, not one per action, and says what it says in process.
  @Test func verifyWalksTheLogInOneRequest() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let path = PowerTools.fixture("todo-session.jsonl")
    let log = try ReplayLog(path: path)
    let app = try #require(ReplayApp.recording(log.header, among: ReplayRun.apps))
    let local = try app.timeline(for: log, usesCheckpoints: false)
    let isolated = IsolatedTimeline(local: local, recovery: .tail, usesCheckpoints: false)
    let report = try Verifier.verify(isolated)
    #expect(isolated.requestsSent == 1)
    let here = try Verifier.verify(try app.timeline(for: log, usesCheckpoints: false))
    #expect(report.isReproduced && here.isReproduced)
    #expect(report.checkpointsCompared == here.checkpointsCompared)
    #expect(report.checkpointsCompared == log.checkpointSeqs.count)
  }

  /// `profile` in a worker is one request, timed there, and counts what it counts in process.
  @Test func profileTimesTheLogInOneRequest() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let log = try ReplayLog(path: PowerTools.fixture("todo-session.jsonl"))
    let app = try #require(ReplayApp.recording(log.header, among: ReplayRun.apps))
    let isolated = IsolatedTimeline(local: try app.timeline(for: log), recovery: .tail)
    let profile = try isolated.actionProfile(through: 340, passes: 2, top: 4, type: nil)
    #expect(isolated.requestsSent == 1)
    let here = try app.timeline(for: log).actionProfile(
      through: 340, passes: 1, top: 4, type: nil)
    #expect(profile.passes == 2)
    #expect(profile.timed == 340)
    #expect(profile.slowest.count == 4)
    #expect(
      Dictionary(uniqueKeysWithValues: profile.types.map { ($0.type, $0.replayed.count) })
        == Dictionary(uniqueKeysWithValues: here.types.map { ($0.type, $0.replayed.count) }))
  }

  /// An action that no longer decodes, found in the worker, is reported with its own error.
  @Test func anUndecodableActionFoundInTheWorkerIsTyped() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let directory = try PowerTools.temporaryDirectory()
    var lines = try String(
      contentsOfFile: PowerTools.fixture("todo-session.jsonl"), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    let renamed =
      #"{"kind":"action","seq":8,"time":2.000000,"type":"rename","action":{"rename":{"id":"one","title":"Fix the bike"}}}"#
    lines[8] = String(decoding: HostileLog.checksummed(Array(renamed.utf8)), as: UTF8.self)
    let path = directory.appendingPathComponent("undecodable.jsonl").path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let opened = try OpenedLog(
      path: path, recovery: .tail, apps: ReplayRun.apps, usesCheckpoints: false,
      isolation: .worker(interactive: false))
    let timeline = try #require(opened.timeline as? IsolatedTimeline)
    let report = try Verifier.verify(timeline)
    #expect(timeline.requestsSent == 1)
    #expect(report.undecodable.map(\.seq) == [8])
    guard
      case .actionDecodingFailed(_, let line, let seq, let type, let codingPath, _) =
        report.undecodable.first?.error
    else {
      Issue.record("not typed: \(String(describing: report.undecodable.first?.error))")
      return
    }
    #expect((line, seq, type) == (9, 8, "rename"))
    #expect(codingPath.contains("id"), "\(codingPath)")
  }

  /// The exports' walk: states a batch at a time, the same texts as one at a time, and a crash
  /// on the way thrown at its own position after every state before it.
  @Test func aWalkOverEveryStateReadsBatchesAndStopsAtTheCrash() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let path = PowerTools.fixture("todo-crash.jsonl")
    let opened = try OpenedLog(
      path: path, recovery: .tail, apps: ReplayRun.apps, isolation: .worker(interactive: false))
    let isolated = try #require(opened.timeline as? IsolatedTimeline)
    let local = try #require(opened.localTimeline)
    let log = opened.log
    var walk = StateTextWalk(log: log, timeline: isolated, through: log.positions.upperBound)
    var crash: CrashReport?
    var texts: [[UInt8]] = []
    for position in log.positions {
      do throws(DebuggerError) {
        texts.append(try walk.text(at: position))
      } catch {
        guard case .replay(.reducerCrashed(let report)) = error else { throw error }
        #expect(position == 38)
        crash = report
        break
      }
    }
    // Only the states before the crash are rebuilt here: the reducer traps on action 38.
    #expect(texts.count == 38)
    for (position, text) in zip(log.positions, texts) {
      #expect(text == (try local.stateJSONText(at: position)), "position \(position)")
    }
    #expect(crash?.seq == 38)
    // One batch that met the crash, then one request a state up to it.
    #expect(isolated.requestsSent < 45, "\(isolated.requestsSent)")
  }

  @Test func aWalkWithoutACrashTakesOneRequestABatch() throws {
    try PowerTools.useReplayBinaryAsWorker()
    let opened = try OpenedLog(
      path: PowerTools.fixture("todo-session.jsonl"), recovery: .tail, apps: ReplayRun.apps,
      isolation: .worker(interactive: false))
    let isolated = try #require(opened.timeline as? IsolatedTimeline)
    let log = opened.log
    var walk = StateTextWalk(log: log, timeline: isolated, through: log.positions.upperBound)
    var size = 0
    for position in log.positions { size += try walk.text(at: position).count }
    #expect(size < StateTextWalk.batchBytes, "the fixture's states fit in one batch")
    #expect(isolated.requestsSent == 1)
  }
}

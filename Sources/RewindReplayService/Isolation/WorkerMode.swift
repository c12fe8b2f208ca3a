import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The child side of crash-isolated replay: `replay __worker LOG RECOVERY [--no-checkpoints]
/// [--expect LENGTH:CRC [--lines-checked]] [--ahead PATH]` reads one ``WorkerRequest`` per
/// line on stdin and answers one ``WorkerReply`` line on stdout (``WorkerInput``). A reducer
/// that traps kills only this process; what it leaves on stderr (the runtime's message, the
/// crash reporter's note of the action, the backtracer's report) becomes the parent's
/// ``CrashReport``. Any other failure is answered with its typed ``ReplayError``.
///
/// With ``WorkerRequest/progress``, a long rebuild first writes
/// ``WorkerReply/progress(done:total:)`` lines.
///
/// With `--ahead PATH` (a session's worker), requests may also come through the memory at `PATH`
/// (``WorkerSharedMemory``), and after answering `state` or `reach` the worker rebuilds the
/// states that follow while no request waits, telling the parent there how far it got
/// (``WorkerRunAhead``).
package enum WorkerMode {
  package static let command = "__worker"
  package static let noCheckpoints = "--no-checkpoints"
  /// Followed by `LENGTH:CRC` (hexadecimal): the bytes the parent read, which the worker's file
  /// must still start with (a log being recorded may have grown since).
  package static let expect = "--expect"
  /// Followed by the path of the ``WorkerSharedMemory``.
  package static let ahead = "--ahead"
  /// With ``expect``: the parent's open found no fault in the bytes it read (each line's
  /// checksum and JSON checked), so the worker need not check each line's JSON again
  /// (``open(_:recovery:expected:linesChecked:)``).
  package static let linesChecked = "--lines-checked"

  package static func run(_ arguments: [String], apps: [ReplayApp]) -> Int32 {
    guard arguments.count >= 2, let recovery = RecoveryMode(rawValue: arguments[1]) else {
      return refuse("usage: \(command) LOG RECOVERY [\(noCheckpoints)] [\(expect) LENGTH:CRC]")
    }
    let options = Array(arguments.dropFirst(2))
    let usesCheckpoints = !options.contains(noCheckpoints)
    var expected: (length: Int, checksum: UInt32)?
    if let index = options.firstIndex(of: expect), index + 1 < options.count {
      let parts = options[index + 1].split(separator: ":")
      if parts.count == 2, let length = Int(parts[0]), let checksum = UInt32(parts[1], radix: 16) {
        expected = (length, checksum)
      }
    }
    let timeline: any ReplayTimeline
    var runAhead: WorkerRunAhead?
    var shared: SharedMemory?
    do {
      let log = try open(
        arguments[0], recovery: recovery, expected: expected,
        linesChecked: options.contains(linesChecked))
      // The parent read the file before this worker started: it must still start with the
      // bytes the parent read (a log still being recorded grows).
      if let expected, log.checksum(ofFirst: expected.length) != expected.checksum {
        return refuse(
          "the log changed since replay opened it: its first \(expected.length) bytes are no "
            + "longer the same; open it again")
      }
      guard let app = ReplayApp.recording(log.header, among: apps) else {
        return refuse("this binary does not know the app \"\(log.header.app)\"")
      }
      timeline = try app.timeline(for: log, usesCheckpoints: usesCheckpoints)
      StepMarker.setLog(arguments[0])
      if let index = options.firstIndex(of: ahead), index + 1 < options.count {
        switch WorkerSharedMemory.open(path: options[index + 1]) {
        case .success(let memory):
          // Mapped: the file can go (replay removes it too, if this worker never gets here).
          memory.removeFile()
          shared = memory
          runAhead = WorkerRunAhead(shared: memory, timeline: timeline)
        case .failure(let failure):
          return refuse(
            "cannot map \(options[index + 1]): \(Platform.describe(errno: failure.errno))")
        }
      }
    } catch {
      return refuse(error.message)
    }
    WorkerProtocol.warmUp()
    var input = WorkerInput(shared: shared)
    while let line = input.nextLine(idle: { runAhead?.step() ?? false }) {
      runAhead?.stop()
      respond(to: line, timeline: timeline, runAhead: runAhead)
    }
    return ExitStatus.success
  }

  /// The log at `path`, as the parent read it. When the parent found every line of the
  /// `expected` bytes sound (`linesChecked`), opened without checking each line's JSON again —
  /// about half the work of an open, which the parent waits for — and kept when its actions end
  /// where the parent's did: the same bytes (checked by the caller against `expected`), each line
  /// checked by the parent. Otherwise (the file grew since, or that open failed) opened with
  /// every check, as the parent opened it.
  private static func open(
    _ path: String, recovery: RecoveryMode, expected: (length: Int, checksum: UInt32)?,
    linesChecked: Bool
  ) throws(ReplayError) -> ReplayLog {
    if linesChecked, recovery == .tail, let expected {
      var limits = ReaderLimits.default
      limits.checksJSONAtOpen = false
      if let log = try? ReplayLog(path: path, recovery: recovery, limits: limits),
        log.indexedLength == expected.length
      {
        return log
      }
    }
    return try ReplayLog(path: path, recovery: recovery)
  }

  /// Says on stderr why the worker cannot start (the parent shows the last line).
  private static func refuse(_ reason: String) -> Int32 {
    var line = Array("replay worker: \(reason)\n".utf8)
    line.withUnsafeMutableBytes { _ = Platform.writeAll(2, UnsafeRawBufferPointer($0)) }
    return ExitStatus.trouble
  }

  private static func respond(
    to line: [UInt8], timeline: any ReplayTimeline, runAhead: WorkerRunAhead?
  ) {
    let reply: WorkerReply
    do throws(ReplayError) {
      let request = try WorkerRequest(line: line)
      timeline.progress = request.progress ? writeProgress : nil
      setSkips(request.skips, of: timeline)
      switch request.operation {
      case .state(let position, let aheadLimit):
        // The state's text goes out as it was encoded, without a tree in between.
        var text = runAhead?.preparedText(at: position) ?? []
        if text.isEmpty { text = try timeline.stateJSONText(at: position) }
        runAhead?.begin(at: position, upTo: aheadLimit)
        write(WorkerReply.stateLine(text))
        return
      case .reach(let position, let aheadLimit):
        try timeline.reach(position)
        runAhead?.begin(at: position, upTo: aheadLimit)
        reply = .done
      case .equal(let a, let b):
        reply = .equal(try timeline.statesEqual(a, b))
      case .run(let seqs):
        write(WorkerReply.stateLine(try timeline.stateJSONText(runningOnly: seqs)))
        return
      case .check(let first, let last):
        try timeline.checkActions(first...last)
        reply = .done
      case .verify:
        reply = .verified(try timeline.verifyWalk())
      case .history(let text, let first, let last, let limit):
        let path: JSONPath
        do { path = try JSONPath.parse(text) } catch {
          throw ReplayError.encodingFailed(what: "history request", reason: error.description)
        }
        reply = .history(
          try timeline.valueHistory(of: path, from: first, through: last, limit: limit))
      case .search(let query, let from, let backward, let present):
        reply = .found(
          position: try timeline.presenceChange(
            of: query, from: from, direction: backward ? .backward : .forward, isPresent: present))
      case .profile(let last, let passes, let top, let type):
        reply = .profiled(
          try timeline.actionProfile(through: last, passes: passes, top: top, type: type))
      case .states(let first, let last, let maxBytes):
        // Each checked as one JSON value here, while `replay` uses the batch before: it then
        // checks only how the reply cuts the texts apart (``WorkerReply/stateTexts(in:)``).
        write(
          WorkerReply.statesLine(
            try timeline.stateJSONTexts(from: first, through: last, maxBytes: maxBytes)))
        return
      }
    } catch {
      reply = .failed(error)
    }
    write(reply.line)
  }

  private static func setSkips(_ skips: [Int], of timeline: any ReplayTimeline) {
    let wanted = Set(skips)
    for seq in timeline.skippedSeqs.subtracting(wanted) { timeline.setSkipped(seq, false) }
    for seq in wanted.subtracting(timeline.skippedSeqs) { timeline.setSkipped(seq, true) }
  }

  private static let writeProgress: @Sendable (Int, Int) -> Void = { done, total in
    write(WorkerReply.progress(done: done, total: total).line)
  }

  private static func write(_ line: [UInt8]) {
    line.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
  }
}

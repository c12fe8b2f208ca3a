import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The limits and the width of a triage run.
package struct TriageLimits: Sendable, Equatable {
  /// How many workers replay logs at once (default: the cores).
  package var jobs: Int
  /// The longest a log may take, in seconds.
  package var timeLimitSeconds: Int
  /// The most resident memory a worker may hold while it replays a log, in bytes.
  package var memoryLimitBytes: Int

  /// The limits `triage` applies unless told otherwise: a worker per core, 60 s and 2 GiB per log.
  package init(
    jobs: Int = ProcessInfo.processInfo.activeProcessorCount, timeLimitSeconds: Int = 60,
    memoryLimitBytes: Int = 2 << 30
  ) {
    self.jobs = max(1, jobs)
    self.timeLimitSeconds = max(1, timeLimitSeconds)
    self.memoryLimitBytes = max(64 << 20, memoryLimitBytes)
  }
}

/// Replays many logs crash-safe, on ``TriageLimits/jobs`` threads of this process, each with a
/// worker process of its own (``TriageWorkerMode``) that replays log after log: a worker is
/// started again only after a log killed it (a reducer that trapped, a limit passed). Nothing a
/// log does stops the run: each log gets a ``TriageRecord``.
///
/// The workers run without the backtracer, so that a crash costs a process start and not the
/// reading of the binary's debug information (about ten times as long). The innermost app frame
/// of a crash is then found by replaying again, with the backtracer, the first and the last log
/// of each group of crashes with the same action type, message and trap site
/// (``TriageTrapSite``): when their frames agree the group shares it; when they differ, every
/// log of the group is replayed again for its own.
package enum TriageWorkers {
  /// The records of `targets`, in their order.
  ///
  /// - Parameters:
  ///   - recovery: How each log is read.
  ///   - progress: Called after each log with how many are done, from any of the threads.
  package static func triage(
    _ targets: [LogTarget], recovery: RecoveryMode, limits: TriageLimits,
    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
  ) -> [TriageRecord] {
    var records = Array(targets.indices).map {
      failed(targets[$0], kind: "cannot replay", reason: "no worker replayed it")
    }
    let first = replay(
      targets, indices: Array(targets.indices), recovery: recovery, limits: limits,
      reportsFrames: false, progress: progress)
    for (index, record) in first { records[index] = record }
    // The frames: of the first and last of each group (one action type, message and trap site),
    // then of all of a group they disagree on.
    var groups: [String: [Int]] = [:]
    for index in records.indices where records[index].ending == .crashed {
      let record = records[index]
      let key = [record.crashActionType, record.crashMessage, record.trapSite].map { $0 ?? "" }
      groups[key.joined(separator: "\u{0}"), default: []].append(index)
    }
    var samples: [Int] = []
    for members in groups.values {
      guard let head = members.first, let tail = members.last else { continue }
      samples += head == tail ? [head] : [head, tail]
    }
    let sampled = replay(
      targets, indices: samples, recovery: recovery, limits: limits, reportsFrames: true,
      progress: nil)
    var remaining: [Int] = []
    for members in groups.values {
      let frames = Set(
        members.compactMap { sampled[$0] }.filter { $0.ending == .crashed }.map { $0.crashFrame })
      if frames.count == 1, let frame = frames.first {
        for index in members { setFrame(frame, of: &records[index]) }
      } else {
        for index in members {
          if let record = sampled[index], record.ending == .crashed {
            setFrame(record.crashFrame, of: &records[index])
          } else {
            remaining.append(index)
          }
        }
      }
    }
    let rest = replay(
      targets, indices: remaining, recovery: recovery, limits: limits, reportsFrames: true,
      progress: nil)
    for (index, record) in rest where record.ending == .crashed {
      setFrame(record.crashFrame, of: &records[index])
    }
    return records
  }

  /// Sets a crash's frame, and its bucket with it.
  private static func setFrame(_ frame: String?, of record: inout TriageRecord) {
    record.crashFrame = frame
    record.bucket = TriageRecord.bucketKey(
      ending: .crashed, kind: nil,
      crash: (record.crashActionType, record.crashMessage, frame), app: record.app)
  }

  /// Replays the logs at `indices` of `targets` on the worker threads: their records by index.
  private static func replay(
    _ targets: [LogTarget], indices: [Int], recovery: RecoveryMode, limits: TriageLimits,
    reportsFrames: Bool, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  ) -> [Int: TriageRecord] {
    guard !indices.isEmpty else { return [:] }
    let next = Locked(0)
    let results = Locked([Int: TriageRecord]())
    let arguments = [
      TriageWorkerMode.command, recovery.rawValue, String(limits.timeLimitSeconds * 1000),
      String(limits.memoryLimitBytes),
    ]
    let group = DispatchGroup()
    for _ in 0..<min(limits.jobs, indices.count) {
      group.enter()
      Thread.detachNewThread {
        var worker: WorkerProcess?
        while true {
          let position = next.withLock { value -> Int in
            defer { value += 1 }
            return value
          }
          guard position < indices.count else { break }
          let index = indices[position]
          let record = triage(
            targets[index], worker: &worker, arguments: arguments, limits: limits,
            reportsFrames: reportsFrames)
          let done = results.withLock { records -> Int in
            records[index] = record
            return records.count
          }
          progress?(done, indices.count)
        }
        worker = nil
        group.leave()
      }
    }
    group.wait()
    return results.withLock { $0 }
  }

  /// Triages one log with `worker` (started when `nil`, dropped when the log ended it).
  private static func triage(
    _ target: LogTarget, worker: inout WorkerProcess?, arguments: [String], limits: TriageLimits,
    reportsFrames: Bool
  ) -> TriageRecord {
    let file: String
    var bundle: String?
    do {
      file = try target.singleFile {
        let path =
          NSTemporaryDirectory() + "replay-triage-\(ProcessInfo.processInfo.processIdentifier)-"
          + "\(UInt32.random(in: 0...UInt32.max)).jsonl"
        bundle = path
        return path
      }
    } catch {
      return failed(
        target, kind: "cannot join",
        reason: "\(target.path): its \(target.files.count) rotated files cannot be joined: "
          + "\(error.localizedDescription)")
    }
    defer { if let bundle { Platform.removeFile(bundle) } }
    if worker == nil {
      do {
        worker = try WorkerProcess(
          arguments: arguments, reportsFrames: reportsFrames, waitsBusily: false)
      } catch {
        return failed(
          target, kind: "cannot start a worker",
          reason: "cannot start a worker process to replay \(target.path): \(error)")
      }
    }
    guard let process = worker else {
      return failed(target, kind: "cannot start a worker", reason: "no worker process")
    }
    var facts: TriageFacts?
    var outcome = process.exchange(Array(JSONValue.string(file).jsonText.utf8), progress: nil)
    while true {
      switch outcome {
      case .reply(let line):
        guard let reply = try? TriageReply(line: line) else {
          worker = nil
          return failed(
            target, kind: "worker failed",
            reason: "\(target.path): the worker's answer was not understood: "
              + String(decoding: line.prefix(200), as: UTF8.self))
        }
        switch reply {
        case .opened(let read):
          facts = read
          outcome = process.receive(progress: nil)
        case .finished(let ending, let kind, let reason):
          return record(target, facts: facts, ending: ending, kind: kind, reason: reason)
        }
      case .died(let signal, let stderr):
        worker = nil
        return died(target, facts: facts, signal: signal, stderr: stderr, limits: limits)
      case .stuckAhead:
        worker = nil
        return failed(target, kind: "worker failed", reason: "\(target.path): the worker stopped")
      }
    }
  }

  /// The record of a log whose worker died while on it: the reducer's crash, or a limit.
  private static func died(
    _ target: LogTarget, facts: TriageFacts?, signal: String, stderr: String, limits: TriageLimits
  ) -> TriageRecord {
    if stderr.contains(TriageWatchdog.timeMarker) {
      return record(
        target, facts: facts, ending: .unreadable, kind: "time limit",
        reason: "\(target.path): replaying it took longer than the time limit of "
          + "\(limits.timeLimitSeconds) s (a reducer that does not return?); raise it with "
          + "--time-limit SECONDS")
    }
    if stderr.contains(TriageWatchdog.memoryMarker) {
      return record(
        target, facts: facts, ending: .unreadable, kind: "memory limit",
        reason: "\(target.path): replaying it took more than the memory limit of "
          + "\(limits.memoryLimitBytes >> 20) MiB; raise it with --memory-limit MB")
    }
    let report = CrashReport(workerStandardError: stderr, signal: signal)
    guard report.seq != nil else {
      let last = stderr.split(separator: "\n").last { !$0.hasPrefix("{") }.map(String.init)
      return record(
        target, facts: facts, ending: .unreadable, kind: "worker died",
        reason: "\(target.path): the worker replaying it died (\(signal)) outside the app's "
          + "reducer" + (last.map { ": \($0)" } ?? ""))
    }
    var crashed = record(target, facts: facts, ending: .crashed, kind: nil, reason: nil)
    crashed.crashActionType = report.type
    crashed.crashMessage = report.message
    crashed.crashFrame = TriageRecord.frameText(report)
    crashed.trapSite = TriageTrapSite.site(in: stderr)
    crashed.bucket = TriageRecord.bucketKey(
      ending: .crashed, kind: nil,
      crash: (crashed.crashActionType, crashed.crashMessage, crashed.crashFrame), app: facts?.app)
    return crashed
  }

  private static func record(
    _ target: LogTarget, facts: TriageFacts?, ending: TriageRecord.Ending, kind: String?,
    reason: String?
  ) -> TriageRecord {
    TriageRecord(
      path: target.path, app: facts?.app, build: facts?.build, session: facts?.session,
      ending: ending,
      bucket: TriageRecord.bucketKey(ending: ending, kind: kind, crash: nil, app: facts?.app),
      crashActionType: nil, crashMessage: nil, crashFrame: nil, actions: facts?.actions ?? 0,
      firstRecorded: facts?.firstRecorded, lastRecorded: facts?.lastRecorded, reason: reason,
      segments: target.files.count)
  }

  private static func failed(_ target: LogTarget, kind: String, reason: String) -> TriageRecord {
    record(target, facts: nil, ending: .unreadable, kind: kind, reason: reason)
  }
}

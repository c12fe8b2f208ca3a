import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The child side of `replay triage`: `replay __triage RECOVERY TIME_LIMIT_MS MEMORY_LIMIT_BYTES`
/// reads one log path per line on stdin (a JSON string) and replays each log in turn, from its
/// initial state through the app's reducer: one worker serves many logs. For each it answers
/// ``TriageReply/opened(_:)`` once the log is read (what its header says), then
/// ``TriageReply/finished(ending:kind:reason:)``.
///
/// A reducer that traps kills this process, as in ``WorkerMode``: what it leaves on stderr (the
/// crash reporter's note of the action, the backtracer's report) becomes the parent's
/// ``CrashReport`` of that log, and the parent starts another worker for the next. A log that
/// takes longer than the time limit, or lets the process grow past the memory limit, ends the
/// process too (``TriageWatchdog``), saying which on stderr.
package enum TriageWorkerMode {
  /// The first argument that selects this mode.
  package static let command = "__triage"

  /// Runs the worker until its input ends.
  package static func run(_ arguments: [String], apps: [ReplayApp]) -> Int32 {
    guard arguments.count == 3, let recovery = RecoveryMode(rawValue: arguments[0]),
      let timeLimit = UInt64(arguments[1]), let memoryLimit = Int(arguments[2])
    else {
      let usage =
        "replay triage worker: usage: \(command) RECOVERY TIME_LIMIT_MS MEMORY_LIMIT_BYTES\n"
      Array(usage.utf8).withUnsafeBytes { _ = Platform.writeAll(2, $0) }
      return ExitStatus.trouble
    }
    let watchdog = TriageWatchdog(
      timeLimitNanoseconds: timeLimit * 1_000_000, memoryLimitBytes: memoryLimit)
    watchdog.start()
    TriageTrapSite.install()
    let dates = ISO8601DateFormatter()
    var input = WorkerInput(waitsBusily: false)
    while let line = input.nextLine(idle: { false }) {
      guard let path = (try? JSONParser.parse(line))?.stringValue else { continue }
      watchdog.begin()
      triage(path, recovery: recovery, apps: apps, dates: dates)
      watchdog.end()
    }
    return ExitStatus.success
  }

  /// Reads and replays one log, writing its replies.
  private static func triage(
    _ path: String, recovery: RecoveryMode, apps: [ReplayApp], dates: ISO8601DateFormatter
  ) {
    let log: ReplayLog
    do { log = try ReplayLog(path: path, recovery: recovery) } catch {
      write(.finished(ending: .unreadable, kind: kind(of: error), reason: reason(error)))
      return
    }
    write(.opened(facts(of: log, dates: dates)))
    // The log's own path in the crash reporter's note, and no checkpoint trusted: every state
    // comes from the reducer.
    let opened = OpenedLog(log: log, apps: apps, usesCheckpoints: false)
    guard opened.app != nil else {
      let known = apps.map(\.name).joined(separator: ", ")
      write(
        .finished(
          ending: .unknownApp, kind: nil,
          reason: "\(path): this replay binary does not know the app \"\(log.header.app)\" "
            + "(it knows \(known)): triage it with a replay binary built with the app "
            + "(docs/embedding.md)"))
      return
    }
    guard let timeline = opened.timeline else {
      let error = opened.noTimelineReason ?? .noActions(path: path, position: 0)
      if case .appMismatch = error {
        write(.finished(ending: .unknownApp, kind: nil, reason: reason(error)))
      } else {
        write(.finished(ending: .unreadable, kind: kind(of: error), reason: reason(error)))
      }
      return
    }
    let replayed = opened.log
    guard !replayed.isInitialStateMissing else {
      let error = replayed.initialStateError
      write(.finished(ending: .unreadable, kind: kind(of: error), reason: reason(error)))
      return
    }
    do {
      if replayed.actionCount > 0 { try timeline.reach(replayed.lastSeq) }
    } catch {
      write(.finished(ending: .unreadable, kind: kind(of: error), reason: reason(error)))
      return
    }
    write(.finished(ending: replayed.isCutOff ? .stoppedElsewhere : .clean, kind: nil, reason: nil))
  }

  /// What the header and the last action say.
  private static func facts(of log: ReplayLog, dates: ISO8601DateFormatter) -> TriageFacts {
    let started = dates.date(from: log.header.recordedAt)
    var last: String?
    if let started {
      var seconds = 0.0
      if log.actionCount > 0, let time = try? log.action(at: log.lastSeq).time, time.isFinite {
        seconds = max(0, time)
      }
      last = LogComposer.timestamp(started.addingTimeInterval(seconds))
    }
    let build = log.header.build.flatMap { $0.isEmpty ? nil : $0.summary }
    return TriageFacts(
      app: log.header.app, build: build, session: log.header.session, actions: log.actionCount,
      firstRecorded: started.map(LogComposer.timestamp), lastRecorded: last)
  }

  /// The short name of what went wrong, the key of an `unreadable` bucket.
  package static func kind(of error: ReplayError) -> String {
    switch error {
    case .cannotOpen: return "cannot open"
    case .notARegularFile: return "not a file"
    case .fileTooLarge: return "too large"
    case .emptyLog: return "empty file"
    case .notARewindLog: return "not a Rewind log"
    case .unsupportedVersion: return "unsupported version"
    case .headerStateMissing: return "initial state missing"
    case .fault: return "damaged line"
    case .actionDecodingFailed: return "action no longer decodes"
    case .stateDecodingFailed: return "state no longer decodes"
    case .migrationFailed: return "migration failed"
    case .actionNotRecorded: return "action not recorded"
    default: return "cannot replay"
    }
  }

  /// The error's message with its location, as one line.
  package static func reason(_ error: ReplayError) -> String {
    var text = error.message
    if let location = error.location { text = "\(location): \(text)" }
    return text.replacingOccurrences(of: "\n", with: " ")
  }

  private static func write(_ reply: TriageReply) {
    reply.line.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
  }
}

/// What a log's header and last action say, sent before it is replayed (a reducer that kills
/// the worker leaves the parent these).
package struct TriageFacts: Sendable, Codable, Equatable {
  /// The app.
  package var app: String
  /// The build stamp as one line.
  package var build: String?
  /// The session id.
  package var session: String
  /// How many actions it holds.
  package var actions: Int
  /// When recording started.
  package var firstRecorded: String?
  /// When its last action was recorded.
  package var lastRecorded: String?
}

/// One reply of the triage worker (``TriageWorkerMode``), one JSON line.
package enum TriageReply: Sendable, Codable, Equatable {
  /// The log was read: what it says.
  case opened(TriageFacts)
  /// The log's replay ended without killing the worker: how it ended, the kind of trouble
  /// (an unreadable log's bucket) and why.
  case finished(ending: TriageRecord.Ending, kind: String?, reason: String?)

  /// The reply as one line of JSON, with its line feed.
  package var line: [UInt8] {
    var bytes =
      (try? RewindJSONEncoder().encode(self))
      ?? Array(#"{"finished":{"ending":"unreadable","kind":"cannot encode","reason":null}}"#.utf8)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  /// Reads a reply line (without its line feed).
  package init(line: ArraySlice<UInt8>) throws {
    self = try line.withUnsafeBytes {
      try RewindJSONDecoder().decode(TriageReply.self, from: $0, limits: .unlimited)
    }
  }
}

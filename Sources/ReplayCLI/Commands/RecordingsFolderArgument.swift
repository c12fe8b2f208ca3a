import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

/// A `LOG` argument that names a folder rather than a file: a recordings folder
/// (`RecordingsFolder`), whose sessions `info` lists and whose newest session every other command
/// opens — a session of several rotated files as one log, joined into a bundle in the temporary
/// folder; or any other folder of logs (``LogSearch``), whose logs `info` lists and whose most
/// recently written log every other command opens.
enum RecordingsFolderArgument {
  /// The folder's sessions, oldest first, when `path` is a folder holding at least one; `nil`
  /// for anything else (a folder without sessions is refused as a directory, as before).
  static func sessions(at path: String) -> [RecordedSession]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    let sessions = RecordingsFolder(path: path).sessions()
    return sessions.isEmpty ? nil : sessions
  }

  /// The log file to open for `path`, and a note saying which session of a folder it is. A
  /// session of several files is joined into a file of the temporary folder, added to
  /// `temporaryFiles` for the command to remove when it ends.
  static func resolve(
    _ path: String, temporaryFiles: TemporaryFiles
  ) -> (path: String, note: Diagnostic?) {
    guard let sessions = sessions(at: path), let newest = sessions.last else {
      return resolveAnyFolder(path, temporaryFiles: temporaryFiles)
    }
    var file = newest.files.last ?? path
    var joined = ""
    if newest.files.count > 1 {
      let bundle =
        NSTemporaryDirectory()
        + "replay-\(newest.id)-\(ProcessInfo.processInfo.processIdentifier)-"
        + "\(UInt32.random(in: 0...UInt32.max)).jsonl"
      if (try? newest.bundle(to: bundle)) != nil {
        temporaryFiles.add(bundle)
        file = bundle
        joined =
          ", its \(newest.files.count) rotated files joined in \(bundle) (removed when this "
          + "command ends)"
      } else {
        joined = ", its newest file only (the rotated files could not be joined)"
      }
    }
    let others = sessions.count == 1 ? "" : " of \(sessions.count)"
    return (
      file,
      Diagnostic(
        .note, at: nil,
        "\(path) is a recordings folder: opened its newest session\(others), "
          + "\(newest.id) (\(endingText(newest)))\(joined)",
        notes: [],
        hints: sessions.count == 1
          ? [] : [Diagnostic.Hint("replay info \(path)", comment: "lists every session")])
    )
  }

  /// The logs of a folder that is not a recordings folder (``LogSearch/folder(_:)``: every
  /// `.jsonl` file under it), when it is a folder holding any; `nil` otherwise.
  static func logs(at path: String) -> [LogTarget]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      isDirectory.boolValue
    else { return nil }
    let logs = LogSearch.folder(path)
    return logs.isEmpty ? nil : logs
  }

  /// ``resolve(_:temporaryFiles:)`` for any other folder of logs: its most recently written log
  /// (a rotated session's files joined), with a note saying which; `path` itself for anything
  /// else.
  private static func resolveAnyFolder(
    _ path: String, temporaryFiles: TemporaryFiles
  ) -> (path: String, note: Diagnostic?) {
    guard let logs = logs(at: path),
      let newest = logs.max(by: {
        ($0.modified ?? .distantPast, $1.path) < ($1.modified ?? .distantPast, $0.path)
      })
    else { return (path, nil) }
    var file = newest.files.last ?? newest.path
    var joined = ""
    if newest.files.count > 1 {
      let bundle =
        NSTemporaryDirectory() + "replay-\(ProcessInfo.processInfo.processIdentifier)-"
        + "\(UInt32.random(in: 0...UInt32.max)).jsonl"
      if let written = try? newest.singleFile(joiningInto: { bundle }) {
        temporaryFiles.add(written)
        file = written
        joined =
          ", its \(newest.files.count) rotated files joined in \(written) (removed when this command ends)"
      }
    }
    let others = logs.count == 1 ? "its only log" : "the newest of its \(logs.count) logs"
    return (
      file,
      Diagnostic(
        .note, at: nil, "\(path) is a folder of logs: opened \(others), \(newest.path)\(joined)",
        notes: [],
        hints: logs.count == 1
          ? []
          : [
            Diagnostic.Hint("replay info \(path)", comment: "lists every log"),
            Diagnostic.Hint("replay triage \(path)", comment: "replays them all and groups them"),
          ])
    )
  }

  /// `info FOLDER` for any folder of logs: one row per log (path, app, actions, files, size,
  /// how it ended), sorted by path, read without replaying.
  static func text(anyFolder path: String, _ logs: [LogTarget], recovery: RecoveryMode) -> String {
    let rows = logs.map { row(of: $0, recovery: recovery) }
    let total = rows.reduce(0) { $0 + $1.bytes }
    var lines = [
      "folder \(inert(path)): \(logs.count) log\(logs.count == 1 ? "" : "s"), "
        + CommandInvocation.byteText(total)
    ]
    let cells = rows.map { row -> [String] in
      [
        inert(row.path), inert(row.app ?? "?"),
        row.actions == 1 ? "1 action" : "\(row.actions) actions",
        row.files == 1 ? "1 file" : "\(row.files) files",
        CommandInvocation.byteText(row.bytes), row.ending,
      ]
    }
    lines += TextTable.lines(cells).map { "  " + $0 }
    lines.append(
      "`replay info FILE` describes one log; `replay triage \(inert(path))` replays them all and "
        + "groups them by how they ended.")
    return lines.joined(separator: "\n")
  }

  /// `info FOLDER --json` for any folder of logs.
  static func json(anyFolder path: String, _ logs: [LogTarget], recovery: RecoveryMode) -> JSONValue
  {
    .object([
      JSONMember("folder", .string(path)),
      JSONMember(
        "logs",
        .array(
          logs.map { target in
            let row = row(of: target, recovery: recovery)
            return .object([
              JSONMember("path", .string(row.path)),
              JSONMember("app", row.app.map(JSONValue.string) ?? .null),
              JSONMember("actions", .number(String(row.actions))),
              JSONMember("bytes", .number(String(row.bytes))),
              JSONMember("files", .array(target.files.map(JSONValue.string))),
              JSONMember("ending", .string(row.ending)),
            ])
          })),
    ])
  }

  /// What `info FOLDER` shows of one log of any folder: read (not replayed), its files joined.
  private static func row(
    of target: LogTarget, recovery: RecoveryMode
  ) -> (path: String, app: String?, actions: Int, files: Int, bytes: Int, ending: String) {
    let bytes = target.files.reduce(0) { sum, file in
      sum + ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0)
    }
    if let session = target.session {
      return (
        target.path, session.app, session.actionCount, target.files.count, bytes,
        endingText(session)
      )
    }
    do {
      let log = try ReplayLog(path: target.path, recovery: recovery)
      let ending: String
      if let signal = log.signal {
        ending = "crashed with \(inert(signal.signal))"
      } else {
        ending = log.hasEndRecord ? "closed" : "cut off"
      }
      return (target.path, log.header.app, log.actionCount, 1, bytes, ending)
    } catch {
      return (target.path, nil, 0, 1, bytes, "unreadable: \(TriageWorkerMode.kind(of: error))")
    }
  }

  /// `info FOLDER`: one row per session, oldest first.
  static func text(_ path: String, _ sessions: [RecordedSession]) -> String {
    let total = sessions.reduce(0) { $0 + $1.byteCount }
    var lines = [
      "recordings folder \(inert(path)): \(sessions.count) session\(sessions.count == 1 ? "" : "s"), "
        + CommandInvocation.byteText(total)
    ]
    let rows = sessions.map { session -> [String] in
      [
        inert(session.id), inert(session.app ?? "?"),
        session.actionCount == 1 ? "1 action" : "\(session.actionCount) actions",
        session.files.count == 1 ? "1 file" : "\(session.files.count) files",
        CommandInvocation.byteText(session.byteCount), endingText(session),
      ]
    }
    lines += TextTable.lines(rows).map { "  " + $0 }
    for session in sessions where session.actionCount > 0 {
      let firstSeq = session.lastSeq - session.actionCount + 1
      guard firstSeq > 1 else { continue }
      lines.append(
        "\(inert(session.id)) holds seq \(firstSeq)…\(session.lastSeq) only: rotation "
          + "(Rotation.keepFiles) deleted the older files, with actions 1…\(firstSeq - 1)")
    }
    lines.append(
      "`replay \(inert(path))` opens the newest; `replay info FILE` describes one session.")
    return lines.joined(separator: "\n")
  }

  /// `info FOLDER --json`.
  static func json(_ path: String, _ sessions: [RecordedSession]) -> JSONValue {
    .object([
      JSONMember("folder", .string(path)),
      JSONMember(
        "sessions",
        .array(
          sessions.map { session in
            var ending: String
            var signal: JSONValue = .null
            switch session.ending {
            case .closed: ending = "closed"
            case .crashed(let name):
              ending = "crashed"
              signal = .string(name)
            case .cutOff: ending = "cutOff"
            case .unreadable: ending = "unreadable"
            }
            return .object([
              JSONMember("id", .string(session.id)),
              JSONMember("app", session.app.map(JSONValue.string) ?? .null),
              JSONMember(
                "startedAt",
                session.startedAt.map { .string(ISO8601DateFormatter().string(from: $0)) } ?? .null),
              JSONMember("actions", .number(String(session.actionCount))),
              JSONMember(
                "firstSeq",
                .number(
                  String(session.actionCount > 0 ? session.lastSeq - session.actionCount + 1 : 0))),
              JSONMember("lastSeq", .number(String(session.lastSeq))),
              JSONMember("bytes", .number(String(session.byteCount))),
              JSONMember("files", .array(session.files.map(JSONValue.string))),
              JSONMember("ending", .string(ending)),
              JSONMember("signal", signal),
            ])
          })),
    ])
  }

  static func endingText(_ session: RecordedSession) -> String {
    switch session.ending {
    case .closed: return "closed"
    case .crashed(let signal): return "crashed with \(inert(signal))"
    case .cutOff: return "cut off"
    case .unreadable: return "not a Rewind log"
    }
  }
}

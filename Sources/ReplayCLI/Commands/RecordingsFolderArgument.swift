import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService

/// A `LOG` argument that names a recordings folder (`RecordingsFolder`) rather than a file:
/// `info` lists its sessions, and every other command opens its newest session — a session of
/// several rotated files as one log, joined into a bundle in the temporary folder.
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
    guard let sessions = sessions(at: path), let newest = sessions.last else { return (path, nil) }
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
    let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
    for row in rows {
      let cells = row.enumerated().map { index, cell in
        index == row.count - 1
          ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
      }
      lines.append("  " + cells.joined(separator: "  "))
    }
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

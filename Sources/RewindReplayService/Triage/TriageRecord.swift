import RewindJSON
import RewindReplay

/// What `replay triage` found for one log: the line `--records` writes (docs/triage.md, *Records*),
/// the map step of a triage run over many machines.
package struct TriageRecord: Sendable, Equatable {
  /// How the log ended, as replay sees it.
  package enum Ending: String, Sendable, Codable, CaseIterable {
    /// Replaying it crashes the app's reducer.
    case crashed
    /// Cut off, but its last action replays: the app stopped somewhere else.
    case stoppedElsewhere = "stopped-elsewhere"
    /// Closed with an end record, and it replays whole.
    case clean
    /// Not a log replay can read, or its replay passed a limit (``reason`` says which).
    case unreadable
    /// A log of an app this replay binary was not built with.
    case unknownApp = "unknown-app"
  }

  /// The log as found; a rotated session's newest file.
  package var path: String
  /// The header's app.
  package var app: String?
  /// The header's build stamp, as one line (`1.4.2 (87), schema 3`).
  package var build: String?
  /// The header's session id.
  package var session: String?
  /// How it ended.
  package var ending: Ending
  /// The key of the bucket it falls in (``bucketKey(ending:kind:crash:app:)``).
  package var bucket: String
  /// The type of the action the reducer crashed on.
  package var crashActionType: String?
  /// The runtime's fatal-error message.
  package var crashMessage: String?
  /// The innermost frame of the app's own code: `function (File.swift:line)`.
  package var crashFrame: String?
  /// How many actions it holds.
  package var actions: Int
  /// When recording started (ISO-8601, UTC).
  package var firstRecorded: String?
  /// When its last action was recorded (ISO-8601, UTC, whole seconds).
  package var lastRecorded: String?
  /// Why it is unreadable or of an unknown app.
  package var reason: String?
  /// How many files it is made of.
  package var segments: Int
  /// Where in the binary the reducer trapped (``TriageTrapSite``), to group crashes before their
  /// frames are read; not one of the record's keys.
  package var trapSite: String? = nil

  /// The record's one JSON line: every key, in the documented order, `null` where none applies.
  package var jsonValue: JSONValue {
    func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    return .object([
      JSONMember("path", .string(path)),
      JSONMember("app", text(app)),
      JSONMember("build", text(build)),
      JSONMember("session", text(session)),
      JSONMember("ending", .string(ending.rawValue)),
      JSONMember("bucket", .string(bucket)),
      JSONMember("crashActionType", text(crashActionType)),
      JSONMember("crashMessage", text(crashMessage)),
      JSONMember("crashFrame", text(crashFrame)),
      JSONMember("actions", .number(String(actions))),
      JSONMember("firstRecorded", text(firstRecorded)),
      JSONMember("lastRecorded", text(lastRecorded)),
      JSONMember("reason", text(reason)),
      JSONMember("segments", .number(String(segments))),
    ])
  }

  /// The names of ``jsonValue``'s keys, in order.
  package static let keys = [
    "path", "app", "build", "session", "ending", "bucket", "crashActionType", "crashMessage",
    "crashFrame", "actions", "firstRecorded", "lastRecorded", "reason", "segments",
  ]

  /// The bucket key of a log: `crash TYPE: MESSAGE @ FRAME` for a crash, `unreadable: KIND`,
  /// `unknown-app: APP`, else the ending's name.
  package static func bucketKey(
    ending: Ending, kind: String?, crash: (type: String?, message: String?, frame: String?)?,
    app: String?
  ) -> String {
    switch ending {
    case .crashed:
      return "crash \(crash?.type ?? "?"): \(crash?.message ?? "no message") @ "
        + (crash?.frame ?? "no app frame")
    case .unreadable: return "unreadable: \(kind ?? "unknown reason")"
    case .unknownApp: return "unknown-app: \(app ?? "?")"
    case .stoppedElsewhere, .clean: return ending.rawValue
    }
  }

  /// A crash report's innermost app frame as the records name it: `function (File.swift:line)`,
  /// the file by its name only (the same in every checkout), or the function alone.
  package static func frameText(_ report: CrashReport) -> String? {
    guard let frame = report.frames.first else { return nil }
    guard let file = frame.file else { return frame.function }
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return "\(frame.function) (\(name)\(frame.line.map { ":\($0)" } ?? ""))"
  }
}

import Rewind
import RewindJSON

/// The first line of a log: who recorded it, with which types, and the state before its first
/// action.
public struct LogHeader: Sendable {
  /// The format version (1).
  public var version: Int
  /// The recording session's id (shared by every rotated file of one session).
  public var session: String
  /// The app's name, which selects the reducer (`"todo"`).
  public var app: String
  /// The name of the app's action type when it was recorded (`"TodoAction"`).
  public var actionType: String
  /// The name of the app's state type when it was recorded (`"TodoState"`).
  public var stateType: String
  /// When this file was started, as written (ISO 8601): the start of the recording, or of the
  /// rotation that began this file.
  public var recordedAt: String
  /// The `seq` of the first action in this file (1, or later for a rotated file).
  public var firstSeq: Int
  /// Which rotated file of the session this is (0 for the first).
  public var segment: Int
  /// The recorder's checkpoint interval (0 when off), when the header says.
  public var checkpointInterval: Int?
  /// The state before the action `firstSeq`, as JSON. When the header's state follows
  /// (``stateFollows``), ``ReplayLog`` sets it from that record as it opens the file.
  public var state: JSONValue
  /// Whether the state is not in the header but in a `state` record for `firstSeq - 1` later in
  /// the file: a file begun by a rotation whose state was encoded in the background (format
  /// version 2, docs/log-format.md).
  public var stateFollows: Bool
  /// Which build of the app recorded it (`"build"`), when the recorder wrote a stamp; `nil` for
  /// logs from before stamps (they read as before).
  public var build: BuildStamp?

  /// Reads a header from a parsed first line.
  /// - Throws: `ReplayError.notARewindLog` or `.unsupportedVersion`.
  init(_ value: JSONValue, path: String) throws(ReplayError) {
    guard case .object = value else {
      throw .notARewindLog(
        path: path, reason: "the first line is a JSON \(value.kindName), not an object")
    }
    guard value["kind"]?.stringValue == LogFormat.Kind.header.rawValue else {
      let kind = value["kind"]?.stringValue.map { "\"\($0)\"" } ?? "missing"
      throw .notARewindLog(
        path: path, reason: "the first line's \"kind\" is \(kind), not \"header\"")
    }
    guard value["format"]?.stringValue == LogFormat.name else {
      throw .notARewindLog(path: path, reason: "the header's \"format\" is not \"rewind\"")
    }
    guard let version = value["version"]?.intValue else {
      throw .notARewindLog(path: path, reason: "the header has no integer \"version\"")
    }
    guard version <= LogFormat.version else {
      throw .unsupportedVersion(path: path, version: version, supported: LogFormat.version)
    }
    guard version >= 1 else {
      throw .notARewindLog(
        path: path, reason: "the header's \"version\" \(version) is not 1 or more")
    }
    func string(_ key: String) throws(ReplayError) -> String {
      guard let text = value[key]?.stringValue else {
        throw .notARewindLog(path: path, reason: "the header has no string \"\(key)\"")
      }
      return text
    }
    self.version = version
    session = try string("session")
    app = try string("app")
    actionType = try string("actionType")
    stateType = try string("stateType")
    recordedAt = value["recordedAt"]?.stringValue ?? ""
    guard let first = value["firstSeq"]?.intValue, first >= 1, first < Int.max / 2 else {
      throw .notARewindLog(path: path, reason: "the header has no positive integer \"firstSeq\"")
    }
    firstSeq = first
    segment = value["segment"]?.intValue ?? 0
    checkpointInterval = value["checkpointInterval"]?.intValue
    stateFollows = value["stateFollows"]?.boolValue == true && version >= 2
    if let state = value["state"] {
      self.state = state
      stateFollows = false
    } else if stateFollows {
      state = .null
    } else {
      throw .notARewindLog(path: path, reason: "the header has no \"state\"")
    }
    if let stamp = value["build"], case .object = stamp {
      let read = BuildStamp(json: stamp)
      build = read.isEmpty ? nil : read
    }
  }
}

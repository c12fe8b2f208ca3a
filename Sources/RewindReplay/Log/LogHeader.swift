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
  /// (``stateFollows``), ``ReplayLog`` sets it from that record as it opens the file (`null`
  /// while it follows: ``ReplayLog/isInitialStateMissing``).
  ///
  /// A header that ``ReplayLog`` read keeps its state as the text the file holds (checked as JSON
  /// against the log's limits when it was opened) and builds this tree each time it is read, so
  /// that a large state costs a tree's memory only while one is in use: read it once and keep
  /// the value. Setting it stores the value given.
  public var state: JSONValue {
    get {
      switch storedState {
      case .value(let value): return value
      // The text was read as JSON against the same limits when the log was opened: it parses.
      case .text(let text, let limits):
        return (try? JSONParser.parse(text, limits: limits)) ?? .null
      case .inFile(let file, let range, let limits):
        return
          (try? JSONParser.parse(file.slice(range.lowerBound, range.upperBound), limits: limits))
          ?? .null
      }
    }
    set { storedState = .value(newValue) }
  }

  /// Calls `body` with the JSON text of ``state`` as the file holds it, when the header keeps it
  /// as text (a header ``ReplayLog`` read, its state not migrated since): what a replay decodes
  /// the initial state from without building a tree. `nil` when it keeps a tree.
  package func withStateText<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
    stateText?.withUnsafeBytes(body)
  }

  /// The text ``withStateText(_:)`` gives, kept (where the file holds it, without a copy), or
  /// `nil` when the header keeps a tree.
  package var stateText: StateText? {
    switch storedState {
    case .value: return nil
    case .text(let text, _): return StateText(text)
    case .inFile(let file, let range, _): return StateText(in: file, at: range)
    }
  }

  /// Keeps `text` — JSON already checked against `limits` — as the state.
  package mutating func setState(text: [UInt8], limits: JSONLimits) {
    storedState = .text(text, limits)
  }

  /// How ``state`` is kept: as a tree, as its text, or as where its text is in the log's bytes
  /// (read once and never changed).
  private enum StoredState: Sendable {
    case value(JSONValue)
    case text([UInt8], JSONLimits)
    case inFile(LogBytes, Range<Int>, JSONLimits)
  }
  private var storedState: StoredState
  /// Whether the state is not in the header but in a `state` record for `firstSeq - 1` later in
  /// the file: a file begun by a rotation whose state was encoded in the background (format
  /// version 2, docs/log-format.md).
  public var stateFollows: Bool
  /// Which build of the app recorded it (`"build"`), when the recorder wrote a stamp; `nil` for
  /// logs from before stamps (they read as before).
  public var build: BuildStamp?

  /// The members a header's reader looks at, besides `state`.
  private static let memberNames: Set<String> = [
    "kind", "format", "version", "session", "app", "actionType", "stateType", "recordedAt",
    "firstSeq", "segment", "checkpointInterval", "stateFollows", "build",
  ]

  /// Reads a header from its line, JSON already checked against `limits`: only the members a
  /// header has are built, and the state is kept as its text (see ``state``), so that neither a
  /// large state nor a hostile line's millions of other members become a tree.
  /// - Throws: `ReplayError.notARewindLog` or `.unsupportedVersion`.
  ///
  /// - Parameter file: The log's bytes and the line's offset in them: the state is then kept as
  ///   where its text is, not copied; `nil` to keep a copy of the state's text.
  init(
    checkedLine line: UnsafeRawBufferPointer, path: String, limits: JSONLimits,
    file: (bytes: LogBytes, offset: Int)?
  ) throws(ReplayError) {
    let first = line.first { $0 > UInt8(ascii: " ") }
    guard first == UInt8(ascii: "{") else {
      let kinds: [UInt8: String] = [
        UInt8(ascii: "["): "array", UInt8(ascii: "\""): "string", UInt8(ascii: "t"): "boolean",
        UInt8(ascii: "f"): "boolean", UInt8(ascii: "n"): "null",
      ]
      throw Self.notAnObject(first.flatMap { kinds[$0] } ?? "number", path: path)
    }
    var members: [JSONMember] = []
    var state: Range<Int>?
    JSONScan.forEachMember(ofObjectIn: line) { key, range in
      if key == "state" {
        state = range
      } else if Self.memberNames.contains(key),
        let value = try? JSONParser.parse(
          UnsafeRawBufferPointer(rebasing: line[range]), limits: limits)
      {
        members.append(JSONMember(key, value))
      }
    }
    try self.init(.object(members), path: path, stateKeptApart: state != nil)
    if let state {
      if let file {
        storedState = .inFile(
          file.bytes, (file.offset + state.lowerBound)..<(file.offset + state.upperBound), limits)
      } else {
        storedState = .text(Array(line[state]), limits)
      }
    }
  }

  /// The error for a first line that is a JSON `kind` (`"array"`), not an object.
  private static func notAnObject(_ kind: String, path: String) -> ReplayError {
    .notARewindLog(path: path, reason: "the first line is a JSON \(kind), not an object")
  }

  /// Reads a header from a parsed first line.
  ///
  /// - Parameter stateKeptApart: Whether `value` has no `state` because the caller keeps it
  ///   apart (and sets it).
  /// - Throws: `ReplayError.notARewindLog` or `.unsupportedVersion`.
  init(_ value: JSONValue, path: String, stateKeptApart: Bool = false) throws(ReplayError) {
    guard case .object = value else { throw Self.notAnObject(value.kindName, path: path) }
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
      storedState = .value(state)
      stateFollows = false
    } else if stateKeptApart {
      storedState = .value(.null)  // set by the caller
      stateFollows = false
    } else if stateFollows {
      storedState = .value(.null)
    } else {
      throw .notARewindLog(path: path, reason: "the header has no \"state\"")
    }
    if let stamp = value["build"], case .object = stamp {
      let read = BuildStamp(json: stamp)
      build = read.isEmpty ? nil : read
    }
  }
}

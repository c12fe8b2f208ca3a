import Foundation

/// A folder that holds one log per launch (per store), with a retention policy, an index that
/// needs no reducer, and the answer to "did the previous session end badly?".
///
/// ```swift
/// let folder = try RecordingsFolder.standard()       // Application Support/Rewind/Recordings
/// if let crash = folder.crashOfLastLaunch() {        // before this launch records
///   offerToSend(try crash.bundle(to: NSTemporaryDirectory() + "\(crash.id).jsonl"))
/// }
/// let recorder = try store.startRecording(in: folder, app: "todo")
/// ```
///
/// Files are named `<UTC start time>-<app>-<random>.jsonl`
/// (`2026-11-25T04-20-31-123Z-todo-3f9a.jsonl`), so they sort by time; rotation adds `.1`, `.2`,
/// … before `.jsonl`. docs/apple.md has the whole picture.
public struct RecordingsFolder: Sendable {
  /// How much the folder keeps: sessions beyond either limit are deleted, oldest first, when a
  /// new session starts. A session this process records is never deleted.
  public struct Retention: Sendable, Equatable {
    /// The most sessions kept, the new one included (at least 1).
    public var sessions: Int
    /// The most bytes the older sessions may take together (the new one grows within its own
    /// ``RecordingOptions/rotation``).
    public var bytes: Int

    /// Keeps the last `sessions` sessions within `bytes` (defaults: 20 sessions, 64 MiB).
    public init(sessions: Int = 20, bytes: Int = 64 << 20) {
      self.sessions = max(1, sessions)
      self.bytes = max(0, bytes)
    }
  }

  /// The folder's path.
  public let path: String
  /// What it keeps.
  public var retention: Retention

  /// A folder at `path`. Touches nothing, so it cannot fail: the folder is created, and an
  /// error for a path that cannot be, comes when the first session starts
  /// (``newSessionPath(app:at:)``, `startRecording(in:app:)`).
  public init(path: String, retention: Retention = Retention()) {
    self.path = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    self.retention = retention
  }

  /// The default folder for an app's recordings, `Application Support/<name>/Recordings`: in
  /// the app's container on iOS, excluded from backups, its files readable and writable after
  /// the first unlock (docs/apple.md); on Linux, under `$XDG_DATA_HOME`.
  /// - Throws: The error of finding or creating Application Support.
  public static func standard(
    name: String = "Rewind", retention: Retention = Retention()
  ) throws -> RecordingsFolder {
    RecordingsFolder(path: try Platform.standardRecordingsFolder(name: name), retention: retention)
  }

  /// Every session in the folder, oldest first.
  public func sessions() -> [RecordedSession] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    var files: [String: [(index: Int, path: String)]] = [:]
    for name in names {
      guard let (stem, index) = Self.parse(fileName: name) else { continue }
      files[stem, default: []].append((index, "\(path)/\(name)"))
    }
    return files.keys.sorted().map { stem in
      // Rotated files first, highest number (oldest) first; the current file (0) last.
      let ordered = files[stem, default: []].sorted {
        ($0.index == 0 ? Int.max : -$0.index) < ($1.index == 0 ? Int.max : -$1.index)
      }
      return RecordedSession(id: stem, files: ordered.map(\.path))
    }
  }

  /// The newest session not recorded by this process (of `app`, when given): the previous
  /// launch's.
  public func previousSession(app: String? = nil) -> RecordedSession? {
    let ours = SessionRegistry.started.withLock { $0 }
    return sessions().last { session in
      !ours.contains("\(path)/\(session.id)") && (app == nil || session.app == app)
    }
  }

  /// The previous launch's session when it ended badly (crashed, killed, cut off); `nil` when
  /// it closed cleanly or there is none. Its ``RecordedSession/files`` hold the crash and the
  /// earlier rotated files of that session; ``RecordedSession/bundle(to:)`` makes one file of
  /// them.
  public func crashOfLastLaunch(app: String? = nil) -> RecordedSession? {
    guard let session = previousSession(app: app), session.endedBadly else { return nil }
    return session
  }

  /// Creates the folder if needed, deletes old sessions per ``retention``, and returns the path
  /// of a new session's log for `app` (the recorder creates the file).
  /// - Throws: ``RecorderError`` (`cannotOpen`) when the folder cannot be created.
  public func newSessionPath(app: String, at date: Date = Date()) throws(RecorderError) -> String {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
      let code = underlying.map { Int32(truncatingIfNeeded: $0.code) } ?? EACCES
      throw RecorderError(.cannotOpen(errno: code), path: path, lastRecordedSeq: 0)
    }
    Platform.prepareRecordingsFolder(path)
    applyRetention(makingRoomForOne: true)
    let stem = "\(Self.stamp(date))-\(Self.safeName(app))-\(Self.randomSuffix())"
    SessionRegistry.started.withLock { _ = $0.insert("\(path)/\(stem)") }
    return "\(path)/\(stem).jsonl"
  }

  /// Deletes the oldest sessions beyond ``retention`` (all their files), never one this process
  /// records. With `makingRoomForOne`, keeps one session fewer, for the one about to start.
  public func applyRetention(makingRoomForOne: Bool = false) {
    let ours = SessionRegistry.started.withLock { $0 }
    let all = sessions()
    var deletable = all.filter { !ours.contains("\(path)/\($0.id)") }
    let keptByUs = all.count - deletable.count
    var count = deletable.count + keptByUs + (makingRoomForOne ? 1 : 0)
    var bytes = deletable.reduce(0) { $0 + $1.byteCount }
    while let oldest = deletable.first, count > retention.sessions || bytes > retention.bytes {
      for file in oldest.files { try? FileManager.default.removeItem(atPath: file) }
      deletable.removeFirst()
      count -= 1
      bytes -= oldest.byteCount
    }
  }

  /// `name` → `(stem, rotation index)` for the folder's log files (`stem.jsonl` is 0,
  /// `stem.N.jsonl` is N); `nil` for any other file.
  static func parse(fileName name: String) -> (String, Int)? {
    guard name.hasSuffix(".jsonl"), RecordedSession.date(fromName: name) != nil else { return nil }
    let parts = name.dropLast(".jsonl".count).split(
      separator: ".", omittingEmptySubsequences: false)
    switch parts.count {
    case 1: return (String(parts[0]), 0)
    case 2:
      guard let index = Int(parts[1]), index > 0 else { return nil }
      return (String(parts[0]), index)
    default: return nil
    }
  }

  /// `2026-11-25T04-20-31-123Z`: UTC, sortable, no colons (not allowed in file names on every
  /// system a log travels to).
  static func stamp(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
    func two(_ value: Int?) -> String {
      let text = String(value ?? 0)
      return text.count < 2 ? "0" + text : text
    }
    let millis = String((parts.nanosecond ?? 0) / 1_000_000)
    let year = String(parts.year ?? 1970)
    return "\(year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour))-\(two(parts.minute))-"
      + "\(two(parts.second))-\(String(repeating: "0", count: 3 - millis.count))\(millis)Z"
  }

  /// The app's name with anything but letters, digits, `-` and `_` replaced by `_`.
  static func safeName(_ app: String) -> String {
    let kept = app.unicodeScalars.map { scalar -> Character in
      let isSafe =
        (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)))
        || scalar == "-" || scalar == "_"
      return isSafe ? Character(scalar) : "_"
    }
    return kept.isEmpty ? "app" : String(kept.prefix(40))
  }

  private static func randomSuffix() -> String {
    let value = UInt16.random(in: 0...UInt16.max)
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: 4 - hex.count) + hex
  }
}

/// The sessions this process started, which retention never deletes and which are not the
/// previous launch's.
enum SessionRegistry {
  static let started = Locked<Set<String>>([])
}

extension Store where State: Codable, Action: Codable {
  /// Starts recording to a new session in `folder` (see
  /// ``RecordingsFolder/newSessionPath(app:at:)`` and
  /// ``startRecording(to:app:options:actionSanitizer:stateSanitizer:onError:)``).
  @discardableResult
  public func startRecording(
    in folder: RecordingsFolder,
    app: String,
    options: RecordingOptions = RecordingOptions(),
    actionSanitizer: (@Sendable (Action) -> Action)? = nil,
    stateSanitizer: (@Sendable (State) -> State)? = nil,
    onError: @escaping @Sendable (RecorderError) -> Void = { _ in }
  ) throws(RecorderError) -> Recorder<State, Action> {
    try startRecording(
      to: folder.newSessionPath(app: app), app: app, options: options,
      actionSanitizer: actionSanitizer, stateSanitizer: stateSanitizer, onError: onError)
  }
}

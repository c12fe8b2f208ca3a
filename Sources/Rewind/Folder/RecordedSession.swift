import Foundation

/// One recorded session in a ``RecordingsFolder``: its files (the current one and the older
/// ones rotation left), and what the index reads from them without the app's reducer.
public struct RecordedSession: Sendable, Equatable {
  /// How a session's recording ended.
  public enum Ending: Sendable, Equatable {
    /// Closed by the app (`end` record, reason `closed`).
    case closed
    /// The app died of a fatal signal, which the recorder wrote (`signal` record; with
    /// `RecordingOptions(recordsFatalSignals: true)`).
    case crashed(signal: String)
    /// The file stops without an `end` record: the app was killed, ran out of memory, crashed
    /// without a signal record, lost power, or — for a session of this launch — is still
    /// recording.
    case cutOff
    /// The file is not a Rewind log (no readable header).
    case unreadable
  }

  /// The session's name: the files' common stem, which starts with the UTC time it began
  /// (`2026-11-25T04-20-31-123Z-todo-3f9a`), so names sort by time.
  public let id: String
  /// Its files, oldest first: rotated ones (`….2.jsonl`, `….1.jsonl`), then the current one.
  public let files: [String]
  /// The app that recorded it (the header's `app`).
  public let app: String?
  /// When it began, from its name.
  public let startedAt: Date?
  /// How many actions the files hold (`seq` of the last line minus the first file's
  /// `firstSeq`, plus one).
  public let actionCount: Int
  /// The `seq` of the last action in the files (0 when none).
  public let lastSeq: Int
  /// The files' total size in bytes.
  public let byteCount: Int
  /// How the recording ended.
  public let ending: Ending

  /// Whether the session did not end with the app closing its recorder: it crashed, was
  /// killed, or is unreadable.
  public var endedBadly: Bool { ending != .closed }

  /// Reads the session whose files are `files` (oldest first).
  init(id: String, files: [String]) {
    self.id = id
    self.files = files
    startedAt = Self.date(fromName: id)
    // Every file's header (the oldest readable one names the app), the newest one's last line.
    let read = files.enumerated().compactMap { index, file in
      SessionFile(path: file, readsLastLine: index == files.count - 1)
    }
    byteCount = read.reduce(0) { $0 + $1.size }
    let oldest = read.first { $0.header != nil }
    app = oldest?.header?.app
    let newest = read.last
    let firstSeq = oldest?.header?.firstSeq ?? 1
    let last = newest.flatMap { file -> Int? in
      guard let record = file.last else { return nil }
      return record.kind == "header" ? nil : record.seq
    }
    lastSeq = last ?? max(0, (newest?.header?.firstSeq ?? firstSeq) - 1)
    actionCount = max(0, lastSeq - firstSeq + 1)
    ending = Self.ending(of: newest)
  }

  private static func ending(of file: SessionFile?) -> Ending {
    guard let file, file.header != nil else { return .unreadable }
    guard !file.endsMidLine, let last = file.last else { return .cutOff }
    switch last.kind {
    case "end" where (last.reason ?? "closed") == "closed": return .closed
    case "signal": return .crashed(signal: last.signal ?? "an unknown signal")
    default: return .cutOff
    }
  }

  /// `2026-11-25T04-20-31-123Z…` → that instant.
  static func date(fromName name: String) -> Date? {
    let digits = name.prefix(24)
    guard digits.count == 24, digits.hasSuffix("Z") else { return nil }
    let parts = digits.dropLast().split(whereSeparator: { $0 == "-" || $0 == "T" })
    let numbers = parts.compactMap { Int($0) }
    guard parts.count == 7, numbers.count == 7 else { return nil }
    var components = DateComponents()
    components.calendar = Calendar(identifier: .gregorian)
    components.timeZone = TimeZone(identifier: "UTC")
    (components.year, components.month, components.day) = (numbers[0], numbers[1], numbers[2])
    (components.hour, components.minute, components.second) = (numbers[3], numbers[4], numbers[5])
    components.nanosecond = numbers[6] * 1_000_000
    return components.date
  }

  /// Writes the session's files, oldest first, into one file at `path` that `replay` opens as
  /// one log: each rotated file's `end` record is followed by the next file's header, which
  /// continues its `seq`s. Ready to attach to a bug report.
  ///
  /// - Returns: `path`.
  /// - Throws: The error of reading a file or writing `path`.
  @discardableResult
  public func bundle(to path: String) throws -> String {
    var bytes = Data()
    for file in files {
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      // Only the last file may end mid-line. Another one's torn line (the app died while the
      // background wrote a part of its final state) is left out, as a reader of that file
      // alone leaves it out: it must not swallow the next header, nor stand as a bad line
      // between the files.
      if file != files.last, let last = data.last, last != UInt8(ascii: "\n") {
        if let newline = data.lastIndex(of: UInt8(ascii: "\n")) { bytes.append(data[...newline]) }
      } else {
        bytes.append(data)
      }
    }
    try bytes.write(to: URL(fileURLWithPath: path), options: .atomic)
    return path
  }
}

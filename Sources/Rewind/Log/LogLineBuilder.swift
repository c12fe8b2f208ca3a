import Foundation
import RewindJSON

/// Builds the body of one log line — `"kind":"action","seq":1,…` — member by member, then frames
/// it with its checksum.
struct LogLineBuilder {
  private var body: [UInt8] = []

  init(kind: LogFormat.Kind) {
    body.reserveCapacity(128)
    string("kind", kind.rawValue)
  }

  private mutating func key(_ name: String) {
    if !body.isEmpty { body.append(UInt8(ascii: ",")) }
    JSONValue.string(name).write(into: &body)
    body.append(UInt8(ascii: ":"))
  }

  /// Appends `"name":"value"`.
  mutating func string(_ name: String, _ value: String) {
    key(name)
    JSONValue.string(value).write(into: &body)
  }

  /// Appends `"name":value` for an integer.
  mutating func integer(_ name: String, _ value: Int) {
    key(name)
    body.append(contentsOf: String(value).utf8)
  }

  /// Appends `"name":true`.
  mutating func flag(_ name: String) {
    key(name)
    body.append(contentsOf: "true".utf8)
  }

  /// Appends `"name":seconds` with microsecond precision (`0.001234`).
  mutating func seconds(_ name: String, nanoseconds: UInt64) {
    key(name)
    let micros = nanoseconds / 1_000
    let whole = micros / 1_000_000
    let fraction = String(micros % 1_000_000)
    body.append(contentsOf: String(whole).utf8)
    body.append(UInt8(ascii: "."))
    body.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 6 - fraction.utf8.count))
    body.append(contentsOf: fraction.utf8)
  }

  /// Appends `"name":<json>` with already-encoded JSON bytes.
  mutating func json(_ name: String, _ encoded: [UInt8]) {
    key(name)
    body.append(contentsOf: encoded)
  }

  /// The whole line: `{"c":"<crc32c>",<body>}\n`.
  func framed() -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(body.count + 20)
    body.withUnsafeBytes { LogLine.appendFramed(body: $0, to: &line) }
    return line
  }

  /// Appends the whole line to `buffer`.
  func appendFramed(to buffer: inout [UInt8]) {
    body.withUnsafeBytes { LogLine.appendFramed(body: $0, to: &buffer) }
  }
}

extension LogLineBuilder {
  /// The members of a header line, in the order the format lists them.
  static func header(
    session: String, app: String, actionType: String, stateType: String, recordedAt: String,
    firstSeq: Int, segment: Int, checkpointInterval: Int, build: BuildStamp = BuildStamp(),
    stateJSON: [UInt8]?
  ) -> LogLineBuilder {
    var line = LogLineBuilder(kind: .header)
    line.string("format", LogFormat.name)
    line.integer(
      "version", stateJSON == nil ? LogFormat.stateFollowsVersion : LogFormat.writtenVersion)
    line.string("session", session)
    line.string("app", app)
    line.string("actionType", actionType)
    line.string("stateType", stateType)
    line.string("recordedAt", recordedAt)
    line.integer("firstSeq", firstSeq)
    if segment > 0 { line.integer("segment", segment) }
    line.integer("checkpointInterval", checkpointInterval)
    if !build.isEmpty {
      var bytes: [UInt8] = []
      build.json.write(into: &bytes)
      line.json("build", bytes)
    }
    if let stateJSON {
      line.json("state", stateJSON)
    } else {
      line.flag("stateFollows")
    }
    return line
  }

  /// The log's `type` of an encoded action: the single key of an enum case's synthesized
  /// encoding, the string of a raw-value enum, or else `fallback`.
  static func typeName(of value: JSONValue, fallback: String) -> String {
    switch value {
    case .object(let members) where members.count == 1: return members[0].key
    case .string(let text): return text
    default: return fallback
    }
  }

  /// `2026-11-21T10:00:00Z`.
  static func timestamp(_ date: Date) -> String {
    // By hand, not with `ISO8601DateFormatter`: making one costs about 0.3 ms, and a rotation
    // writes a header on the dispatching thread. Days to a civil date: H. Hinnant's algorithm
    // (the Gregorian calendar, UTC; Foundation's formatter differs only before 1582, when it
    // counts in the Julian calendar).
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let (day, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
    let shifted = day + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let yearText = String(repeating: "0", count: max(0, 4 - "\(year)".count)) + "\(year)"
    return "\(yearText)-\(two(month))-\(two(dayOfMonth))T\(two(second / 3_600)):"
      + "\(two(second / 60 % 60)):\(two(second % 60))Z"
  }
}

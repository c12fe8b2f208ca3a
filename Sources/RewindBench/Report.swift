import Foundation
import RewindJSON

/// What a figure counts.
enum FigureUnit: String, Sendable {
  case seconds = "s"
  case nanosecondsPerAction = "ns/action"
  case actionsPerSecond = "actions/s"
  case bytes = "bytes"
  case count = "count"

  func format(_ value: Double) -> String {
    switch self {
    case .seconds:
      if value < 1e-3 { return "\(fixed(value * 1e6, 1)) µs" }
      if value < 1 { return "\(fixed(value * 1e3, 1)) ms" }
      return "\(fixed(value, 2)) s"
    case .nanosecondsPerAction: return "\(fixed(value, value < 100 ? 1 : 0)) ns/action"
    case .actionsPerSecond: return "\(grouped(Int(value.rounded()))) actions/s"
    case .bytes:
      if value >= Double(1 << 20) { return "\(fixed(value / Double(1 << 20), 1)) MiB" }
      return "\(fixed(value / 1024, 1)) KiB"
    case .count: return grouped(Int(value.rounded()))
    }
  }
}

/// One measured quantity: what it is, and its repetitions.
struct Figure: Sendable {
  var label: String
  var unit: FigureUnit
  var sample: Sample

  /// `median (min–max)`.
  var text: String {
    if sample.values.count == 1 { return unit.format(sample.median) }
    return "\(unit.format(sample.median)) (\(unit.format(sample.min))–\(unit.format(sample.max)))"
  }
}

/// A target from the issue and how it is checked.
enum Target: Sendable {
  /// subject / baseline ≤ limit.
  case ratioAtMost(Double)
  /// baseline / subject ≥ factor (the subject is that many times faster).
  case fasterBy(Double)
  /// The subject's median ≥ value.
  case subjectAtLeast(Double)
  /// subject − baseline ≤ limit (in the figures' unit): what the subject adds.
  case addedAtMost(Double, FigureUnit)
  /// subject ≤ max(floor, factor × baseline) (in the figures' unit).
  case atMostTimesBaselineOr(Double, floor: Double, FigureUnit)

  var text: String {
    switch self {
    case .ratioAtMost(let limit):
      return limit < 1
        ? "≤ 1/\(fixed(1 / limit, 0)) ×" : "≤ \(fixed(limit, limit.rounded() == limit ? 0 : 1)) ×"
    case .fasterBy(let factor): return "≥ \(fixed(factor, 0)) × faster"
    case .subjectAtLeast(let value): return "≥ \(grouped(Int(value)))"
    case .addedAtMost(let limit, let unit): return "+ ≤ \(unit.format(limit))"
    case .atMostTimesBaselineOr(let factor, let floor, let unit):
      return "≤ max(\(unit.format(floor)), \(fixed(factor, 1))× baseline)"
    }
  }

  func isMet(subject: Sample, baseline: Sample?, ratio: Sample) -> Bool {
    switch self {
    case .ratioAtMost(let limit): return ratio.median <= limit
    case .fasterBy(let factor): return ratio.median <= 1 / factor
    case .subjectAtLeast(let value): return subject.median >= value
    case .addedAtMost(let limit, _):
      guard let baseline else { return false }
      return subject.median - baseline.median <= limit
    case .atMostTimesBaselineOr(let factor, let floor, _):
      guard let baseline else { return false }
      return subject.median <= max(floor, factor * baseline.median)
    }
  }
}

/// One line of the report: a subject against the baseline measured in the same run.
struct Row: Sendable {
  var id: String
  var title: String
  var subject: Figure
  var baseline: Figure?
  var target: Target?
  var note: String?

  /// subject / baseline, paired repetition by repetition.
  var ratio: Sample? {
    guard let baseline else { return nil }
    if baseline.sample.values.count == subject.sample.values.count {
      return subject.sample.ratios(to: baseline.sample)
    }
    return Sample([subject.sample.median / baseline.sample.median])
  }

  var verdict: String {
    guard let target else { return baseline == nil ? "SKIP" : "info" }
    guard let ratio else { return "SKIP" }
    return target.isMet(subject: subject.sample, baseline: baseline?.sample, ratio: ratio)
      ? "PASS" : "FAIL"
  }

  var ratioText: String {
    guard let ratio else { return "—" }
    func show(_ value: Double) -> String {
      value >= 0.1 || value <= 0 ? "\(fixed(value, 2))×" : "1/\(fixed(1 / value, 0))"
    }
    if ratio.values.count == 1 { return show(ratio.median) }
    return "\(show(ratio.median)) (\(show(ratio.min))–\(show(ratio.max)))"
  }
}

/// The whole run: the machine, the rows, and how to print them.
struct Report: Sendable {
  var machine: [(String, String)]
  var mode: String
  var rows: [Row] = []
  var notes: [String] = []

  /// A Markdown table, ready for docs/performance.md.
  var markdown: String {
    var lines = [
      "| # | measurement | subject | baseline | ratio | target | verdict |",
      "|---|---|---|---|---|---|---|",
    ]
    for row in rows {
      let subject = "\(row.subject.label): \(row.subject.text)"
      let baseline = row.baseline.map { "\($0.label): \($0.text)" } ?? (row.note ?? "—")
      lines.append(
        "| \(row.id) | \(row.title) | \(subject) | \(baseline) | \(row.ratioText) | \(row.target?.text ?? "—") | \(row.verdict) |"
      )
    }
    return lines.joined(separator: "\n")
  }

  var json: JSONValue {
    func figure(_ figure: Figure) -> JSONValue {
      .object([
        JSONMember("label", .string(figure.label)),
        JSONMember("unit", .string(figure.unit.rawValue)),
        JSONMember("median", number(figure.sample.median)),
        JSONMember("min", number(figure.sample.min)),
        JSONMember("max", number(figure.sample.max)),
        JSONMember("values", .array(figure.sample.values.map(number))),
      ])
    }
    let rows = rows.map { row -> JSONValue in
      var members = [
        JSONMember("id", .string(row.id)),
        JSONMember("title", .string(row.title)),
        JSONMember("subject", figure(row.subject)),
        JSONMember("baseline", row.baseline.map(figure) ?? .null),
      ]
      if let ratio = row.ratio {
        members.append(
          JSONMember(
            "ratio",
            .object([
              JSONMember("median", number(ratio.median)), JSONMember("min", number(ratio.min)),
              JSONMember("max", number(ratio.max)),
            ])))
      } else {
        members.append(JSONMember("ratio", .null))
      }
      members.append(JSONMember("target", row.target.map { .string($0.text) } ?? .null))
      members.append(JSONMember("verdict", .string(row.verdict)))
      members.append(JSONMember("note", row.note.map(JSONValue.string) ?? .null))
      return .object(members)
    }
    return .object([
      JSONMember("mode", .string(mode)),
      JSONMember("machine", .object(machine.map { JSONMember($0.0, .string($0.1)) })),
      JSONMember("rows", .array(rows)),
      JSONMember("notes", .array(notes.map(JSONValue.string))),
    ])
  }
}

private func number(_ value: Double) -> JSONValue {
  guard value.isFinite else { return .null }
  return .number(value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value))
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = digits == 0 ? String(Int(rounded)) : String(rounded)
  if digits > 0 {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let fraction = parts.count > 1 ? String(parts[1]) : ""
    if fraction.contains("e") { return text }
    text = "\(parts[0]).\(fraction.padding(toLength: digits, withPad: "0", startingAt: 0))"
  }
  return text
}

/// `1234567` as `1,234,567`.
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var out = ""
  for (index, character) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
    out.append(character)
  }
  return value < 0 ? "-" + out : out
}

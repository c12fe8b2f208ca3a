import RewindReplay
import RewindReplayService

extension ProfileResponse {
  /// What `replay profile` prints: how the times were taken, the table of action types, the
  /// slowest actions, the action left out and why, and the comparison with a baseline.
  var textLines: [ResponseLine] {
    var lines: [String] = []
    let timed = profile.timed
    let only = profile.type.map { " of type \(inert($0))" } ?? ""
    lines.append(
      "\(inert(path)): \(timed) action\(timed == 1 ? "" : "s")\(only) timed, each the least of "
        + "\(profile.passes) pass\(profile.passes == 1 ? "" : "es") from the initial state "
        + "(the reducer's call only)")
    if profile.notReduced > 0 {
      lines.append(
        "\(profile.notReduced) action\(profile.notReduced == 1 ? " was" : "s were") not reduced "
          + "(not recorded, or skipped)")
    }
    if !profile.types.isEmpty {
      // With times the recorder measured in the app, their median and longest sit beside.
      let hasRecorded = profile.types.contains { $0.recorded != nil }
      lines.append("")
      lines += Self.table(
        header: ["type", "count", "total", "p50", "p99", "max"]
          + (hasRecorded ? ["recorded p50", "recorded max"] : []),
        rows: profile.types.map { cost in
          [
            inert(cost.type), String(cost.replayed.count), Self.duration(cost.replayed.total),
            Self.duration(cost.replayed.p50), Self.duration(cost.replayed.p99),
            Self.duration(cost.replayed.max),
          ]
            + (hasRecorded
              ? [
                cost.recorded.map { Self.duration($0.p50) } ?? "-",
                cost.recorded.map { Self.duration($0.max) } ?? "-",
              ] : [])
        })
      if hasRecorded {
        lines.append(
          "recorded: the reducer's time in the app, as its recorder measured it "
            + "(recordsReducerTimes)")
      }
    }
    if !profile.slowest.isEmpty {
      lines.append("")
      lines.append("slowest \(profile.slowest.count == 1 ? "action" : "actions"):")
      lines += Self.table(
        header: ["seq", "type", "time"],
        rows: profile.slowest.map {
          [String($0.seq), inert($0.type), Self.duration($0.nanoseconds)]
        },
        leftAligned: [1])
    }
    if let notTimed { lines += ["", notTimedText(notTimed)] }
    if let comparison { lines += [""] + comparisonLines(comparison) }
    return lines.map { ResponseLine(text: $0) }
  }

  /// Why the action `notTimed` was left out.
  private func notTimedText(_ notTimed: NotTimed) -> String {
    var action = "action \(notTimed.seq)"
    if let type = notTimed.type { action += " (\(inert(type)))" }
    let covered =
      profile.through >= profile.first
      ? "the profile covers actions \(profile.first)…\(profile.through)"
      : "no action before it was timed"
    guard let crash = notTimed.crash else {
      return "not timed: \(action), the last of a cut-off log: in this process a reducer that "
        + "crashes there would end replay (\(covered)); --isolate times it in a worker process"
    }
    var text =
      "not timed: \(action) crashes the app's reducer (\(crash.signal)"
      + (crash.message.map { ": \(inert($0))" } ?? "") + "); \(covered)"
    if notTimed.seq < lastSeq { text += ", actions after it were not reached" }
    return text
  }

  /// The comparison with the baseline: each type that changed, then the verdict.
  private func comparisonLines(_ comparison: ProfileComparison) -> [String] {
    var lines = [
      "against \(inert(baselinePath ?? "the baseline")) (slower or faster: a median "
        + "\(Self.ratio(comparison.threshold)) the other's, and \(Self.duration(comparison.floor)) "
        + "apart):"
    ]
    let changed = comparison.rows.filter { $0.verdict != .same }
    lines +=
      (changed.isEmpty
      ? []
      : Self.table(
        header: [
          "", "type", "p50 before", "p50 now", "ratio", "total before", "total now", "ratio",
        ],
        rows: changed.map { row in
          [
            row.verdict.rawValue, inert(row.type),
            row.baseline.map { Self.duration($0.p50) } ?? "-",
            row.current.map { Self.duration($0.p50) } ?? "-", row.p50Ratio.map(Self.ratio) ?? "-",
            row.baseline.map { Self.duration($0.total) } ?? "-",
            row.current.map { Self.duration($0.total) } ?? "-",
            row.totalRatio.map(Self.ratio) ?? "-",
          ]
        }, leftAligned: [0, 1]
      )).map { "  " + $0 }
    let same = comparison.rows.filter { $0.verdict == .same }.map { inert($0.type) }
    if !same.isEmpty {
      lines.append(
        "  the same (within the threshold): \(same.count == 1 ? "" : "\(same.count) types: ")"
          + same.joined(separator: ", "))
    }
    let slower = comparison.slower.map { inert($0.type) }
    lines.append(
      slower.isEmpty
        ? "no type slower than the baseline"
        : "\(slower.count) type\(slower.count == 1 ? "" : "s") slower than the baseline: "
          + slower.joined(separator: ", "))
    return lines
  }

  /// Rows under a header (``TextTable``): right-aligned (numbers) unless their column is in
  /// `leftAligned` (the first, unless told).
  private static func table(
    header: [String], rows: [[String]], leftAligned: Set<Int> = [0]
  ) -> [String] {
    TextTable.lines(
      [header] + rows, rightAligned: Set(header.indices).subtracting(leftAligned))
  }

  /// Nanoseconds in the unit that suits them, with three significant digits: `840 ns`,
  /// `1.25 µs`, `12.5 ms`, `3.10 s`.
  static func duration(_ nanoseconds: UInt64) -> String {
    guard nanoseconds >= 1_000 else { return "\(nanoseconds) ns" }
    var value = Double(nanoseconds) / 1_000
    for unit in ["µs", "ms"] {
      if value < 999.5 { return "\(significant(value)) \(unit)" }
      value /= 1_000
    }
    return "\(significant(value)) s"
  }

  /// A ratio as `1.25×`, `12.5×`, `106×`.
  static func ratio(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    return "\(significant(value))×"
  }

  /// `value` with three significant digits (at least its whole part).
  private static func significant(_ value: Double) -> String {
    let decimals = value < 9.995 ? 2 : value < 99.95 ? 1 : 0
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    guard decimals > 0 else { return String(scaled) }
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    return "\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
  }
}

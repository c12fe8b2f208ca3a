import RewindJSON
import RewindReplay
import RewindReplayService

/// One-line renderings of recorded actions: `  12   3.000s  add     {"title":"Buy milk"}`.
enum ActionFormatter {
  /// The payload of an action without its case-name wrapper: `{"add":{"title":"x"}}` → `{"title":"x"}`;
  /// a case with no payload (`{"clearCompleted":{}}`) gives an empty string.
  static func payloadText(_ action: RecordedAction, width: Int = 60) -> String {
    guard let payload = action.payload else {
      if case .skipped(let reason) = action.status { return "(not recorded: \(reason))" }
      return "(missing: the line was skipped by --recovery salvage)"
    }
    var inner = payload
    if case .object(let members) = payload, members.count == 1, members[0].key == action.type {
      inner = members[0].value
    }
    if case .object(let members) = inner, members.isEmpty { return "" }
    if case .object(let members) = inner, members.count == 1, members[0].key == "_0" {
      inner = members[0].value
    }
    return truncate(inert(inner.jsonText), toWidth: width)
  }

  /// `seq  time  type  payload`, with a marker column.
  static func line(
    _ action: RecordedAction, marker: String = " ", seqWidth: Int = 4, depth: Int = 0
  ) -> String {
    let seq = String(action.seq)
    let paddedSeq = String(repeating: " ", count: max(0, seqWidth - seq.count)) + seq
    let time = action.time.map { formatTime($0) } ?? "      -"
    let indent = depth > 0 ? String(repeating: "  ", count: depth - 1) + "└ " : ""
    let type = indent + inert(action.type ?? "?")
    let paddedType = type + String(repeating: " ", count: max(0, 14 - displayWidth(of: type)))
    var text = "\(marker) \(paddedSeq)  \(time)  \(paddedType) \(payloadText(action))"
    text += marks(action) + origin(action, showsCause: depth == 0)
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }

  /// What is noted after an action's payload: `  (sanitized)` when the recorder's sanitizer
  /// changed it, `  (migrated)` when the replay's schema migrations did.
  static func marks(_ action: RecordedAction) -> String {
    (action.isSanitized ? "  (sanitized)" : "") + (action.isMigrated ? "  (migrated)" : "")
  }

  /// Where the action came from, when recorded: `  ← 12` for its cause (unless the listing
  /// shows it by indenting), `  @ File.swift:31` for its call site, and `  ⇐ viewer` for an
  /// action the live viewer sent.
  static func origin(_ action: RecordedAction, showsCause: Bool = true) -> String {
    var text = ""
    if let via = action.via { text += "  ⇐ \(inert(via))" }
    if showsCause, let cause = action.cause { text += "  ← \(cause)" }
    if let site = action.site {
      let name = site.lastIndex(of: "/").map { String(site[site.index(after: $0)...]) } ?? site
      text += "  @ \(inert(name))"
    }
    return text
  }

  /// Seconds as `  3.250s` (right-aligned, millisecond precision); a time no recorder writes
  /// (negative, or past about 300,000 years) as Swift spells the number.
  static func formatTime(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0, seconds < 1e13 else { return "\(seconds)s" }
    let millis = Int((seconds * 1000).rounded())
    let text = "\(millis / 1000).\(String(format3(millis % 1000)))s"
    return String(repeating: " ", count: max(0, 8 - text.count)) + text
  }

  private static func format3(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
  }
}

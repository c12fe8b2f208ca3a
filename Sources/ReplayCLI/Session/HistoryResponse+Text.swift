import RewindJSON
import RewindReplay
import RewindReplayService

extension HistoryResponse: TextRenderedResponse {
  /// A heading, then each change: the action's line and the diff under the path, indented.
  func textLines(in service: ReplayService) -> [ResponseLine] {
    let name = inert(path.sessionText)
    let range = "positions \(history.from)…\(history.through)"
    var lines: [String] = []
    let count = history.changes.count
    if isBlame {
      let cursor = history.through
      if let last = history.changes.last {
        lines.append(
          "\(name) at position \(cursor) was last set by action \(last.seq)"
            + (count > 1 ? ", and before that by action \(history.changes[0].seq):" : ":"))
      } else {
        lines.append(
          "no action up to position \(cursor) changed \(name): "
            + (history.initial.map {
              "it is \(truncate(inert($0.jsonText), toWidth: 60)) from the "
                + "initial state on"
            } ?? "it leads nowhere from the initial state on"))
      }
    } else if count == 0 {
      lines.append(
        "no action in \(range) changed \(name): "
          + (history.initial.map { "it is \(truncate(inert($0.jsonText), toWidth: 60)) throughout" }
            ?? "it leads nowhere throughout"))
    } else {
      lines.append(
        "\(name): \(count) change\(count == 1 ? "" : "s") in \(range)"
          + (history.initial.map { ", from \(truncate(inert($0.jsonText), toWidth: 60))" }
            ?? ", where it first led nowhere"))
    }
    for (change, action) in zip(history.changes, actions) {
      lines.append(action.map { ActionFormatter.line($0) } ?? "  \(change.seq)  (unreadable line)")
      for diff in change.changes(under: path) { lines.append("        " + inert(diff.description)) }
    }
    if history.isTruncated {
      lines.append(
        "… stopped at the limit of \(count) change\(count == 1 ? "" : "s") at position "
          + "\(history.through): --from \(history.through) lists the rest")
    }
    var rendered = lines.map { ResponseLine(text: $0) }
    if let crash {
      rendered.append(
        ResponseLine(
          text: "note: \(crash.headline); the history ends at position \(history.through), the "
            + "last good state"))
    }
    return rendered
  }
}

import RewindReplay
import RewindReplayService

extension LastActionCheck {
  /// The rows of `info`'s text: `crashed at:` and, for a crash, the report's lines after its
  /// headline.
  var rows: (value: String, more: [String]) {
    switch self {
    case .crashed(let report):
      var value = report.seq.map { "action \($0)" } ?? "an action"
      if let type = report.type { value += " (\(inert(type)))" }
      value += ", \(report.signal)"
      return (value, Array(report.lines().dropFirst()))
    case .replays(let seq):
      return (
        "no — action \(seq), the last one recorded, replays without a crash: the app stopped "
          + "somewhere else (in a view, an effect, or killed by the system)", []
      )
    case .failed(let message):
      return ("unknown — the last state cannot be rebuilt: \(inert(message))", [])
    }
  }
}

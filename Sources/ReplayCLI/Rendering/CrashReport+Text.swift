import RewindReplay
import RewindReplayService

extension CrashReport {
  /// How many of the app's frames the text shows (the innermost ones).
  static let framesShown = 6

  /// The first line: `the app's reducer crashed on action 38 (type "move", log line 42): SIGILL`.
  var headline: String {
    var text = "the app's reducer crashed"
    if let seq {
      text += " on action \(seq)"
      var details: [String] = []
      if let type { details.append("type \"\(inert(type))\"") }
      if let line { details.append("log line \(line)") }
      if !details.isEmpty { text += " (\(details.joined(separator: ", ")))" }
    }
    return text + ": \(signal)"
  }

  /// The report as lines for a terminal: the headline, the runtime's message, the app's frames
  /// (innermost first, with `file:line` when the binary has debug information) and how many
  /// frames of the runtime and of Rewind were folded.
  ///
  /// - Parameter shortFiles: Name source files by their last component (`Todo.swift:90`), for a
  ///   narrow pane.
  func lines(shortFiles: Bool = false) -> [String] {
    var lines = [headline]
    if let message {
      let location = messageLocation.map { "  (\(inert($0)))" } ?? ""
      lines.append("  \(inert(message))\(location)")
    } else {
      lines.append("  (the runtime printed no message: a release build's check, or a bad access)")
    }
    // Runs of the same frame (a runaway recursion) are shown once, with their count.
    var runs: [(frame: Frame, count: Int)] = []
    for frame in frames {
      if let last = runs.last, last.frame == frame {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((frame, 1))
      }
    }
    for (index, run) in runs.prefix(Self.framesShown).enumerated() {
      var text = "  #\(index) \(inert(run.frame.function))"
      if var file = run.frame.file {
        if shortFiles, let name = file.split(separator: "/").last { file = String(name) }
        text += " at \(inert(file))\(run.frame.line.map { ":\($0)" } ?? "")"
      }
      if run.count > 1 { text += " (\(run.count) times)" }
      lines.append(text)
    }
    if runs.count > Self.framesShown {
      let more = runs.dropFirst(Self.framesShown).reduce(0) { $0 + $1.count }
      lines.append("  … \(more) more frames of the app")
    }
    if frames.isEmpty && foldedFrames == 0 {
      lines.append("  (no backtrace: the Swift backtracer did not run in the worker)")
    } else if foldedFrames > 0 {
      lines.append(
        "  (\(foldedFrames) frame\(foldedFrames == 1 ? "" : "s") of Swift's runtime and of "
          + "Rewind's replay folded)")
    }
    return lines
  }
}

import Foundation
import Rewind

/// A progress line on stderr for rebuilds that take more than about half a second, shown only
/// when stderr is a terminal, and erased when done.
final class ProgressLine: @unchecked Sendable {
  // Only called from the replaying thread (the timeline's progress callback runs inline), so
  // the mutable fields are never touched concurrently.
  private let output: any TextOutput
  private let label: String
  private var start: Date?
  private var shown = false

  init(output: any TextOutput, label: String) {
    self.output = output
    self.label = label
  }

  /// Whether progress can be shown at all (stderr is a terminal).
  static var isAvailable: Bool { Platform.isTerminal(2) }

  /// Reports `done` of `total`.
  func update(_ done: Int, _ total: Int) {
    let now = Date()
    guard let start else {
      self.start = now
      return
    }
    if done >= total {
      if shown { output.write("\r\u{1B}[K", to: .standardError) }
      self.start = nil
      shown = false
      return
    }
    guard now.timeIntervalSince(start) > 0.5 else { return }
    shown = true
    let percent = total > 0 ? done * 100 / total : 0
    output.write("\r\u{1B}[K\(label): \(percent)% (\(done)/\(total))", to: .standardError)
  }
}

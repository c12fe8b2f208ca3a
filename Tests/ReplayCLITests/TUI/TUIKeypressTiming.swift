import Foundation
import Rewind
import RewindExamples
import Testing

@testable import ReplayCLI

/// A timing harness, not a test: how long a keypress takes to handle and redraw on a log of a
/// million todo actions. Runs only when `REWIND_TUI_TIMING` is set, asserts nothing, prints
/// the numbers. Use a release build:
///
///     REWIND_TUI_TIMING=1 swift test -c release -Xswiftc -enable-testing \
///       --scratch-path .build-tui-rel --filter TUIKeypressTiming
///
/// `REWIND_TUI_TIMING_LOG=/path.jsonl` keeps the generated log there (and reuses it).
@Suite struct TUIKeypressTiming {
  private static let isEnabled = ProcessInfo.processInfo.environment["REWIND_TUI_TIMING"] != nil

  @Test(.enabled(if: isEnabled)) func keypressOnAMillionActions() throws {
    let environment = ProcessInfo.processInfo.environment
    let count = Int(environment["REWIND_TUI_TIMING_COUNT"] ?? "") ?? 1_000_000
    let path =
      environment["REWIND_TUI_TIMING_LOG"] ?? NSTemporaryDirectory() + "tui-timing-\(count).jsonl"
    if !FileManager.default.fileExists(atPath: path) {
      let start = Date()
      try Self.writeTodoLog(to: path, count: count)
      print(
        "generated \(count) actions in \(Self.format(Date().timeIntervalSince(start))) → \(path)")
    }
    let openStart = Date()
    let model = try TUIFixture.model(path: path, width: 120, height: 40)
    print("opened and indexed in \(Self.format(Date().timeIntervalSince(openStart)))")
    var writer = ScreenWriter(style: .colored)
    _ = writer.update(to: TUIRenderer.render(model))

    func measure(_ label: String, _ keys: String, times: Int = 25) {
      var samples: [Double] = []
      for _ in 0..<times {
        let start = Platform.monotonicNanoseconds()
        model.type(keys)
        _ = writer.update(to: TUIRenderer.render(model))
        samples.append(Double(Platform.monotonicNanoseconds() - start) / 1e6)
      }
      samples.sort()
      let median = samples[samples.count / 2]
      print(
        "\(label.padding(toLength: 34, withPad: " ", startingAt: 0)) median \(String(format: "%7.3f", median)) ms"
          + "   max \(String(format: "%7.3f", samples.last ?? 0)) ms   (position \(model.position))"
      )
    }

    measure("→ (step forward)", "\u{1B}[C")
    measure("← (step back)", "\u{1B}[D")
    measure("PgDn", "\u{1B}[6~")
    measure("PgUp", "\u{1B}[5~")
    measure("End (last action)", "\u{1B}[F", times: 1)
    measure("← at the end", "\u{1B}[D")
    measure("Home (initial state)", "\u{1B}[H", times: 1)
    measure("g 500000 ⏎ (cold jump)", "g500000\r", times: 1)
    measure("→ after the jump", "\u{1B}[C")
    measure("d (diff pane on)", "d", times: 1)
    measure("→ with the diff pane", "\u{1B}[C")
    measure("← with the diff pane", "\u{1B}[D")
    measure("Tab ↓ (state tree)", "\t\u{1B}[B", times: 1)
    measure("↓ in the tree", "\u{1B}[B")
    measure("⏎ fold/unfold", "\r")
    measure("Tab (back to the list)", "\t", times: 1)
    measure(":goto 750000 ⏎", ":goto 750000\r", times: 1)
    measure("g 999999 ⏎", "g999999\r", times: 1)
    measure("→ near the end", "\u{1B}[C")
  }

  /// A todo session of `count` actions from ``TodoWorkload``, recorded by the real recorder.
  static func writeTodoLog(to path: String, count: Int) throws {
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    var options = RecordingOptions(ifExists: .replace)
    options.durability = .buffered(capacity: 1 << 20)
    let recorder = try store.startRecording(to: path, app: "todo", options: options)
    var workload = TodoWorkload(seed: 1)
    for _ in 0..<count { store.dispatch(workload.next(for: store.state)) }
    recorder.close()
  }

  private static func format(_ seconds: TimeInterval) -> String {
    String(format: "%.2f s", seconds)
  }
}

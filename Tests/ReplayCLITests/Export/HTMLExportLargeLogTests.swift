import Foundation
import Rewind
import RewindExamples
import RewindReplay
import Testing

@testable import ReplayCLI

/// Exports a large generated todo log and reports the time taken and the page's size.
///
/// Off by default (it records and exports 100,000 actions); turn it on with
/// `REWIND_HTML_LARGE_LOG=/tmp/todo-100k.jsonl`, which is where the log is written (the page goes
/// next to it, as `.html`). `REWIND_HTML_LARGE_LOG_ACTIONS` changes the number of actions.
@Suite("HTMLExport large log")
struct HTMLExportLargeLogTests {
  static let path = ProcessInfo.processInfo.environment["REWIND_HTML_LARGE_LOG"]

  @Test(.enabled(if: path != nil, "set REWIND_HTML_LARGE_LOG=/tmp/todo-100k.jsonl to run"))
  func largeLogExportsToOnePageOfPatchesAndFewFullStates() throws {
    let path = try #require(Self.path)
    let count =
      ProcessInfo.processInfo.environment["REWIND_HTML_LARGE_LOG_ACTIONS"].flatMap { Int($0) }
      ?? 100_000
    let clock = ContinuousClock()
    let recording = try clock.measure {
      let store = Store(initialState: TodoState(), reducer: todoReducer)
      let recorder = try store.startRecording(
        to: path, app: "todo",
        options: RecordingOptions(durability: .buffered(capacity: 1 << 16), ifExists: .replace))
      var workload = TodoWorkload(seed: 2026)
      for _ in 0..<count { store.dispatch(workload.next(for: store.state)) }
      recorder.close()
    }
    let log = try ReplayLog(path: path)
    #expect(log.actionCount == count)
    var html = ""
    let export = try clock.measure {
      html = String(
        decoding: try HTMLExport.render(log: log, timeline: ExportedPage.timeline(for: log)),
        as: UTF8.self)
    }
    let out = (path.hasSuffix(".jsonl") ? String(path.dropLast(6)) : path) + ".html"
    try Data(html.utf8).write(to: URL(fileURLWithPath: out))
    let page = try ExportedPage(html: html)
    #expect(page.array("actions").count == count)
    #expect(page.array("states", "patches").count == count)
    #expect(page.array("states", "full").count == count / HTMLExport.defaultFullStateInterval + 1)
    let logBytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    print(
      "large log: \(count) actions, log \(logBytes) bytes, recorded in \(recording); "
        + "export (debug build) \(export), page \(html.utf8.count) bytes at \(out)")
  }
}

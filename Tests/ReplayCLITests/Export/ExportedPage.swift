import Foundation
import Rewind
import RewindExamples
import RewindJSON
import RewindReplay

@testable import ReplayCLI

/// An exported HTML page taken apart for tests: its text, and the data its
/// `<script type="application/json" id="rewind-data">` element holds.
struct ExportedPage {
  /// The whole HTML text.
  var html: String
  /// The embedded data, parsed.
  var data: JSONValue

  static let dataOpening = #"<script type="application/json" id="rewind-data">"#

  /// Exports `log` (with its bundled app's timeline unless `withApp` is false) and parses the
  /// embedded data.
  init(
    _ log: ReplayLog, withApp: Bool = true,
    fullStateInterval: Int = HTMLExport.defaultFullStateInterval
  ) throws {
    let timeline = withApp ? try Self.timeline(for: log) : nil
    try self.init(
      html: String(
        decoding: HTMLExport.render(
          log: log, timeline: timeline, fullStateInterval: fullStateInterval), as: UTF8.self))
  }

  /// Parses the data embedded in `html`.
  init(html: String) throws {
    self.html = html
    guard let text = Self.dataText(in: html) else { throw PageError("no rewind-data element") }
    data = try JSONParser.parse(text)
  }

  /// The bundled app's timeline over `log`.
  static func timeline(for log: ReplayLog) throws -> any ReplayTimeline {
    guard let app = ReplayRun.apps.first(where: { $0.name == log.app }) else {
      throw PageError("no bundled app \(log.app)")
    }
    return try app.timeline(for: log)
  }

  /// The text between the data element's tags.
  static func dataText(in html: String) -> String? {
    guard let opening = html.range(of: dataOpening),
      let closing = html.range(of: "</script>", range: opening.upperBound..<html.endIndex)
    else { return nil }
    return String(html[opening.upperBound..<closing.lowerBound])
  }

  /// The text of the page's executable `<script>` element.
  var scriptText: String? {
    guard let opening = html.range(of: "<script>"),
      let closing = html.range(of: "</script>", range: opening.upperBound..<html.endIndex)
    else { return nil }
    return String(html[opening.upperBound..<closing.lowerBound])
  }

  /// The member at `path` (keys) of the data, e.g. `["states", "patches"]`.
  subscript(_ path: String...) -> JSONValue? {
    var value: JSONValue? = data
    for key in path { value = value?[key] }
    return value
  }

  /// The elements of the array at `path`, or an empty list.
  func array(_ path: String...) -> [JSONValue] {
    var value: JSONValue? = data
    for key in path { value = value?[key] }
    if case .array(let elements) = value { return elements }
    return []
  }

  /// How many times `needle` occurs in the HTML.
  func count(of needle: String) -> Int {
    html.components(separatedBy: needle).count - 1
  }
}

/// A failure of the page helpers.
struct PageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Logs made by the export tests.
enum ExportLogs {
  /// Opens `Fixtures/<name>`.
  static func fixture(_ name: String) throws -> ReplayLog {
    try ReplayLog(path: CLIFixture.path(name))
  }

  /// A closed todo log of `actions`, recorded by a real store.
  static func todo(_ actions: [TodoAction], in directory: URL) throws -> ReplayLog {
    let path = directory.appendingPathComponent("todo-\(UUID().uuidString).jsonl").path
    let store = Store(initialState: TodoState(), reducer: todoReducer)
    let recorder = try store.startRecording(to: path, app: "todo")
    for action in actions { store.dispatch(action) }
    recorder.close()
    return try ReplayLog(path: path)
  }

  /// A log composed line by line: `states[i]`, when given, becomes a checkpoint after action
  /// `i + 1`.
  static func composed(
    app: String, actionType: String = "Action", stateType: String = "State",
    initialState: JSONValue, actions: [JSONValue], checkpoints: [Int: JSONValue] = [:]
  ) throws -> ReplayLog {
    var composer = LogComposer(
      header: LogComposer.Header(
        app: app, actionType: actionType, stateType: stateType, state: initialState,
        session: "00000000-0000-4000-8000-000000000009", recordedAt: "2026-11-21T10:00:00Z"))
    for (index, action) in actions.enumerated() {
      composer.appendAction(action, time: Double(index + 1) / 4)
      if let state = checkpoints[index + 1] { composer.appendCheckpoint(state) }
    }
    return try ReplayLog(name: "\(app).jsonl", contents: composer.finished())
  }
}

extension JSONValue {
  /// The elements when this is an array, else none.
  var elements: [JSONValue] {
    if case .array(let elements) = self { return elements }
    return []
  }
}

import RewindJSON
import RewindReplay

/// Writes a log as one self-contained HTML page: its metadata, a timeline slider over every
/// position, the action list with a search box and a type filter, the state at the selected
/// position as a tree that folds, and the diff of the selected action.
///
/// The page has its style and script inline and makes no network request: it opens from disk
/// in any current browser. Everything that comes from the log is data, never markup: it is
/// embedded as JSON in a `<script type="application/json">` element, escaped so that it cannot
/// end the element (see ``HTMLExportEscaping``), and the script builds the page with
/// `createElement` and `textContent` only. A Content-Security-Policy allows the page's own
/// script and style (by their SHA-256) and nothing else, so even markup that got in could
/// neither run nor load anything.
///
/// ```swift
/// let html: [UInt8] = try HTMLExport.render(log: opened.log, timeline: opened.timeline)
/// ```
enum HTMLExport {
  /// A full state is embedded every this many positions unless told otherwise.
  static let defaultFullStateInterval = 1000

  /// The page for `log`, as one HTML document.
  ///
  /// With `timeline`, every state is rebuilt with the app's reducer and embedded as a full state
  /// every `fullStateInterval` positions plus one RFC 6902 patch per action (see
  /// ``HTMLExportStates``). For a cut-off log, the states stop before the last action: the app
  /// stopped while running it, and the page says so. Without `timeline` (an app this binary
  /// does not know), only the header's and the checkpoints' states are embedded, and the page
  /// says so.
  /// - Parameters:
  ///   - log: The opened log.
  ///   - timeline: The log's timeline, when the app is known.
  ///   - fullStateInterval: Embed a full state every this many positions; at least 1.
  ///   - progress: Called while states are rebuilt, with the positions done and to do.
  ///   - costs: Measures what each action type costs the reducer (`replay profile --json`'s
  ///     form), for the page's cost chart; `nil` when not measured. Called once, while the
  ///     actions are read on another thread.
  /// - Returns: The HTML text, as UTF-8.
  /// - Throws: `ReplayError.fault` when an action's line cannot be read.
  /// - Complexity: O(*n*) in the log's actions, each costing one reduction, one state encoding
  ///   and one diff when the app is known.
  static func render(
    log: ReplayLog, timeline: (any ReplayTimeline)?,
    fullStateInterval: Int = defaultFullStateInterval,
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil, costs: () -> JSONValue? = { nil }
  ) throws(ReplayError) -> [UInt8] {
    let script = HTMLExportScript.source
    let style = HTMLExportStyle.css
    let before = """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy(script: script, style: style))">
      <meta name="referrer" content="no-referrer">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="replay export --html">
      <title>Rewind log</title>
      <style>\(style)</style>
      </head>
      <body>
      \(HTMLExportLayout.body)
      <script type="application/json" id="rewind-data">
      """
    let after = """
      </script>
      <script>\(script)</script>
      </body>
      </html>

      """
    // The data is escaped as it is written into the page: it is never held apart from it.
    var page = ScriptJSONWriter(bytes: Array(before.utf8))
    try HTMLExportData.write(
      log: log, timeline: timeline, fullStateInterval: fullStateInterval, costs: costs,
      into: &page, progress: progress)
    page.bytes.append(contentsOf: after.utf8)
    return page.bytes
  }

  /// The page's policy: nothing may load or run but its own script and style.
  static func contentSecurityPolicy(script: String, style: String) -> String {
    [
      "default-src 'none'",
      "script-src \(HTMLExportDigest.cspSource(for: script))",
      "style-src \(HTMLExportDigest.cspSource(for: style))",
      "img-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].joined(separator: "; ")
  }
}

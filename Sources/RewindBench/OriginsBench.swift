import Foundation
import Rewind
import RewindExamples

/// (12) What answering "why" costs. 12a: a `Store` recording with call sites (`recordsOrigins`)
/// against the same recording without them, per dispatch; 12b: the same through the todo app's
/// screen and its auto-clear middleware (whose `clearCompleted` has a cause). 12c: reducer times
/// recorded (`recordsReducerTimes`), against without. 12d: `replay
/// export --html` of the 100,000-action todo log — the page with every panel (history, state
/// search, call sites; the panels read the page's own data, so they add script, not data) —
/// against a full rebuild of the same log (`replay verify --no-isolate`); the page's size and
/// the export's peak memory in the note, and, when Chromium is installed, when its script
/// started and when the page was ready (a usable timeline) in headless Chromium.
struct OriginsBench {
  let directory: String
  let dispatches: Int
  let exportLog: BenchLog?
  let repetitions: Int

  func run() throws -> [Row] {
    // The workload as the screen sends it to a store with the middleware (whose follow-ups
    // change the state the next action is chosen from), so that every run replays it exactly.
    var plainWorkload = TodoWorkload(seed: 5)
    var plainState = TodoState()
    var plainActions: [TodoAction] = []
    for _ in 0..<dispatches {
      let action = plainWorkload.next(for: plainState)
      plainActions.append(action)
      todoReducer.reduce(&plainState, action)
    }
    var workload = TodoWorkload(seed: 5)
    let rehearsal = Store(
      initialState: TodoState(), reducer: todoReducer, middleware: [todoAutoClear(limit: 5)])
    var actions: [TodoAction] = []
    for _ in 0..<dispatches {
      let action = workload.next(for: rehearsal.state)
      actions.append(action)
      rehearsal.dispatch(action)
    }
    /// Nanoseconds per dispatch of `actions`: through the screen of a store with the auto-clear
    /// middleware (`app`), or straight to `store.dispatch` of one without middleware.
    func perDispatch(origins: Bool, times: Bool, app: Bool) throws -> Double {
      let path = "\(directory)/origins-\(origins)-\(times)-\(app).jsonl"
      let store = Store(
        initialState: TodoState(), reducer: todoReducer,
        middleware: app ? [todoAutoClear(limit: 5)] : [])
      var options = RecordingOptions(ifExists: .replace)
      options.recordsOrigins = origins
      options.recordsReducerTimes = times
      let recorder = try store.startRecording(to: path, app: "todo", options: options)
      let screen = TodoScreen(store: store)
      let list = app ? actions : plainActions
      let seconds = Stopwatch.seconds {
        if app {
          for action in list { screen.perform(action) }
        } else {
          for action in list { store.dispatch(action) }
        }
      }
      recorder.close()
      if case .stopped(let error) = recorder.status { throw error }
      return seconds * 1e9 / Double(list.count)
    }
    let samples = try interleaved(
      repetitions,
      [
        { try perDispatch(origins: true, times: false, app: false) },
        { try perDispatch(origins: false, times: false, app: false) },
        { try perDispatch(origins: true, times: false, app: true) },
        { try perDispatch(origins: false, times: false, app: true) },
        { try perDispatch(origins: false, times: true, app: false) },
      ])
    let plain =
      "\(grouped(dispatches)) dispatches of the todo workload straight to Store.dispatch (no "
      + "middleware), Store recording with the default durability (a write(2) each)"
    let app =
      "\(grouped(dispatches)) dispatches through TodoScreen to a Store with the auto-clear "
      + "middleware (whose clearCompleted has a cause; it copies the state and filters the todos "
      + "at every toggle, hence the larger figures), default durability"
    var rows = [
      Row(
        id: "12a", title: "recording call sites (`recordsOrigins`) vs without, `Store.dispatch`",
        subject: Figure(label: "with origins", unit: .nanosecondsPerAction, sample: samples[0]),
        baseline: Figure(label: "without", unit: .nanosecondsPerAction, sample: samples[1]),
        target: .ratioAtMost(1.1), note: plain),
      Row(
        id: "12b", title: "recording call sites and causes vs without, through the app's screen",
        subject: Figure(label: "with origins", unit: .nanosecondsPerAction, sample: samples[2]),
        baseline: Figure(label: "without", unit: .nanosecondsPerAction, sample: samples[3]),
        target: .ratioAtMost(1.1), note: app),
      Row(
        id: "12c", title: "recording reducer times (`recordsReducerTimes`) vs without",
        subject: Figure(label: "with times", unit: .nanosecondsPerAction, sample: samples[4]),
        baseline: Figure(label: "without", unit: .nanosecondsPerAction, sample: samples[1]),
        note: plain + "; two clock reads and a lock per action, a costs line per 256"),
    ]
    if let exportLog { rows.append(try exportRow(exportLog)) }
    return rows
  }

  /// 12d: the page with every panel against a full rebuild.
  private func exportRow(_ log: BenchLog) throws -> Row {
    let replay = ReplayCommand.prefix
    let page = "\(directory)/bench-why.html"
    let export = replay + ["export", log.path, "--html", page, "--overwrite"]
    let rebuild = replay + ["verify", log.path, "--no-isolate"]
    let samples = try interleaved(
      repetitions, [{ try OpenBench.seconds(export) }, { try OpenBench.seconds(rebuild) }])
    let size = (try? FileManager.default.attributesOfItem(atPath: page)[.size] as? Int) ?? 0
    var note =
      "\(grouped(log.actionCount)) actions, small state; the page is \(Self.megabytes(size))"
    if let peak = Self.peakResidentBytes(of: export) {
      note += ", the export's peak memory \(Self.megabytes(peak))"
    }
    note += "; " + Self.chromiumTimes(page)
    return Row(
      id: "12d", title: "`replay export --html` with every panel vs a full rebuild of the log",
      subject: Figure(label: "export --html", unit: .seconds, sample: samples[0]),
      baseline: Figure(label: "verify --no-isolate", unit: .seconds, sample: samples[1]),
      target: .ratioAtMost(20), note: note)
  }

  /// `bytes` in MB, one decimal.
  static func megabytes(_ bytes: Int) -> String {
    "\(fixed(Double(bytes) / 1_000_000, 1)) MB"
  }

  /// The peak resident memory of `command`, run in a child of a child of this process
  /// (`rewind-bench __peak`), whose own children are only that command.
  static func peakResidentBytes(of command: [String]) -> Int? {
    let me = CommandLine.arguments[0]
    guard let text = BenchPlatform.output(of: [me, "__peak"] + command) else { return nil }
    return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// When the page's script started and when the page was ready, in headless Chromium, from
  /// the `data-start-ms` and `data-render-ms` the page sets; or why there are none.
  static func chromiumTimes(_ page: String) -> String {
    guard
      let chromium = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap({
        BenchPlatform.which($0)
      }).first
    else { return "no Chromium to open the page in" }
    let profile = NSTemporaryDirectory() + "rewind-bench-chromium-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: profile) }
    guard
      let dom = BenchPlatform.output(
        of: [
          chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
          "--user-data-dir=\(profile)", "--virtual-time-budget=60000", "--dump-dom",
          "file://\(page)",
        ], quiet: true)
    else { return "Chromium did not open the page" }
    func attribute(_ name: String) -> String? {
      guard let range = dom.range(of: "\(name)=\"") else { return nil }
      return String(dom[range.upperBound...].prefix { $0 != "\"" })
    }
    guard let start = attribute("data-start-ms"), let ready = attribute("data-render-ms") else {
      return "the page did not get ready in Chromium"
    }
    let parse = attribute("data-parse-ms") ?? "?"
    return "in headless Chromium the script starts \(start) ms after navigation (the HTML "
      + "parsed), reads its data in \(parse) ms and the timeline is usable \(ready) ms after "
      + "the script starts"
  }
}

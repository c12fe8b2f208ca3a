import RewindJSON
import RewindReplay
import RewindReplayService

/// Which pane ↑ and ↓ move in.
enum TUIPane: Sendable, Equatable {
  /// The action list: ↑ and ↓ step through the log.
  case actions
  /// The state tree: ↑ and ↓ move between its rows.
  case state
}

/// A question asked on the message line.
struct TUIPrompt: Sendable {
  /// What the answer is for.
  enum Kind: Sendable, Equatable {
    /// `g`: a position.
    case goto
    /// `/`: text or `type=NAME` to find.
    case find
    /// `:`: a session command.
    case command
    /// `/` in the state pane: text or `NAME=VALUE` to search the state for.
    case searchState
  }

  /// What the answer is for.
  var kind: Kind
  /// The answer as typed so far.
  var line: LineEditState

  /// The text before the answer: `goto: `, `find: ` or `:`.
  var label: String {
    switch kind {
    case .goto: return "goto: "
    case .find: return "find: "
    case .command: return ":"
    case .searchState: return "search state: "
    }
  }
}

/// The state at a position as the screen can show it.
enum TUIStateView {
  /// The state, as its text read a level at a time.
  case value(StateDocument)
  /// Why there is none (an unknown app, a reducer that failed): the diagnostic's message and
  /// its first note.
  case unavailable(String)
  /// The last action of a cut-off log in this process (`--no-isolate`): not rebuilt until the
  /// user presses `!`, because the reducer may crash on it as the app did.
  case unconfirmed
  /// The app's reducer crashed on this action, or on one before it: the crash card.
  case crashed(CrashReport)
}

/// Everything the full-screen debugger shows, and the changes keys make to it: the engine of
/// `replay tui`, testable without a terminal (``TUIRenderer`` draws it; ``TUIApp`` feeds it
/// keys).
///
/// The cursor, the states and diffs, watchpoints, searches and crash landing are the
/// ``ReplayService``'s: each key becomes a typed request (``TUIKeyTable``), and a command typed
/// after `:` is parsed through the same ``ReplayCommandTable`` as `replay LOG`'s, so it behaves
/// exactly as there. What is the TUI's own is how it shows them: panes, folds, prompts.
final class TUIModel {
  /// The service that answers every key and command (a new one, keeping the cursor,
  /// watchpoints and breakpoints, when a live log grew: ``adopt(_:)``).
  private(set) var service: ReplayService
  /// Columns of the screen.
  private(set) var width: Int
  /// Rows of the screen.
  private(set) var height: Int
  /// Which pane ↑ and ↓ move in.
  var focus = TUIPane.actions
  /// Whether the diff pane is shown.
  var showsDiff = false
  /// Whether the help overlay is shown.
  var showsHelp = false
  /// The question on the message line, if any.
  var prompt: TUIPrompt?
  /// What the last key or command reported (cleared by the next key).
  var messages: [TUIMessageLine] = []
  /// The first position shown in the action list.
  var listTop: Int
  /// Folds, cursor and scroll of the state tree.
  var tree = StateTreeView()
  /// What `/` looked for last (`n` and `N` look again).
  var lastQuery: String?
  /// What `/` in the state pane searched the state for last (`n` and `N` there look across
  /// time).
  var lastStateQuery: StateQuery?
  /// The response to the last request a key or command sent.
  var lastResponse: (any ReplayResponse)?
  /// Positions where `continue` or `reverse-continue` stopped, ascending.
  var stops: [Int] = []
  /// Whether the user asked to rebuild the last state of a cut-off log (`!`).
  var isRiskAccepted = false
  /// Whether the user quit.
  var isFinished = false
  /// Whether the terminal should be repainted whole (Ctrl-L).
  var needsFullRedraw = false
  /// Lines typed after `:` and `/`, oldest first.
  var commandHistory: [String] = []
  /// Queries typed after `/`, oldest first.
  var findHistory: [String] = []
  /// The last request a key or command sent to the service (what a test of the keys checks).
  var lastRequest: (any ReplayRequest)?
  /// The running apps that connected (`replay tui --listen`), in the order they did; empty for
  /// a log opened from a file.
  var liveApps: [TUILiveStatus] = []
  /// The index in ``liveApps`` of the app shown.
  var shownApp = 0
  /// The views of the apps not shown, by session: each keeps its cursor, watchpoints and
  /// scroll while another app is looked at (``switchApp(by:)``).
  var parkedViews: [String: TUIAppView] = [:]
  /// What opens the other apps' logs and sends `dispatch` (`replay tui --listen`'s feed).
  var liveSource: (any TUILiveSource)?
  /// The state shown, read a level at a time as the tree pane draws it, with the position and
  /// skips it is of (the service keeps the texts; this is the view of one of them).
  private var shown: (position: Int, skips: [Int], view: TUIStateView)?

  /// A model at the session's start (the initial state of `opened`, or its first checkpoint when
  /// the initial state is not in the file), for a `width` × `height` screen.
  init(opened: OpenedLog, width: Int, height: Int) {
    self.service = ReplayService(opened: opened)
    self.width = max(0, width)
    self.height = max(0, height)
    listTop = service.position
  }

  /// Goes on with `opened`, the same log read again after it grew (`replay tui --listen`): a
  /// new service that keeps the cursor, watchpoints and breakpoints (``Debugger/adopt(_:)``),
  /// and the actions skipped.
  func adopt(_ opened: OpenedLog) {
    let next = ReplayService(opened: opened)
    next.debugger.adopt(service.debugger)
    for seq in service.skips { _ = try? next.debugger.setSkipped(seq, true) }
    next.isLive = service.isLive
    service = next
    forgetStates()
  }

  /// The running app shown (`replay tui --listen`), or `nil` for a log opened from a file.
  /// Setting it changes the status of the app shown (the first, when there is none yet).
  var live: TUILiveStatus? {
    get { liveApps.indices.contains(shownApp) ? liveApps[shownApp] : nil }
    set {
      guard let newValue else {
        liveApps = []
        return
      }
      if liveApps.indices.contains(shownApp) {
        liveApps[shownApp] = newValue
      } else {
        liveApps = [newValue]
        shownApp = 0
      }
    }
  }

  /// What belongs to the app shown (`replay tui --listen`) and stays with it while another is
  /// shown: the service (cursor, watchpoints, breakpoints, skips), the scroll, the state tree's
  /// folds and cursor, the stops marked.
  func parkView() -> TUIAppView {
    TUIAppView(
      service: service, listTop: listTop, tree: tree, stops: stops, lastResponse: lastResponse,
      isRiskAccepted: isRiskAccepted)
  }

  /// Shows `view`, an app's parked view or a new one (``TUIAppView/init(opened:)``).
  func show(_ view: TUIAppView) {
    service = view.service
    listTop = view.listTop
    tree = view.tree
    stops = view.stops
    lastResponse = view.lastResponse
    isRiskAccepted = view.isRiskAccepted
    forgetStates()
    followPosition()
  }

  /// The log and its timeline.
  var opened: OpenedLog { service.opened }
  /// The log.
  var log: ReplayLog { opened.log }
  /// The cursor: the service's position.
  var position: Int { service.position }

  /// Where things go on the current screen.
  var layout: TUILayout { TUILayout(width: width, height: height, showsDiff: showsDiff) }

  /// Adapts to a new screen size.
  func resize(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    followPosition()
  }

  /// Whether the log ends cut off, as the screen says: not the log of a connected app
  /// (`replay tui --listen`), which ends where the app has got to; a disconnected app's that
  /// did not close its recorder is, since it may have crashed.
  var isCutOff: Bool {
    guard log.isCutOff else { return false }
    return live.map { $0.disconnected != nil } ?? true
  }

  /// Whether `position` is the last action of a cut-off log (``isCutOff``), whose reducer may
  /// crash this process, and the user has not yet asked to rebuild it. Only with
  /// `--no-isolate`: a reducer in a child process cannot crash this one.
  func needsConfirmation(_ position: Int) -> Bool {
    guard isCutOff, log.actionCount > 0, position == log.lastSeq, !isRiskAccepted,
      let timeline = opened.timeline
    else { return false }
    return !(timeline is IsolatedTimeline)
  }

  /// The state at `position` as the screen shows it, from the service's state text.
  /// - Complexity: What ``ReplayService/stateText(at:)`` costs, once per position visited.
  func state(at position: Int) -> TUIStateView {
    if needsConfirmation(position) { return .unconfirmed }
    let skips = service.skips
    if let shown, shown.position == position, shown.skips == skips { return shown.view }
    shown = nil
    let view: TUIStateView
    do throws(DebuggerError) {
      view = .value(StateDocument(checkedText: try service.stateText(at: position)))
    } catch {
      view = Self.view(of: error, opened: opened)
    }
    shown = (position, skips, view)
    return view
  }

  /// What stands in for a state that could not be rebuilt: the crash card, or why.
  private static func view(of error: DebuggerError, opened: OpenedLog) -> TUIStateView {
    if case .replay(.reducerCrashed(let report)) = error { return .crashed(report) }
    let diagnostic = opened.commandFailure(error).diagnostic
    return .unavailable(diagnostic.message + (diagnostic.notes.first.map { "; " + $0 } ?? ""))
  }

  /// What the action at `position` changed (the service's diff), or `nil` for the initial state
  /// (no action led there) and the unconfirmed last state of a cut-off log.
  func changes(at position: Int) -> Result<[JSONChange]?, TUIProblem>? {
    guard position > log.positions.lowerBound, !needsConfirmation(position) else { return nil }
    do throws(DebuggerError) {
      return .success(try service.diff(from: position - 1, to: position).changes)
    } catch {
      switch Self.view(of: error, opened: opened) {
      case .crashed(let report): return .failure(TUIProblem(message: report.headline))
      case .unavailable(let reason): return .failure(TUIProblem(message: reason))
      case .value, .unconfirmed: return nil
      }
    }
  }

  /// Forgets the state shown (the service forgets its own after a skip).
  func forgetStates() {
    shown = nil
  }

  /// Scrolls the action list and the state tree to their cursors.
  /// - Complexity: O(rows shown × depth of the state).
  func followPosition() {
    let range = log.positions
    let rows = max(1, layout.contentHeight)
    if position < listTop { listTop = position }
    if position >= listTop + rows { listTop = position - rows + 1 }
    listTop = max(
      range.lowerBound, min(listTop, max(range.lowerBound, range.upperBound - rows + 1)))
    if case .value(let state) = state(at: position) {
      tree.scroll(in: state, height: max(1, layout.contentHeight))
    }
  }

  /// Shows one message line.
  func report(_ text: String, isError: Bool = false) {
    messages = [TUIMessageLine(text: text, isError: isError)]
  }
}

/// Why the TUI cannot show something (a diff of states that could not be rebuilt): one line.
struct TUIProblem: Error {
  /// The line.
  var message: String
}

/// One running app's view in `replay tui --listen`, kept while another app is shown.
struct TUIAppView {
  /// The service: the log, cursor, watchpoints, breakpoints and skips.
  var service: ReplayService
  /// The first position shown in the action list.
  var listTop: Int
  /// Folds, cursor and scroll of the state tree.
  var tree: StateTreeView
  /// Positions where `continue` or `reverse-continue` stopped.
  var stops: [Int]
  /// The response to the last request.
  var lastResponse: (any ReplayResponse)?
  /// Whether the user asked to rebuild the last state of a cut-off log (`!`).
  var isRiskAccepted: Bool

  /// The view of an app not shown before: its log `opened` at its newest action, following the
  /// end.
  init(opened: OpenedLog) {
    service = ReplayService(opened: opened)
    service.isLive = true
    try? service.debugger.place(at: opened.log.lastSeq)
    listTop = service.position
    tree = StateTreeView()
    stops = []
    lastResponse = nil
    isRiskAccepted = false
  }

  /// A view with every part given.
  init(
    service: ReplayService, listTop: Int, tree: StateTreeView, stops: [Int],
    lastResponse: (any ReplayResponse)?, isRiskAccepted: Bool
  ) {
    self.service = service
    self.listTop = listTop
    self.tree = tree
    self.stops = stops
    self.lastResponse = lastResponse
    self.isRiskAccepted = isRiskAccepted
  }
}

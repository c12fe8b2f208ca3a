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
/// The cursor is a position of the log. Commands typed after `:` run in a ``ReplaySession``
/// kept at the same position, so they behave exactly as in `replay LOG`.
final class TUIModel {
  /// The log and its timeline.
  let opened: OpenedLog
  /// The session that runs `:` commands, continue, find and watch.
  let session: ReplaySession
  /// Collects what the session writes, for the message area.
  private let output = TUISessionOutput()
  /// Columns of the screen.
  private(set) var width: Int
  /// Rows of the screen.
  private(set) var height: Int
  /// The cursor: a position of the log.
  var position: Int
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
  /// The last few states rebuilt, newest last.
  private var stateCache: [(position: Int, view: TUIStateView)] = []
  /// The changes of the last action diffed.
  private var diffCache: (position: Int, changes: Result<[JSONChange]?, SessionFailure>)?

  /// A model at the session's start (the initial state of `opened`, or its first checkpoint when
  /// the initial state is not in the file), for a `width` × `height` screen.
  init(opened: OpenedLog, width: Int, height: Int) {
    self.opened = opened
    self.session = ReplaySession(opened: opened, output: output)
    self.width = max(0, width)
    self.height = max(0, height)
    position = session.position
    listTop = position
  }

  /// The log.
  var log: ReplayLog { opened.log }

  /// Where things go on the current screen.
  var layout: TUILayout { TUILayout(width: width, height: height, showsDiff: showsDiff) }

  /// Adapts to a new screen size.
  func resize(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    followPosition()
  }

  /// Whether `position` is the last action of a cut-off log, whose reducer may crash this
  /// process, and the user has not yet asked to rebuild it. Only with `--no-isolate`: a reducer
  /// in a child process cannot crash this one.
  func needsConfirmation(_ position: Int) -> Bool {
    guard log.isCutOff, log.actionCount > 0, position == log.lastSeq, !isRiskAccepted,
      let timeline = opened.timeline
    else { return false }
    return !(timeline is IsolatedTimeline)
  }

  /// The state at `position`, rebuilt once and kept for the next few redraws.
  /// - Complexity: What ``AnyTimeline/stateJSONText(at:)`` costs, once per position visited.
  func state(at position: Int) -> TUIStateView {
    if needsConfirmation(position) { return .unconfirmed }
    if let cached = stateCache.first(where: { $0.position == position }) { return cached.view }
    // Made room for first: two large states are never held at once for it.
    if stateCache.count >= statesKept { stateCache.removeFirst(stateCache.count - statesKept + 1) }
    let view: TUIStateView
    do throws(CommandFailure) {
      view = .value(try opened.stateDocument(at: position))
    } catch {
      if case .replay(.reducerCrashed(let report)) = error {
        view = .crashed(report)
      } else {
        let diagnostic = error.diagnostic
        view = .unavailable(diagnostic.message + (diagnostic.notes.first.map { "; " + $0 } ?? ""))
      }
    }
    stateCache.append((position, view))
    if stateCache.count > statesKept { stateCache.removeFirst() }
    return view
  }

  /// How many states ``state(at:)`` keeps: 4, or for a log whose states are large (4 MiB of text
  /// or more) only the one shown.
  private var statesKept: Int {
    opened.log.recordedStateByteCount >= 4 << 20 ? 1 : 4
  }

  /// What the action at `position` changed, or `nil` for the initial state (no action led
  /// there) and the unconfirmed last state of a cut-off log.
  func changes(at position: Int) -> Result<[JSONChange]?, SessionFailure>? {
    guard position > log.positions.lowerBound else { return nil }
    if let diffCache, diffCache.position == position { return diffCache.changes }
    let result: Result<[JSONChange]?, SessionFailure>
    switch (state(at: position - 1), state(at: position)) {
    case (.value(let old), .value(let new)):
      result = .success(JSONDiff.diff(checkedOldText: old.text, checkedNewText: new.text))
    case (.unavailable(let reason), _), (_, .unavailable(let reason)):
      result = .failure(SessionFailure(reason))
    case (_, .unconfirmed), (.unconfirmed, _): return nil
    case (.crashed(let report), _), (_, .crashed(let report)):
      result = .failure(SessionFailure(report.headline))
    }
    diffCache = (position, result)
    return result
  }

  /// Forgets rebuilt states (after `skip`, which changes them).
  func forgetStates() {
    stateCache.removeAll()
    diffCache = nil
  }

  /// Moves the cursor to `target`, clamped to the log's positions, and scrolls to it.
  ///
  /// A jump to or past an action that crashes the app's reducer, from before it, stops at the
  /// last good position and shows the crash's headline; stepping onto the crashing action from
  /// there shows its crash card.
  func move(to target: Int) {
    let range = log.positions
    let wanted = min(max(target, range.lowerBound), range.upperBound)
    if wanted > position, case .crashed(let report) = state(at: wanted),
      let lastGood = report.lastGood, position < lastGood, range.contains(lastGood)
    {
      position = lastGood
      // One line: the message line, not the output panel that would cover the list's cursor.
      // Where the cursor is and what → does come first: a narrow terminal cuts the end.
      messages = [
        TUIMessageLine(
          text: "stopped at \(lastGood) (→ shows the crash): \(report.headline)",
          isError: true)
      ]
    } else {
      position = wanted
    }
    followPosition()
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

  /// Collects what the session wrote, as messages.
  func takeSessionOutput() -> [TUIMessageLine] {
    output.take()
  }

  /// Shows one message line.
  func report(_ text: String, isError: Bool = false) {
    messages = [TUIMessageLine(text: text, isError: isError)]
  }
}

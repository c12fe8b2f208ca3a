import RewindJSON
import RewindReplay

/// The replay service of one opened log, for any front end: the ``Debugger`` (cursor,
/// watchpoints and breakpoints, skips, crash landing) over an ``OpenedLog`` (app, migrations,
/// isolation), answering typed requests (``ReplayRequest``) with typed responses.
///
/// The REPL and `-c`, the TUI, the one-shot `state` command and the protocol front ends all go
/// through ``perform(_:)``; none keeps a cursor of its own or reads another's text.
package final class ReplayService {
  /// The log and its timeline.
  package let opened: OpenedLog
  /// The cursor, watchpoints, breakpoints and skips.
  package let debugger: Debugger
  /// Whether the note that the cut-off log's last action replays without a crash was given.
  private var toldCleanLastAction = false
  /// Whether the log is still being written by a running app (`replay listen`): its last
  /// action is not where the app stopped, so the note on it is never given.
  package var isLive = false
  /// The last few state texts rebuilt, newest last, for a front end that shows states and diffs
  /// as the cursor moves (``stateText(at:)``).
  private var stateTexts: [(position: Int, text: Result<[UInt8], DebuggerError>)] = []
  /// The last diff found (``diff(from:to:)``).
  private var lastDiff: StateDiff?
  /// The last state read a level at a time (``stateDocument(at:)``).
  private var lastDocument: (position: Int, document: StateDocument)?
  /// What a long request that is not a walk of the timeline reports as it goes (the candidates
  /// `shrink` has tried): the work done and the work to do. (A timeline's rebuilds report to its
  /// own `progress`.)
  package var onProgress: ((_ done: Int, _ total: Int) -> Void)?

  /// The service of `opened`, at its first position (or first checkpoint when the file lacks
  /// its initial state).
  package init(opened: OpenedLog) {
    self.opened = opened
    debugger = Debugger(log: opened.log, timeline: opened.timeline)
  }

  /// The log.
  package var log: ReplayLog { opened.log }
  /// The cursor's position.
  package var position: Int { debugger.position }
  /// The seqs of the actions the replay skips, ascending.
  package var skips: [Int] { opened.timeline?.skippedSeqs.sorted() ?? [] }

  /// Runs `request`. A request whose type is known only at run time (`any ReplayRequest`, one
  /// parsed from words) is answered with `any ReplayResponse`.
  /// - Throws: Why it could not be done.
  package func perform<Request: ReplayRequest>(_ request: Request) throws(ReplayFailure)
    -> Request.Response
  {
    try request.run(on: self)
  }

  /// The request `words` spell: `["watch", "todos.count"]`.
  /// - Throws: ``ReplayFailure/unknownCommand(_:suggestion:)``, or the command's usage error.
  package func request(_ words: [String]) throws(ReplayFailure) -> any ReplayRequest {
    guard let word = words.first else { throw .usage("expected a command; type 'help'") }
    guard let command = ReplayCommandTable.lookup(word) else {
      throw .unknownCommand(
        word, suggestion: closestMatch(to: word, in: ReplayCommandTable.all.map(\.name)))
    }
    return try command.parse(Array(words.dropFirst()), self)
  }

  /// Runs a debugger operation; its error becomes the request's failure.
  package func debug<Result>(_ body: () throws(DebuggerError) -> Result) throws(ReplayFailure)
    -> Result
  {
    do { return try body() } catch { throw .debugger(error) }
  }

  // MARK: Landings

  /// Where the cursor is now, as a response tells it.
  package func landing() -> Landing {
    let position = debugger.position
    guard position > log.positions.lowerBound, let action = try? log.action(at: position) else {
      return Landing(position: position, action: nil, isSkipped: false)
    }
    return Landing(
      position: position, action: action,
      isSkipped: opened.timeline?.skippedSeqs.contains(position) == true)
  }

  /// The response to a move: where it ended, and whether this is the first time the cursor
  /// reached the last action of a cut-off log that replays here without a crash (the app
  /// stopped somewhere else).
  package func response(to motion: Debugger.Motion) -> MotionResponse {
    var note = false
    if case .moved(let target) = motion, log.isCutOff, target == log.lastSeq,
      log.actionCount > 0, let timeline = opened.timeline, !timeline.skippedSeqs.contains(target),
      !isLive, LastActionCheck.logEndsWhereTheAppStopped(log), !toldCleanLastAction
    {
      toldCleanLastAction = true
      note = true
    }
    return MotionResponse(motion: motion, landing: landing(), lastActionReplaysCleanly: note)
  }

  // MARK: States for a viewer

  /// The checked JSON text of the state at `position`, kept for the next few calls (4 states, or
  /// for a log whose states are large, 4 MiB of text or more, only the last one; a viewer holds
  /// the one it shows): a viewer that redraws and diffs as the cursor moves rebuilds each state
  /// once. (`Scripts/tui-memory-check.sh` measures the TUI's peak on a 21 MB state.)
  /// - Throws: What ``Debugger/stateText(of:timeline:at:)`` throws (a crash of the app's reducer
  ///   as ``DebuggerError/replay(_:)``).
  package func stateText(at position: Int) throws(DebuggerError) -> [UInt8] {
    let result: Result<[UInt8], DebuggerError>
    if let cached = stateTexts.first(where: { $0.position == position }) {
      result = cached.text
    } else {
      let kept = keptStates
      // Made room for first: no more than `kept` states are ever held at once for it.
      if stateTexts.count >= kept { stateTexts.removeFirst(stateTexts.count - kept + 1) }
      do throws(DebuggerError) {
        // Without the app's reducer, the text the file holds, as it is, where it holds one.
        if opened.timeline == nil, let text = opened.recordedStateText(at: position) {
          result = .success(text)
        } else {
          result = .success(try opened.stateText(at: position))
        }
      } catch {
        result = .failure(error)
      }
      stateTexts.append((position, result))
    }
    return try result.get()
  }

  /// How many state texts ``stateText(at:)`` keeps: 4, or 1 for a log whose states are large
  /// (4 MiB of text or more).
  private var keptStates: Int { log.recordedStateByteCount >= 4 << 20 ? 1 : 4 }

  /// What changed from the state at `from` to the state at `to`, found from the two states'
  /// texts (``stateText(at:)``): neither is built as a tree. The later state is looked up first,
  /// so that a large one a viewer shows is not rebuilt a second time while the earlier one is;
  /// the last diff is kept, for a viewer that redraws it.
  package func diff(from: Int, to: Int) throws(DebuggerError) -> StateDiff {
    if let lastDiff, lastDiff.from == from, lastDiff.to == to { return lastDiff }
    let new = try stateText(at: to)
    let old = try stateText(at: from)
    let diff = StateDiff(
      from: from, to: to, changes: JSONDiff.diff(checkedOldText: old, checkedNewText: new))
    lastDiff = diff
    // Large states: the earlier one is not kept past its diff (a viewer shows the later one).
    if keptStates < 4, from != to { stateTexts.removeAll { $0.position == from } }
    return diff
  }

  /// The state at `position` read a level at a time (``StateDocument``), kept until another
  /// position's is asked for: a front end that pages through a large state's members
  /// (``ChildrenRequest``) reads each level of its text once.
  /// - Throws: What ``stateText(at:)`` throws.
  package func stateDocument(at position: Int) throws(DebuggerError) -> StateDocument {
    if let lastDocument, lastDocument.position == position { return lastDocument.document }
    lastDocument = nil
    let document = StateDocument(checkedText: try stateText(at: position))
    lastDocument = (position, document)
    return document
  }

  /// Forgets the states kept (after a skip, which changes them).
  package func forgetStates() {
    stateTexts.removeAll()
    lastDiff = nil
    lastDocument = nil
  }
}

/// Where the cursor is after a request that moves it: the position, and the action that led
/// there (none at the initial state).
package struct Landing: Sendable {
  /// The cursor's position.
  package var position: Int
  /// The action that led there, when there is one and it reads.
  package var action: RecordedAction?
  /// Whether the replay skips that action.
  package var isSkipped: Bool

  /// `"position"` and, when an action led there, `"action"` (``ActionDetail/jsonValue``).
  package var jsonMembers: [JSONMember] {
    var members = [JSONMember("position", .number(String(position)))]
    if let action {
      members.append(
        JSONMember("action", ActionDetail(action: action, isSkipped: isSkipped).jsonValue))
    }
    return members
  }
}

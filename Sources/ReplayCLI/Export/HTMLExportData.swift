import Foundation
import RewindJSON
import RewindReplay
import RewindReplayService

/// The data an exported page shows, as one JSON object: the page's script reads it from the
/// `<script type="application/json" id="rewind-data">` element.
///
/// ```json
/// {"format":"rewind-html","version":2,
///  "info":{…replay info --json…},"ended":"cleanly (end record)",
///  "actions":[{"seq":1,"time":0.250000,"type":"increment","action":{"increment":{}},"line":2}, …],
///  "states":{"rebuilt":true,"interval":1000,"first":0,"last":12,
///            "full":[[0,{"count":0}]],"patches":[[{"op":"replace","path":"/count","value":1}], …],
///            "orders":[],"stoppedSeq":null,"failure":null},
///  "costs":{…replay profile --json…}}
/// ```
///
/// `actions[i]` is the action with seq `info.firstSeq + i`, in the one JSON form of an action
/// (``RecordedAction/jsonValue``, as `replay action --json` and `list --json` give it). `states`
/// is described on ``HTMLExportStates``. `costs`, when present, is what each action type cost
/// the reducer, in the form of `replay profile --json` (one pass, measured by the export).
enum HTMLExportData {
  /// The `format` member, naming this layout.
  static let format = "rewind-html"
  /// The `version` member, raised when the layout changes incompatibly (2: each action in its
  /// one JSON form, not `[time, type, payload]`).
  static let version = 2

  /// Writes the page's data for `log` into `page`, with states rebuilt by `timeline` when there
  /// is one, as JSON text escaped for the script element (the states' texts written into it as
  /// they are, never built as trees).
  ///
  /// - Parameters:
  ///   - timeline: The app's timeline, or `nil` when the app is not known (then the states are
  ///     the recorded ones only).
  ///   - fullStateInterval: Embed a full state every this many positions.
  ///   - page: The page so far; its room is reserved for the data.
  ///   - progress: Called while states are rebuilt, with the positions done and to do.
  /// - Throws: `ReplayError.fault` when an action's line cannot be read.
  /// - Complexity: O(*n*) actions read, plus the cost of ``HTMLExportStates/rebuilt(log:timeline:interval:progress:)``.
  static func write(
    log: ReplayLog, timeline: (any ReplayTimeline)?, fullStateInterval: Int,
    costs: () -> JSONValue? = { nil }, into page: inout ScriptJSONWriter,
    progress: ((_ done: Int, _ total: Int) -> Void)? = nil
  ) throws(ReplayError) {
    // The actions' JSON is read on another thread while the worker times the reducer for the
    // costs and the states are rebuilt and diffed (which leave a core idle while they wait for
    // the worker).
    let actionsRead = ActionsRead(log: log)
    let costs = costs()
    let states =
      if let timeline {
        HTMLExportStates.rebuilt(
          log: log, timeline: timeline, interval: fullStateInterval, progress: progress)
      } else {
        HTMLExportStates.recorded(log: log)
      }
    var head: [UInt8] = []
    JSONValue.object([
      JSONMember("format", .string(format)),
      JSONMember("version", .number(String(version))),
      JSONMember("info", log.summaryJSON(appKnown: timeline != nil)),
      JSONMember("ended", .string(LogSummary.endText(log))),
      JSONMember("actions", .array(try actionsRead.wait().get())),
      JSONMember("costs", costs ?? .null),
    ]).write(into: &head)
    // Room for the rest of the page: the states and their patches, the script after them.
    page.bytes.reserveCapacity(
      page.bytes.count + head.count + states.fullStatesSize + states.fullStatesSize / 64
        + 64 * states.patches.count + (1 << 20))
    // The states, as the object's last member.
    head.removeLast()
    page.append(head)
    page.append(#","states":"#)
    states.write(into: &page)
    page.append("}")
  }

  /// Every action of `log` in its one JSON form, in seq order.
  /// - Throws: `ReplayError.fault` when an action's line cannot be read.
  static func actions(of log: ReplayLog) throws(ReplayError) -> [JSONValue] {
    guard log.actionCount > 0 else { return [] }
    var actions: [JSONValue] = []
    actions.reserveCapacity(log.actionCount)
    for seq in log.firstSeq...log.lastSeq {
      actions.append(try log.action(at: seq).jsonValue)
    }
    return actions
  }
}

/// The JSON of every action of a log (``HTMLExportData/actions(of:)``), read in the background.
private final class ActionsRead: @unchecked Sendable {
  // @unchecked: `result` is written once by the background work before it leaves `group`, and
  // read only after `wait()` has waited for the group.
  /// The background work.
  private let group = DispatchGroup()
  /// The actions, or why one could not be read, once the work is done.
  private var result: Result<[JSONValue], ReplayError> = .success([])

  /// Starts reading the actions of `log`.
  init(log: ReplayLog) {
    DispatchQueue.global().async(group: group) {
      self.result = Result { () throws(ReplayError) in try HTMLExportData.actions(of: log) }
    }
  }

  /// The actions, once read.
  func wait() -> Result<[JSONValue], ReplayError> {
    group.wait()
    return result
  }
}

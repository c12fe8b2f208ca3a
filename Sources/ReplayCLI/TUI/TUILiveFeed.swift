import Dispatch
import Rewind
import RewindReplayService
import RewindServers

/// What keeps `replay tui --listen` up to date between keys: the listener's events (the app
/// went away, came back, dropped actions) and the growth of the app's saved log, read again
/// when it grew (``TUIModel/grew(to:)``).
///
/// Reading the log again costs as much as opening it, so it is done at most every
/// ``interval`` and, on a long log, no more than a quarter of the time: the next read waits
/// three times as long as the last one took.
final class TUILiveFeed {
  /// How often ``TUIApp`` wakes to look for new actions when no key comes, in milliseconds.
  static let interval: Int32 = 200

  /// The started listener and its events.
  let listening: LiveListening
  /// The app shown.
  let app: LiveListener.App
  /// Opens the app's saved log as it is now, or says why it cannot.
  private let open: (String) -> Result<OpenedLog, CommandFailure>
  /// How many bytes of the app's log were read.
  private var openedBytes: Int
  /// When the log may be read again.
  private var nextRead = DispatchTime.now()
  /// Why the log could not be read the last time, once said on the message row.
  private var lastProblem: String?

  /// A feed of `app`'s log, read `openedBytes` long already, through `open`.
  init(
    listening: LiveListening, app: LiveListener.App, openedBytes: Int,
    open: @escaping (String) -> Result<OpenedLog, CommandFailure>
  ) {
    self.listening = listening
    self.app = app
    self.openedBytes = openedBytes
    self.open = open
  }

  /// Shows `model` what arrived since the last call: the listener's events in its status and
  /// message row, and the new actions.
  /// - Returns: Whether anything it shows changed.
  func update(_ model: TUIModel) -> Bool {
    var changed = false
    for event in listening.events.take() {
      guard var status = model.live else { break }
      let line = status.note(event)
      changed = changed || status != model.live
      model.live = status
      if let line, model.prompt == nil, model.messages.isEmpty {
        model.messages = [line]
        changed = true
      }
    }
    let now = DispatchTime.now()
    guard now >= nextRead, let size = Platform.fileIdentity(app.path)?.size, size > openedBytes
    else { return changed }
    defer {
      let took = DispatchTime.now().uptimeNanoseconds - now.uptimeNanoseconds
      nextRead = DispatchTime.now() + .nanoseconds(Int(min(took, UInt64(Int.max / 4)) * 3))
    }
    switch open(app.path) {
    case .success(let opened):
      openedBytes = size
      lastProblem = nil
      model.grew(to: opened)
      return true
    case .failure(let failure):
      // Read again as the log grows; said once, not at each try.
      let problem = failure.diagnostic.message
      guard problem != lastProblem else { return changed }
      lastProblem = problem
      model.report("live: the app's log \(app.path) cannot be read: \(problem)", isError: true)
      return true
    }
  }
}

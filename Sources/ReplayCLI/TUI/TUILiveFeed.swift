import Dispatch
import Rewind
import RewindReplayService
import RewindServers

/// What keeps `replay tui --listen` up to date between keys: the listener's events (an app
/// connected, went away, came back, dropped actions) and the growth of the saved log of the app
/// shown, read again when it grew (``TUIModel/grew(to:)``); and what the model asks of the
/// connection (``TUILiveSource``): another app's log, `dispatch`.
///
/// Reading the log again costs as much as opening it, so it is done at most every
/// ``interval`` and, on a long log, no more than a quarter of the time: the next read waits
/// three times as long as the last one took.
final class TUILiveFeed: TUILiveSource {
  /// How often ``TUIApp`` wakes to look for new actions when no key comes, in milliseconds.
  static let interval: Int32 = 200

  /// The started listener and its events.
  let listening: LiveListening
  /// The app shown first.
  let first: LiveListener.App
  /// The apps connected, by session: the latest connection of each (what `dispatch` sends on).
  private var apps: [String: LiveListener.App]
  /// Opens an app's saved log as it is now, or says why it cannot.
  private let openLog: (String) -> Result<OpenedLog, CommandFailure>
  /// How many bytes of each app's log were read, by path.
  private var openedBytes: [String: Int]
  /// When the log may be read again.
  private var nextRead = DispatchTime.now()
  /// Why the log could not be read the last time, once said on the message row.
  private var lastProblem: String?

  /// A feed that shows `first`'s log first, read `openedBytes` long already, through `open`.
  init(
    listening: LiveListening, first: LiveListener.App, openedBytes: Int,
    open: @escaping (String) -> Result<OpenedLog, CommandFailure>
  ) {
    self.listening = listening
    self.first = first
    self.apps = [first.hello.session: first]
    self.openedBytes = [first.path: openedBytes]
    self.openLog = open
  }

  /// Shows `model` what arrived since the last call: the listener's events in its statuses and
  /// message row, and the new actions of the app shown.
  /// - Returns: Whether anything it shows changed.
  func update(_ model: TUIModel) -> Bool {
    var changed = false
    for event in listening.events.take() where take(event, into: model) { changed = true }
    guard DispatchTime.now() >= nextRead else { return changed }
    return read(into: model) || changed
  }

  /// Keeps the app of `event` and gives `event` to `model`; whether what it shows changed.
  private func take(_ event: LiveListener.Event, into model: TUIModel) -> Bool {
    if case .connected(let app) = event { apps[app.hello.session] = app }
    return model.note(event)
  }

  /// Reads the log of the app `model` shows again, when it grew.
  /// - Returns: Whether anything shown changed.
  private func read(into model: TUIModel) -> Bool {
    let start = DispatchTime.now()
    guard let path = model.live?.path, let size = Platform.fileIdentity(path)?.size,
      size > openedBytes[path, default: 0]
    else { return false }
    defer {
      let took = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
      nextRead = DispatchTime.now() + .nanoseconds(Int(min(took, UInt64(Int.max / 4)) * 3))
    }
    switch open(path) {
    case .success(let opened):
      lastProblem = nil
      model.grew(to: opened)
      return true
    case .failure(let failure):
      // Read again as the log grows; said once, not at each try.
      let problem = failure.diagnostic.message
      guard problem != lastProblem else { return false }
      lastProblem = problem
      model.report("live: the app's log \(path) cannot be read: \(problem)", isError: true)
      return true
    }
  }

  /// Opens the log at `path` as it is now, noting how much of it was read.
  func open(_ path: String) -> Result<OpenedLog, CommandFailure> {
    let size = Platform.fileIdentity(path)?.size ?? 0
    let result = openLog(path)
    if case .success = result { openedBytes[path] = size }
    return result
  }

  /// `:dispatch ACTION`, through ``LiveListening/dispatch(_:to:other:)`` as `replay listen`
  /// does: on the app's answer, reads its log until the action is there and shows it as
  /// `action N` does, under `dispatched: APP recorded it as #N`; otherwise `error: ` and why.
  func dispatch(_ text: String, in model: TUIModel) {
    guard let shown = model.live, let app = apps[shown.session] else {
      model.report("error: dispatch: no app is connected to this view", isError: true)
      return
    }
    let result = listening.dispatch(text, to: app) { _ = take($0, into: model) }
    switch result {
    case .failure(let failure):
      model.report("error: " + failure.message, isError: true)
    case .success(let seq):
      // Its line follows the answer: read until it is here.
      let deadline = DispatchTime.now() + LiveListening.dispatchTimeout
      while model.log.lastSeq < seq, DispatchTime.now() < deadline {
        _ = read(into: model)
        if model.log.lastSeq < seq { listening.events.wait(milliseconds: 20) }
      }
      let said = TUIMessageLine(
        text: "dispatched: \(inert(app.hello.app)) recorded it as #\(seq)", isError: false)
      guard model.log.lastSeq >= seq else {
        model.messages = [said]
        return
      }
      model.run(commandLine: "action \(seq)")
      model.messages.insert(said, at: 0)
    }
  }
}

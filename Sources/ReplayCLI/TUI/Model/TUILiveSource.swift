import RewindReplayService

/// What `replay tui --listen`'s model asks of the connection to the running apps (the
/// ``TUILiveFeed``): the saved log of an app not shown yet, and `dispatch ACTION`.
protocol TUILiveSource: AnyObject {
  /// Opens the saved log at `path` (an app's session) as it is now, or says why it cannot.
  func open(_ path: String) -> Result<OpenedLog, CommandFailure>

  /// `:dispatch ACTION` (`text` the action's JSON): sends it into the app `model` shows, and
  /// shows the answer in `model` as `replay listen` does.
  func dispatch(_ text: String, in model: TUIModel)
}

import Rewind
import RewindServers

/// What the full-screen debugger says of the running app it shows (`replay tui --listen`): the
/// app, whether it is still connected, and how many of its actions never reached the viewer.
struct TUILiveStatus: Sendable, Equatable {
  /// The app's name, from its greeting.
  var app: String
  /// The recording's session id.
  var session: String
  /// The app's machine.
  var host: String
  /// The file its session is saved to.
  var path: String
  /// Whether the app was shown yet (one that connected while another was shown was not).
  var wasShown = false
  /// Actions the app could not send (its queue overflowed): skipped lines of the log.
  var dropped = 0
  /// Why the app's connection ended, while it is not connected; `nil` while it is.
  var disconnected: String?
  /// Where a watchpoint or breakpoint last stopped the view on new actions; the view stays
  /// there, no longer following the end, until the user moves the cursor.
  var stoppedAt: Int?

  /// The status of the app that greeted with `hello`, connected, its session saved to `path`.
  init(hello: LiveProtocol.Hello, path: String = "") {
    app = hello.app
    session = hello.session
    host = hello.host
    self.path = path
  }

  /// `counter (session 1a2b3c4d, host mac)`.
  var name: String { "\(app) (session \(session.prefix(8)), host \(host))" }

  /// The header's words for the app: `live · app counter (session 1a2b3c4d, host mac)`, with
  /// `disconnected` for `live` once the app went away.
  var headerText: String {
    "\(disconnected == nil ? "live" : "disconnected") · app \(name)"
  }

  /// Takes in what the listener reported of this app (events of others change nothing); returns
  /// the line the message row shows for it, if any (drops are counted in the header instead).
  mutating func note(_ event: LiveListener.Event) -> TUIMessageLine? {
    switch event {
    case .connected(let other):
      // Another app is the model's to add (``TUIModel/note(_:)``).
      guard other.hello.session == session else { return nil }
      let wasAway = disconnected != nil
      disconnected = nil
      return wasAway ? TUIMessageLine(text: "\(app) reconnected", isError: false) : nil
    case .disconnected(let other, let reason):
      guard other.hello.session == session else { return nil }
      disconnected = reason
      return TUIMessageLine(text: "\(app) disconnected: \(reason)", isError: false)
    case .refused(let connection, let reason):
      return TUIMessageLine(text: "refused connection \(connection): \(reason)", isError: true)
    case .received(let other, _, let count):
      if other.hello.session == session { dropped += count }
      return nil
    case .dispatchAnswered(_, .dispatched(_, let seq)):
      return TUIMessageLine(text: "the app recorded the viewer's action as #\(seq)", isError: false)
    case .dispatchAnswered(_, .refused(let refusal)):
      return TUIMessageLine(text: "the app refused the action: \(refusal.reason)", isError: true)
    }
  }
}

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
  /// Actions the app could not send (its queue overflowed): skipped lines of the log.
  var dropped = 0
  /// Why the app's connection ended, while it is not connected; `nil` while it is.
  var disconnected: String?
  /// Where a watchpoint or breakpoint last stopped the view on new actions; the view stays
  /// there, no longer following the end, until the user moves the cursor.
  var stoppedAt: Int?

  /// The status of the app that greeted with `hello`, connected.
  init(hello: LiveProtocol.Hello) {
    app = hello.app
    session = hello.session
    host = hello.host
  }

  /// The header's words for the app: `live · app counter (session 1a2b3c4d, host mac)`, with
  /// `disconnected` for `live` once the app went away.
  var headerText: String {
    "\(disconnected == nil ? "live" : "disconnected") · app \(app) "
      + "(session \(session.prefix(8)), host \(host))"
  }

  /// Takes in what the listener reported; returns the line the message row shows for it, if
  /// any (drops are counted in the header instead).
  mutating func note(_ event: LiveListener.Event) -> TUIMessageLine? {
    switch event {
    case .connected(let other):
      guard other.hello.session == session else {
        return TUIMessageLine(
          text: "another app connected: \(other.hello.app) (session "
            + "\(other.hello.session.prefix(8)), host \(other.hello.host)), saved to "
            + "\(other.path); this view stays on \(app)",
          isError: false)
      }
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

import Foundation
import Rewind
import RewindJSON
import RewindReplay
import RewindReplayService
import RewindServers

/// Why `dispatch ACTION` got no action recorded: the line a viewer shows after `error: `.
struct LiveDispatchFailure: Error, Equatable {
  /// The line, made inert.
  var message: String
}

extension LiveListening {
  /// How long `dispatch` waits for the app's answer, and then for the action's line.
  static let dispatchTimeout = DispatchTimeInterval.seconds(5)

  /// The action of a `dispatch ACTION` command line: what follows the word `dispatch`.
  static func dispatchedText(of line: String) -> String {
    line.drop(while: { $0 == " " || $0 == "\t" }).dropFirst("dispatch".count)
      .trimmingCharacters(in: .whitespaces)
  }

  /// `dispatch ACTION`, for `replay listen` and `replay tui --listen`: checks `text` (the
  /// action's JSON as the log writes it), sends it to `app` when its greeting said it accepts
  /// actions, and waits up to ``dispatchTimeout`` for the app's answer.
  ///
  /// - Parameters:
  ///   - other: Gets, in order, the listener's events that arrived meanwhile other than the
  ///     answer.
  /// - Returns: The `seq` the app recorded the action as (its line follows the answer), or why
  ///   it was not.
  func dispatch(
    _ text: String, to app: LiveListener.App, other: (LiveListener.Event) -> Void
  ) -> Result<Int, LiveDispatchFailure> {
    let name = inert(app.hello.app)
    guard !text.isEmpty else {
      return .failure(
        LiveDispatchFailure(
          message:
            #"dispatch ACTION: the action's JSON as the log writes it, e.g. dispatch {"add":{"title":"Milk"}}"#
        ))
    }
    guard app.hello.acceptsActions else {
      return .failure(
        LiveDispatchFailure(
          message:
            "\(name) does not accept actions from the viewer: give its LiveViewer acceptsActions: true, in a debug build (docs/live.md, Sending actions)"
        ))
    }
    let action: JSONValue
    do {
      action = try JSONParser.parse(Array(text.utf8))
    } catch {
      return .failure(LiveDispatchFailure(message: "the action is not JSON: \(inert("\(error)"))"))
    }
    let id: Int
    do throws(LiveRefusal) {
      id = try listener.dispatch(action, toConnection: app.connection)
    } catch {
      return .failure(LiveDispatchFailure(message: inert(error.description)))
    }
    // The app answers once its store recorded the action (or at once, refusing it).
    let deadline = DispatchTime.now() + Self.dispatchTimeout
    var answer: LiveProtocol.DispatchAnswer?
    while answer == nil, DispatchTime.now() < deadline {
      for event in events.take() {
        if case .dispatchAnswered(_, let reply) = event, reply.id == id {
          answer = reply
        } else {
          other(event)
        }
      }
      if answer == nil { events.wait(milliseconds: 50) }
    }
    switch answer {
    case .refused(let refusal):
      return .failure(
        LiveDispatchFailure(message: "\(name) refused the action: \(inert(refusal.reason))"))
    case .dispatched(_, let seq):
      return .success(seq)
    case nil:
      return .failure(
        LiveDispatchFailure(
          message:
            "no answer from \(name) in 5 s: its main queue may be busy, or a middleware dropped the action"
        ))
    }
  }
}

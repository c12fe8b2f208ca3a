import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The child side of `replay tail`'s crash-isolated states: `replay __follow APP LOG ACTION-TYPE
/// STATE-TYPE` applies each action the parent sends to a follower of the app (the types tell
/// apps of one name apart), so that a reducer that traps kills this process, not `tail`. The parent applies the same action in its own follower once this one
/// has come through it (reducers are deterministic: docs/determinism.md), so no state is sent.
///
/// Requests, one ``FollowerRequest`` line each on stdin, each answered by one ``WorkerReply``
/// line on stdout: ``WorkerReply/done`` once done, or ``WorkerReply/failed(_:)`` with the typed
/// error (an action that does not decode).
package enum FollowerWorkerMode {
  package static let command = "__follow"

  package static func run(_ arguments: [String], apps: [ReplayApp]) -> Int32 {
    // `__follow APP [LOG [ACTION-TYPE STATE-TYPE]]`: the types tell apps of one name apart.
    guard let name = arguments.first,
      let app = ReplayApp.recording(
        app: name, actionType: arguments.count > 3 ? arguments[2] : "",
        stateType: arguments.count > 3 ? arguments[3] : "", among: apps)
    else {
      var line = Array("replay follower: this binary does not know the app\n".utf8)
      line.withUnsafeMutableBytes { _ = Platform.writeAll(2, UnsafeRawBufferPointer($0)) }
      return ExitStatus.trouble
    }
    if arguments.count > 1 { StepMarker.setLog(arguments[1]) }
    var follower: (any StateFollower)?
    while let line = Swift.readLine(strippingNewline: true) {
      var reply = WorkerReply.done
      do throws(ReplayError) {
        switch try FollowerRequest(line: Array(line.utf8)) {
        case .reset(let state):
          follower = try app.follower(initialState: state)
        case .apply(let action, let seq, let type, let line):
          guard let follower else {
            throw .encodingFailed(what: "follower request", reason: "apply came before reset")
          }
          _ = try follower.apply(action, seq: seq, type: type, line: line)
        }
      } catch {
        reply = .failed(error)
      }
      reply.line.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
    }
    return ExitStatus.success
  }
}

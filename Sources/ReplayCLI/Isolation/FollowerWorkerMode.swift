import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The child side of `replay tail`'s crash-isolated states: `replay __follow APP LOG ACTION-TYPE
/// STATE-TYPE` applies each action the parent sends to a follower of the app (the types tell
/// apps of one name apart), so that a reducer that traps kills this process, not `tail`. The parent applies the same action in its own follower once this one
/// has come through it (reducers are deterministic: docs/determinism.md), so no state is sent.
///
/// Requests, one JSON line each on stdin, each answered by one line on stdout:
/// - `{"op":"reset","state":…}` → `{"ok":true}`: start from this state;
/// - `{"op":"apply","action":…,"seq":N,"type":T,"line":L}` → `{"ok":true}` once applied.
///
/// A failure (an action that does not decode) answers `{"ok":false,"error":"…"}`; the parent's
/// own follower gives the typed error.
enum FollowerWorkerMode {
  static let command = "__follow"

  static func run(_ arguments: [String], apps: [ReplayApp]) -> Int32 {
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
      var reply = JSONValue.object([JSONMember("ok", .bool(true))])
      do {
        let request = try JSONParser.parse(Array(line.utf8))
        switch request["op"]?.stringValue {
        case "reset":
          follower = try app.follower(initialState: request["state"] ?? .null)
        case "apply":
          guard let follower else { throw WorkerError("apply before reset") }
          _ = try follower.apply(
            request["action"] ?? .null, seq: request["seq"]?.intValue ?? 0,
            type: request["type"]?.stringValue, line: request["line"]?.intValue ?? 0)
        default:
          throw WorkerError("unknown request")
        }
      } catch {
        reply = .object([JSONMember("ok", .bool(false)), JSONMember("error", .string("\(error)"))])
      }
      var bytes = reply.serializedBytes
      bytes.append(UInt8(ascii: "\n"))
      bytes.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
    }
    return ExitStatus.success
  }
}

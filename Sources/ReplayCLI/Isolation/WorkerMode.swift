import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// The child side of crash-isolated replay: `replay __worker LOG RECOVERY` reads one JSON request
/// per line on stdin and answers one JSON line on stdout. A reducer that traps kills only this
/// process; its last stderr line (the crash reporter's) names the action.
///
/// Requests:
/// - `{"op":"state","at":N,"skips":[…]}` → `{"ok":true,"state":…}`
/// - `{"op":"run","seqs":[…]}` → the state after applying just those actions, in that order, to the
///   header's state: `{"ok":true,"state":…}`
/// - `{"op":"check","seq":N}` → `{"ok":true}` when the action decodes
///
/// A failure answers `{"ok":false,"error":"…"}`.
enum WorkerMode {
  static let command = "__worker"

  static func run(_ arguments: [String], apps: [ReplayApp]) -> Int32 {
    guard arguments.count == 2, let recovery = RecoveryMode(rawValue: arguments[1]) else {
      return ExitStatus.trouble
    }
    let timeline: any AnyTimeline
    do {
      let log = try ReplayLog(path: arguments[0], recovery: recovery)
      guard let app = apps.first(where: { $0.name == log.header.app }) else {
        return ExitStatus.trouble
      }
      timeline = try app.timeline(for: log)
      StepMarker.setLog(arguments[0])
    } catch {
      return ExitStatus.trouble
    }
    while let line = Swift.readLine(strippingNewline: true) {
      respond(to: line, timeline: timeline)
    }
    return ExitStatus.success
  }

  private static func respond(to line: String, timeline: any AnyTimeline) {
    var reply: JSONValue
    do {
      let request = try JSONParser.parse(line)
      switch request["op"]?.stringValue {
      case "state":
        let wanted = Set(request["skips"].flatMap(\.arrayOfInts) ?? [])
        for seq in timeline.skippedSeqs.subtracting(wanted) { timeline.setSkipped(seq, false) }
        for seq in wanted.subtracting(timeline.skippedSeqs) { timeline.setSkipped(seq, true) }
        let state = try timeline.stateJSON(at: request["at"]?.intValue ?? 0)
        reply = .object([JSONMember("ok", .bool(true)), JSONMember("state", state)])
      case "run":
        let state = try timeline.stateJSON(runningOnly: request["seqs"]?.arrayOfInts ?? [])
        reply = .object([JSONMember("ok", .bool(true)), JSONMember("state", state)])
      case "check":
        try timeline.checkAction(request["seq"]?.intValue ?? 0)
        reply = .object([JSONMember("ok", .bool(true))])
      default:
        reply = failure("unknown request")
      }
    } catch let error as ReplayError {
      reply = failure(error.description)
    } catch {
      reply = failure("\(error)")
    }
    var bytes = reply.serializedBytes
    bytes.append(UInt8(ascii: "\n"))
    bytes.withUnsafeBytes { _ = Platform.writeAll(1, $0) }
  }

  private static func failure(_ text: String) -> JSONValue {
    .object([JSONMember("ok", .bool(false)), JSONMember("error", .string(text))])
  }
}

extension JSONValue {
  /// The elements when this is an array of integers.
  var arrayOfInts: [Int]? {
    guard case .array(let elements) = self else { return nil }
    return elements.compactMap(\.intValue)
  }
}

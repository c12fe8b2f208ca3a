import RewindJSON
import RewindReplay

/// One request from `replay tail` to its crash-isolation follower (``FollowerWorkerMode``), as one
/// line of JSON (its `Codable` form). Each is answered by ``WorkerReply/done`` or
/// ``WorkerReply/failed(_:)``.
package enum FollowerRequest: Codable, Sendable, Equatable {
  /// Start from this state.
  case reset(state: JSONValue)
  /// Apply this recorded action (its seq, type and line in the log, for the error).
  case apply(action: JSONValue, seq: Int, type: String?, line: Int)

  /// The request's name, for messages.
  package var name: String {
    switch self {
    case .reset: return "reset"
    case .apply: return "apply"
    }
  }

  /// The request as one line of JSON, without its line feed.
  package var line: [UInt8] {
    // JSON values, integers and strings: it always encodes.
    (try? RewindJSONEncoder().encode(self)) ?? []
  }

  /// The request in `line`.
  /// - Throws: ``ReplayError/encodingFailed(what:reason:)`` naming what does not read.
  package init(line: [UInt8]) throws(ReplayError) {
    do {
      self = try RewindJSONDecoder().decode(FollowerRequest.self, from: line, limits: .unlimited)
    } catch {
      throw .encodingFailed(what: "follower request", reason: "\(error)")
    }
  }
}

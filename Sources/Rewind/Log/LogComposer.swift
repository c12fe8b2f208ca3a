import Foundation
import RewindJSON

/// Writes a whole log from values already encoded as JSON — for tools that make logs rather than
/// record them (`replay shrink`, `replay import`, tests): a fresh header, actions with continuous
/// seqs from 1, optional checkpoints, and an end record, every line checksummed.
package struct LogComposer {
  /// What the header says.
  package struct Header: Sendable {
    package var app: String
    package var actionType: String
    package var stateType: String
    package var session: String
    package var recordedAt: String
    /// The initial state's JSON text, written as it is.
    package var stateJSON: [UInt8]

    package init(
      app: String, actionType: String, stateType: String, state: JSONValue,
      session: String = UUID().uuidString.lowercased(),
      recordedAt: String = LogComposer.timestamp(Date())
    ) {
      self.init(
        app: app, actionType: actionType, stateType: stateType, stateJSON: state.serializedBytes,
        session: session, recordedAt: recordedAt)
    }

    /// A header whose state is `stateJSON`, one JSON text with no line break (a state as a log
    /// already holds it: no tree of it is built).
    package init(
      app: String, actionType: String, stateType: String, stateJSON: [UInt8],
      session: String = UUID().uuidString.lowercased(),
      recordedAt: String = LogComposer.timestamp(Date())
    ) {
      self.app = app
      self.actionType = actionType
      self.stateType = stateType
      self.session = session
      self.recordedAt = recordedAt
      self.stateJSON = stateJSON
    }
  }

  private var bytes: [UInt8] = []
  private var seq = 0

  /// Starts a log with `header`; `checkpointInterval` is written into it for information.
  package init(header: Header, checkpointInterval: Int = 0) {
    // Room for the header line and 64 KiB of lines after it: a large state's line is not
    // copied to grow for the few actions of a shrunk log.
    bytes.reserveCapacity(header.stateJSON.count + 65_536)
    LogLineBuilder.header(
      session: header.session, app: header.app, actionType: header.actionType,
      stateType: header.stateType, recordedAt: header.recordedAt, firstSeq: 1, segment: 0,
      checkpointInterval: checkpointInterval, stateJSON: header.stateJSON
    ).appendFramed(to: &bytes)
  }

  /// Appends the next action; its `type` is derived from the encoding as the recorder does.
  package mutating func appendAction(_ action: JSONValue, time: Double?) {
    seq += 1
    var line = LogLineBuilder(kind: .action)
    line.integer("seq", seq)
    if let time, time.isFinite, time >= 0 {
      line.seconds("time", nanoseconds: UInt64((time * 1e9).rounded()))
    }
    // The type as the recorder derives it: `"action"` when the encoding is not an enum case.
    line.string("type", LogLineBuilder.typeName(of: action, fallback: "action"))
    line.json("action", action.serializedBytes)
    line.appendFramed(to: &bytes)
  }

  /// Appends a checkpoint: the state after the last appended action.
  package mutating func appendCheckpoint(_ state: JSONValue) {
    var line = LogLineBuilder(kind: .checkpoint)
    line.integer("seq", seq)
    line.json("state", state.serializedBytes)
    line.appendFramed(to: &bytes)
  }

  /// The whole log, with its end record (`reason` `"closed"`): the composer's own bytes, not a
  /// copy of them.
  package consuming func finished() -> [UInt8] {
    var line = LogLineBuilder(kind: .end)
    line.integer("seq", seq)
    line.string("reason", "closed")
    line.appendFramed(to: &bytes)
    return bytes
  }

  /// The number of actions appended.
  package var actionCount: Int { seq }

  /// `2026-11-21T10:00:00Z`.
  package static func timestamp(_ date: Date) -> String { LogLineBuilder.timestamp(date) }

}

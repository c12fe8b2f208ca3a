import Foundation
import Rewind
import RewindExamples

/// Writes a log line by line in memory: checksummed like the recorder's lines, or plain like a
/// hand-written log. Remembers where each line starts, for checking fault locations.
struct LogText {
  var isChecksummed: Bool
  private(set) var bytes: [UInt8] = []
  /// The byte offset of each line, `lineStarts[0]` for line 1.
  private(set) var lineStarts: [Int] = []

  init(checksummed: Bool = true) {
    isChecksummed = checksummed
  }

  /// The number of lines written so far.
  var lineCount: Int { lineStarts.count }

  /// The byte offset of line `number` (from 1).
  func start(ofLine number: Int) -> Int { lineStarts[number - 1] }

  /// Appends a record from its members (without braces), framed when checksummed.
  mutating func record(_ body: String) {
    lineStarts.append(bytes.count)
    if isChecksummed {
      Array(body.utf8).withUnsafeBytes { LogLine.appendFramed(body: $0, to: &bytes) }
    } else {
      bytes += Array("{\(body)}\n".utf8)
    }
  }

  /// Appends `text` and a line feed as they are.
  mutating func raw(_ text: String) {
    lineStarts.append(bytes.count)
    bytes += Array("\(text)\n".utf8)
  }

  mutating func header(
    app: String = "todo", actionType: String = "TodoAction", stateType: String = "TodoState",
    version: Int = 1, firstSeq: Int = 1, session: String = "s-1",
    state: String = #"{"todos":[],"filter":"all","nextID":1}"#
  ) {
    record(
      #""kind":"header","format":"rewind","version":\#(version),"session":"\#(session)","#
        + #""app":"\#(app)","#
        + #""actionType":"\#(actionType)","stateType":"\#(stateType)","#
        + #""recordedAt":"2026-11-21T10:00:00Z","firstSeq":\#(firstSeq),"state":\#(state)"#)
  }

  /// Appends an action line; `json` is the encoded action, `type` its case name.
  mutating func action(seq: Int, type: String, json: String) {
    record(
      #""kind":"action","seq":\#(seq),"time":\#(Double(seq) / 4),"type":"\#(type)","action":\#(json)"#
    )
  }

  /// Appends an action line for a todo action, encoded with Foundation's encoder.
  mutating func action(seq: Int, _ action: TodoAction) {
    let (type, json) = Self.encode(action)
    self.action(seq: seq, type: type, json: json)
  }

  mutating func checkpoint(seq: Int, state: String) {
    record(#""kind":"checkpoint","seq":\#(seq),"state":\#(state)"#)
  }

  mutating func end(seq: Int, reason: String = "closed") {
    record(#""kind":"end","seq":\#(seq),"reason":"\#(reason)""#)
  }

  /// The case name and JSON of an action as the synthesized `Codable` writes it.
  static func encode<Action: Encodable>(_ action: Action) -> (type: String, json: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(action) else {
      preconditionFailure("cannot encode \(action)")
    }
    let json = String(decoding: data, as: UTF8.self)
    let type = String(json.dropFirst(2).prefix { $0 != "\"" })
    return (type, json)
  }

  static func encodeState<State: Encodable>(_ state: State) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(state) else {
      preconditionFailure("cannot encode \(state)")
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// A todo log of `count` actions from the seeded workload, with a checkpoint every
  /// `checkpointInterval` actions and an end record; also returns the actions.
  static func todoLog(
    actions count: Int, seed: UInt64 = 7, checksummed: Bool = true, checkpointInterval: Int = 0,
    firstSeq: Int = 1, endRecord: Bool = true
  ) -> (log: LogText, actions: [TodoAction]) {
    var log = LogText(checksummed: checksummed)
    log.header(firstSeq: firstSeq)
    var workload = TodoWorkload(seed: seed)
    var state = TodoState()
    var actions: [TodoAction] = []
    for n in 0..<count {
      let action = workload.next(for: state)
      todoReducer.reduce(&state, action)
      actions.append(action)
      log.action(seq: firstSeq + n, action)
      if checkpointInterval > 0, (n + 1) % checkpointInterval == 0 {
        log.checkpoint(seq: firstSeq + n, state: encodeState(state))
      }
    }
    if endRecord { log.end(seq: firstSeq + count - 1) }
    return (log, actions)
  }
}

import Foundation
import Rewind
import RewindJSON
import RewindReplay

/// A timeline whose reductions run in a child `replay` process (`replay --isolate`, `shrink`), so
/// that a reducer that traps — the crash the log recorded — kills the child, not the debugger.
/// When the child dies, the request fails with `ReplayError.reducerCrashed` naming the signal and
/// the action; the next request starts a new child.
final class IsolatedTimeline: AnyTimeline {
  let log: ReplayLog
  private(set) var skippedSeqs: Set<Int> = []
  var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
  private let recovery: RecoveryMode
  private var worker: WorkerProcess?
  private var memo: (position: Int, skips: Set<Int>, state: JSONValue)?
  /// How many child processes were started (for `shrink`'s report).
  private(set) var workersStarted = 0

  init(log: ReplayLog, recovery: RecoveryMode) {
    self.log = log
    self.recovery = recovery
  }

  func stateJSON(at position: Int) throws(ReplayError) -> JSONValue {
    guard log.positions.contains(position) else {
      throw .positionOutOfRange(position, valid: log.positions)
    }
    if let memo, memo.position == position, memo.skips == skippedSeqs { return memo.state }
    let request = JSONValue.object([
      JSONMember("op", .string("state")), JSONMember("at", .number(String(position))),
      JSONMember("skips", .array(skippedSeqs.sorted().map { .number(String($0)) })),
    ])
    let state = try send(request, lastGood: position > log.positions.lowerBound ? nil : nil)
    memo = (position, skippedSeqs, state)
    return state
  }

  func stateJSON(runningOnly seqs: [Int]) throws(ReplayError) -> JSONValue {
    try send(
      .object([
        JSONMember("op", .string("run")),
        JSONMember("seqs", .array(seqs.map { .number(String($0)) })),
      ]), lastGood: nil)
  }

  func statesEqual(_ a: Int, _ b: Int) throws(ReplayError) -> Bool {
    try stateJSON(at: a) == stateJSON(at: b)
  }

  func checkAction(_ seq: Int) throws(ReplayError) {
    _ = try send(
      .object([JSONMember("op", .string("check")), JSONMember("seq", .number(String(seq)))]),
      lastGood: nil)
  }

  func setSkipped(_ seq: Int, _ isSkipped: Bool) {
    if isSkipped { skippedSeqs.insert(seq) } else { skippedSeqs.remove(seq) }
  }

  private func send(_ request: JSONValue, lastGood: Int?) throws(ReplayError) -> JSONValue {
    if worker == nil {
      do {
        worker = try WorkerProcess(log: log.path, recovery: recovery)
        workersStarted += 1
      } catch {
        throw .cannotOpen(path: log.path, reason: "cannot start a replay worker process: \(error)")
      }
    }
    guard let worker else { throw .cannotOpen(path: log.path, reason: "no worker process") }
    switch worker.exchange(request.jsonText) {
    case .reply(let line):
      let reply: JSONValue
      do { reply = try JSONParser.parse(line) } catch {
        throw .encodingFailed(what: "worker reply", reason: error.description)
      }
      if reply["ok"]?.boolValue == true { return reply["state"] ?? .null }
      throw .encodingFailed(what: "state", reason: reply["error"]?.stringValue ?? "worker failed")
    case .died(let signal, let stderr):
      self.worker = nil
      let marker = CrashMarker(stderr)
      throw .reducerCrashed(
        seq: marker.seq, type: marker.type, line: marker.line, signal: signal,
        lastGood: marker.seq.map { $0 - 1 })
    }
  }
}

/// The seq, type and line that the crash reporter's last stderr line names.
struct CrashMarker {
  var seq: Int?
  var type: String?
  var line: Int?

  init(_ stderr: String) {
    guard
      let last = stderr.split(separator: "\n").last(where: { $0.contains("while applying action") })
    else { return }
    let text = String(last)
    seq = Self.number(after: "while applying action ", in: text)
    line = Self.number(after: " from line ", in: text)
    if let start = text.range(of: "(type \"")?.upperBound,
      let end = text[start...].range(of: "\")")?.lowerBound
    {
      type = String(text[start..<end])
    }
  }

  private static func number(after marker: String, in text: String) -> Int? {
    guard let start = text.range(of: marker)?.upperBound else { return nil }
    return Int(text[start...].prefix { $0.isNumber })
  }
}

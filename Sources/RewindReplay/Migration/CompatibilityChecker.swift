import Dispatch
import Foundation
import Rewind
import RewindJSON

/// Decodes every action and state of a log with an app's types, without its reducer: what
/// `replay compat` reports (``CompatibilityReport``). The actions are decoded on every core,
/// straight from the log's bytes where they allow it, and an action text that decoded already is
/// not decoded again (``DecodedTexts``): on the benchmark's log a check costs about 1.9× opening
/// it (docs/performance.md, row 10).
///
/// A log opened without checking each line's JSON (``ReaderLimits/checksJSONAtOpen``, which
/// `replay compat` turns off) has every line checked here instead, once: an action line decoded
/// from its text was read by the grammar's reader as it decoded (its layout outside the action by
/// ``ActionLineLayout``), and every other line — checkpoints, reducer times, the header, an action
/// that did not decode — goes through ``JSONValidator``. A line that is not JSON sets
/// ``CompatibilityReport/hasUncheckedInvalidLine``: the caller opens the log with the check then,
/// for the open's own report of that line.
struct CompatibilityChecker<State: Codable & Sendable, Action: Codable & Sendable>: Sendable {
  /// One chunk's findings: per type, the count and the first failure.
  private struct Findings {
    var checked = 0
    var byType: [String: CompatibilityReport.FailingType] = [:]
    /// Whether a line the open left unchecked is not valid JSON.
    var hasInvalidLine = false

    mutating func merge(_ other: Findings) {
      checked += other.checked
      hasInvalidLine = hasInvalidLine || other.hasInvalidLine
      for (type, failing) in other.byType {
        guard var mine = byType[type] else {
          byType[type] = failing
          continue
        }
        mine.count += failing.count
        if failing.firstSeq < mine.firstSeq {
          (mine.firstSeq, mine.line) = (failing.firstSeq, failing.line)
          (mine.codingPath, mine.reason) = (failing.codingPath, failing.reason)
        }
        byType[type] = mine
      }
    }
  }

  func check(_ log: ReplayLog) -> CompatibilityReport {
    // The states are decoded meanwhile, on their own thread: a log has far fewer of them.
    let states = Locked<(checked: Int, failing: [CompatibilityReport.FailingState])>((0, []))
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      let found = checkStates(log)
      states.withLock { $0 = found }
    }
    let findings = checkActions(log)
    group.wait()
    let (statesChecked, failingStates) = states.withLock { $0 }
    return CompatibilityReport(
      actionsChecked: findings.checked,
      failingTypes: findings.byType.values.sorted { $0.firstSeq < $1.firstSeq },
      statesChecked: statesChecked, failingStates: failingStates,
      hasUncheckedInvalidLine: findings.hasInvalidLine)
  }

  /// Decodes the header's state and every checkpoint.
  private func checkStates(_ log: ReplayLog) -> (Int, [CompatibilityReport.FailingState]) {
    var failing: [CompatibilityReport.FailingState] = []
    let decoder = RewindJSONDecoder()
    func check(_ state: JSONValue, line: Int, what: String) {
      do {
        _ = try decoder.decode(State.self, from: state)
      } catch {
        let (path, reason) = DecodeFailureText.describe(error, decoding: state, as: State.self)
        failing.append(.init(what: what, line: line, codingPath: path, reason: reason))
      }
    }
    let lines = LineDecoder(coder: .rewind, limits: log.limits.json)
    let direct = JSONDirectCoding.decoder(for: State.self)
    // Straight from the text when it decodes; the full way for the error.
    let decodes =
      log.header.withStateText { lines.state(State.self, text: $0, direct: direct) != nil }
    // A file whose initial state never came has none to check (`info` says so).
    if !log.isInitialStateMissing && decodes != true {
      check(log.header.state, line: log.headerStateLine, what: "header's initial state")
    }
    for seq in log.checkpointSeqs {
      // Straight from the bytes when it decodes; the full way for the error.
      if lines.checkpointState(State.self, seq: seq, in: log, direct: direct) != nil { continue }
      let line = log.checkpointLine(at: seq) ?? 0
      let what = "checkpoint at seq \(seq)"
      do {
        if let state = try log.checkpointState(at: seq) { check(state, line: line, what: what) }
      } catch {
        failing.append(.init(what: what, line: line, codingPath: "", reason: error.message))
      }
    }
    return ((log.isInitialStateMissing ? 0 : 1) + log.checkpointSeqs.count, failing)
  }

  /// Decodes every action, in chunks spread over the cores.
  private func checkActions(_ log: ReplayLog) -> Findings {
    guard log.actionCount > 0 else {
      // No action line to check around: the lines are checked here, all at once.
      var findings = Findings()
      if !log.limits.checksJSONAtOpen {
        var lineCheck = UncheckedLines(log)
        lineCheck.checkAll()
        findings.hasInvalidLine = lineCheck.foundInvalidLine
      }
      return findings
    }
    let seqs = log.firstSeq...log.lastSeq
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let chunks = seqs.count < 4_096 ? 1 : min(cores * 8, seqs.count / 1_024)
    let size = (seqs.count + chunks - 1) / chunks
    let results = Locked<[Findings]>([])
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let start = seqs.lowerBound + chunk * size
      let end = min(seqs.upperBound, start + size - 1)
      guard start <= end else { return }
      let found = checkActions(start...end, of: log)
      results.withLock { $0.append(found) }
    }
    var total = Findings()
    for found in results.withLock({ $0 }) { total.merge(found) }
    return total
  }

  private func checkActions(_ seqs: ClosedRange<Int>, of log: ReplayLog) -> Findings {
    var findings = Findings()
    let lines = LineDecoder(coder: .rewind, limits: log.limits.json)
    let direct = JSONDirectCoding.decoder(for: Action.self)
    let slot = UnsafeMutablePointer<Action>.allocate(capacity: 1)
    defer { slot.deallocate() }
    let decoder = RewindJSONDecoder()
    var known = DecodedTexts(capacity: DecodedTexts.chunkCapacity)
    var lineCheck =
      log.limits.checksJSONAtOpen
      ? nil : UncheckedLines(log, fromTheStart: seqs.lowerBound == log.firstSeq)
    for seq in seqs {
      let located = log.locateActionLine(seq)
      // The lines before this action's, after the one before: checkpoints, reducer times.
      lineCheck?.reach(seq, line: located)
      if let line = located {
        // A text that decoded before decodes again: it is not decoded twice. (Its bytes are
        // those of a text the reader checked; the layout around it was checked just now.)
        let text = line.actionText
        let elements = line.layout?.elements ?? 0
        let probe = text.map { known.probe($0, elements: elements) }
        if let probe, probe.isKnown {
          findings.checked += 1
          continue
        }
        if lines.action(Action.self, line: line, in: log, direct: direct, into: slot) != nil {
          slot.deinitialize(count: 1)
          findings.checked += 1
          if let text, let probe { known.insert(text, elements: elements, at: probe) }
          continue
        }
      }
      // Not read by the grammar's reader as it decoded: checked alone.
      lineCheck?.check(seq)
      if located != nil, let failure = lines.lastFailure {
        findings.checked += 1
        let (path, reason) = DecodeFailureText.describe(
          failure.error, onlyKey: failure.onlyKey, as: Action.self)
        note(
          &findings, type: failure.type ?? "?", seq: seq, line: failure.line, path: path,
          reason: reason)
        continue
      }
      // The full way: the error, with its path and reason.
      let record: RecordedAction
      do {
        record = try log.action(at: seq)
      } catch {
        findings.checked += 1
        let line = log.entry(seq: seq)?.line ?? 0
        note(&findings, type: "?", seq: seq, line: line, path: "", reason: error.message)
        continue
      }
      guard record.status == .recorded, let payload = record.payload else { continue }
      findings.checked += 1
      do {
        _ = try decoder.decode(Action.self, from: payload)
      } catch {
        let (path, reason) = DecodeFailureText.describe(error, decoding: payload, as: Action.self)
        note(
          &findings, type: record.type ?? "?", seq: seq, line: record.line, path: path,
          reason: reason)
      }
    }
    // The lines after the chunk's last action, up to the next chunk's first.
    lineCheck?.finish(after: seqs.upperBound)
    findings.hasInvalidLine = lineCheck?.foundInvalidLine ?? false
    return findings
  }

  private func note(
    _ findings: inout Findings, type: String, seq: Int, line: Int, path: String, reason: String
  ) {
    if var failing = findings.byType[type] {
      failing.count += 1
      findings.byType[type] = failing
    } else {
      findings.byType[type] = .init(
        type: type, count: 1, firstSeq: seq, line: line, codingPath: path, reason: reason)
    }
  }
}

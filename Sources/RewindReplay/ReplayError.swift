/// Everything the replay engine can fail with. Each case carries the facts; ``message``,
/// ``location``, ``notes`` and ``hint`` say what went wrong, where, and what to do next.
public enum ReplayError: Error, Sendable, Codable {
  /// The file could not be opened (`errno` text in `reason`).
  case cannotOpen(path: String, reason: String)
  /// The path is not a regular file (a directory, a device such as `/dev/zero`, a FIFO).
  case notARegularFile(path: String, kind: String)
  /// The file is larger than ``ReaderLimits/maxFileBytes``.
  case fileTooLarge(path: String, size: Int, limit: Int)
  /// The file is empty.
  case emptyLog(path: String)
  /// The first line is not a Rewind header.
  case notARewindLog(path: String, reason: String)
  /// The header's `version` is newer than this reader.
  case unsupportedVersion(path: String, version: Int, supported: Int)
  /// The header says its state follows (a file begun by a rotation) and the file has no
  /// complete `state` record for `seq`: the app stopped before the state reached the file.
  case headerStateMissing(path: String, seq: Int)
  /// A faulty line that the recovery mode does not allow past. `intactActions` actions precede
  /// it; `droppedLines` lines (it included) would be dropped by `--recovery prefix`.
  case fault(LogFault, recovery: RecoveryMode, intactActions: Int, droppedLines: Int)
  /// An action that no longer decodes with the app's current `Action` type.
  case actionDecodingFailed(
    path: String, line: Int, seq: Int, type: String, codingPath: String, reason: String)
  /// A state (header or checkpoint) that no longer decodes with the app's `State` type.
  case stateDecodingFailed(
    path: String, line: Int, what: String, codingPath: String, reason: String)
  /// A migration step threw on an action (`seq`) or a state (`what`) of the log.
  case migrationFailed(
    path: String, line: Int, what: String, failure: MigrationFailure)
  /// The app's state or action could not be encoded for display or comparison.
  case encodingFailed(what: String, reason: String)
  /// A position outside the log.
  case positionOutOfRange(Int, valid: ClosedRange<Int>)
  /// An action was asked for, but the log has none: it holds only its initial state.
  case noActions(path: String, position: Int)
  /// The action at `seq` was not recorded (deny list, encoding failure, or a line skipped by
  /// `--recovery salvage`), so the states after it cannot be rebuilt exactly.
  case actionNotRecorded(seq: Int, type: String?, reason: String)
  /// The app's reducer stopped the replay worker process (a trap, an abort, a bad access) while
  /// applying an action; the report says which, how, and where in the reducer.
  case reducerCrashed(CrashReport)
  /// The log was recorded by another app, or with other type names, than the reducer given.
  case appMismatch(
    path: String, logApp: String, logTypes: String, expected: String, expectedTypes: String)

  /// The file, line and byte offset concerned, when there is one: `session.jsonl:42 (byte 5310)`.
  public var location: String? {
    switch self {
    case .fault(let fault, _, _, _): return "\(fault.path):\(fault.line) (byte \(fault.byteOffset))"
    case .actionDecodingFailed(let path, let line, _, _, _, _): return "\(path):\(line)"
    case .stateDecodingFailed(let path, let line, _, _, _): return "\(path):\(line)"
    case .migrationFailed(let path, let line, _, _): return "\(path):\(line)"
    case .notARewindLog(let path, _), .unsupportedVersion(let path, _, _),
      .headerStateMissing(let path, _):
      return "\(path):1"
    case .cannotOpen(let path, _), .notARegularFile(let path, _), .fileTooLarge(let path, _, _),
      .emptyLog(let path), .appMismatch(let path, _, _, _, _), .noActions(let path, _):
      return path
    case .encodingFailed, .positionOutOfRange, .actionNotRecorded, .reducerCrashed: return nil
    }
  }

  /// What went wrong, in one line.
  public var message: String {
    switch self {
    case .cannotOpen(_, let reason): return "cannot open the log: \(reason)"
    case .notARegularFile(_, let kind): return "not a log file: it is a \(kind)"
    case .fileTooLarge(_, let size, let limit):
      return "the file is \(size) bytes, over the reader's limit of \(limit) bytes"
    case .emptyLog: return "the log is empty: it has no header line"
    case .notARewindLog(_, let reason): return "not a Rewind log: \(reason)"
    case .unsupportedVersion(_, let version, let supported):
      return "the log has format version \(version); this replay reads versions up to \(supported)"
    case .headerStateMissing(_, let seq):
      return "the file's initial state (the state after action \(seq), which its header says "
        + "follows in a \"state\" record) is not in the file"
    case .fault(let fault, _, _, _): return fault.reason.summary
    case .actionDecodingFailed(_, _, let seq, let type, let codingPath, let reason):
      let path = codingPath.isEmpty ? "" : "\(codingPath): "
      return "action \(seq) (type \"\(type)\") does not decode: \(path)\(reason)"
    case .stateDecodingFailed(_, _, let what, let codingPath, let reason):
      let path = codingPath.isEmpty ? "" : "\(codingPath): "
      return "the \(what) does not decode: \(path)\(reason)"
    case .migrationFailed(_, _, let what, let failure):
      return "the migration from schema \(failure.from) failed on the \(what): step "
        + "\"\(failure.step)\" threw: \(failure.reason)"
    case .encodingFailed(let what, let reason): return "cannot encode the \(what): \(reason)"
    case .positionOutOfRange(let position, let valid):
      return "position \(position) is out of range: valid positions are \(valid.lowerBound)…"
        + "\(valid.upperBound)"
    case .noActions: return "the log has no actions"
    case .actionNotRecorded(let seq, let type, let reason):
      let name = type.map { " (type \"\($0)\")" } ?? ""
      return "action \(seq)\(name) was not recorded (\(reason))"
    case .reducerCrashed(let report):
      var text = "the app's reducer crashed (\(report.signal))"
      if let seq = report.seq { text += " while applying action \(seq)" }
      if let type = report.type { text += " (type \"\(type)\")" }
      if let line = report.line { text += " from line \(line)" }
      if let message = report.message { text += ": \(message)" }
      return text
    case .appMismatch(_, let logApp, let logTypes, let expected, let expectedTypes):
      return "the log was recorded by app \"\(logApp)\" (\(logTypes)), not \"\(expected)\" "
        + "(\(expectedTypes))"
    }
  }

  /// Further facts, one per line.
  public var notes: [String] {
    switch self {
    case .fault(let fault, let recovery, let intact, let dropped):
      if fault.line == 1 {
        return ["the header is damaged; no recovery mode can replay a log without its header"]
      }
      var notes = [
        intact == 1 ? "1 action before it is intact" : "\(intact) actions before it are intact"
      ]
      if recovery == .tail {
        notes.append("only a fault in the last line is dropped by the default --recovery tail")
      }
      if dropped > 0 {
        notes.append(
          "\(dropped) line\(dropped == 1 ? "" : "s") from this one on would be dropped by "
            + "--recovery prefix")
      }
      return notes
    case .headerStateMissing:
      return [
        "the recorder rotated to this file, and that state did not reach it whole (the app "
          + "stopped while it was written, or its lines are damaged); the file before it holds "
          + "the actions up to there"
      ]
    case .actionDecodingFailed:
      return ["the app's Action type has probably changed since the log was recorded"]
    case .stateDecodingFailed:
      return ["the app's State type has probably changed since the log was recorded"]
    default:
      return []
    }
  }

  /// What to try next, when there is something to try.
  public var hint: String? {
    switch self {
    case .fault(let fault, let recovery, let intact, _):
      guard fault.line > 1 else { return nil }
      switch recovery {
      case .strict, .tail:
        let what = intact == 1 ? "the intact action" : "the \(intact) intact actions"
        return "replay \(fault.path) --recovery prefix   # replay \(what); "
          + "or --recovery salvage to skip bad lines"
      case .prefix: return "replay \(fault.path) --recovery salvage   # skip bad lines"
      case .salvage: return nil
      }
    case .unsupportedVersion:
      return "upgrade Rewind to read this log"
    case .headerStateMissing:
      return "open the folder that holds the session's files, or the files joined oldest first "
        + "(cat session.1.jsonl session.jsonl > both.jsonl; docs/log-format.md, Bundles)"
    case .migrationFailed(let path, _, _, _):
      return "fix the step in the app's migrations, or see what does not decode without them: "
        + "replay compat \(path) --no-migrations"
    case .actionDecodingFailed(let path, _, let seq, _, _, _):
      return "replay the log with the app version that recorded it, or look at the recorded "
        + "action: replay actions \(path) --from \(seq) --to \(seq) --json"
    case .positionOutOfRange(_, let valid):
      return "use a position from \(valid.lowerBound) to \(valid.upperBound), 'first' or 'last'"
    case .noActions(_, let position):
      return "it holds only its initial state, at position \(position)"
    case .notARegularFile, .emptyLog, .notARewindLog:
      return "pass a .jsonl log written by the Rewind recorder (see docs/log-format.md)"
    case .appMismatch:
      return "open it with the replay binary of that app (docs/embedding.md)"
    case .reducerCrashed(let report):
      return report.lastGood.map {
        "the last good position is \($0); the states from there on cannot be rebuilt"
      }
        ?? "the reducer traps on this action every time it is replayed"
    default:
      return nil
    }
  }
}

extension ReplayError: CustomStringConvertible {
  /// `location: message`, then the notes and the hint, one per line.
  public var description: String {
    var lines = [(location.map { "\($0): " } ?? "") + message]
    lines += notes.map { "note: \($0)" }
    if let hint { lines.append("hint: \(hint)") }
    return lines.joined(separator: "\n")
  }
}

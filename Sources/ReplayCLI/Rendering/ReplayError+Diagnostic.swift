import Foundation
import RewindReplay

extension ReplayError {
  /// The error as a diagnostic: `error: file:line (byte N): message`, notes and a hint.
  var diagnostic: Diagnostic {
    var location: Diagnostic.Location?
    switch self {
    case .fault(let fault, _, _, _):
      location = Diagnostic.Location(
        file: fault.path, line: fault.line, byteOffset: fault.byteOffset)
    case .actionDecodingFailed(let path, let line, _, _, _, _),
      .stateDecodingFailed(let path, let line, _, _, _),
      .migrationFailed(let path, let line, _, _):
      location = Diagnostic.Location(file: path, line: line)
    case .notARewindLog(let path, _), .unsupportedVersion(let path, _, _),
      .headerStateMissing(let path, _):
      location = Diagnostic.Location(file: path, line: 1)
    case .cannotOpen(let path, _), .notARegularFile(let path, _), .fileTooLarge(let path, _, _),
      .emptyLog(let path), .appMismatch(let path, _, _, _, _):
      location = Diagnostic.Location(file: path)
    case .noActions(let path, _):
      location = Diagnostic.Location(file: path)
    case .encodingFailed, .positionOutOfRange, .actionNotRecorded, .reducerCrashed:
      location = nil
    }
    var notes = notes
    if case .reducerCrashed(let report) = self {
      // The runtime's message and the reducer's frames, as the session shows them.
      // (The message is in the error's own line already.)
      notes += report.lines().dropFirst(report.message == nil ? 1 : 2).map {
        $0.trimmingWhitespace()
      }
    }
    var hints = hint.map { [Diagnostic.Hint($0)] } ?? []
    if case .notARewindLog(let path, _) = self, Self.isReduxDevToolsFile(path) {
      hints = [
        Diagnostic.Hint(
          "replay import \(path) --app NAME -o session.jsonl",
          comment: "a Redux DevTools file: make it a Rewind log, then open that")
      ]
    }
    return Diagnostic.error(message, at: location, notes: notes, hints: hints)
  }

  /// Whether the file at `path` begins as a Redux DevTools document does: a JSON object with the
  /// actions export's `payload` or the lifted state's `actionsById` or `computedStates` in its
  /// first 64 KiB.
  private static func isReduxDevToolsFile(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 1 << 16) else { return false }
    let text = String(decoding: data, as: UTF8.self)
    guard text.first(where: { !$0.isWhitespace }) == "{" else { return false }
    return ["\"payload\"", "\"actionsById\"", "\"computedStates\""].contains {
      text.contains($0)
    }
  }
}

extension LogFault {
  /// The fault as a note-level diagnostic, for faults that the recovery mode let past.
  var warning: Diagnostic {
    Diagnostic.warning(
      reason.summary,
      at: Diagnostic.Location(file: path, line: line, byteOffset: byteOffset))
  }
}

/// What the log reader does with a faulty line (a checksum mismatch, invalid JSON, a `seq` gap, a
/// line over the size limit, a line cut off mid-write).
public enum RecoveryMode: String, Sendable, CaseIterable, Codable {
  /// The default: a cut-off or invalid *last* line is dropped with a note (the app died while
  /// writing it); any fault before the last line is an error.
  case tail
  /// Any fault is an error.
  case strict
  /// Stops at the first fault and replays what precedes it.
  case prefix
  /// Skips bad lines and replays the rest; every state after a skipped line is flagged as
  /// suspect, since the skipped action may have changed it.
  case salvage
}

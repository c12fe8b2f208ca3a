/// A failure of the recorder. The app keeps running; recording stops (I/O) or skips one action
/// (encoding), and the error is reported once through the recorder's error handler.
public struct RecorderError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Error, Sendable, Equatable {
    /// The file exists and ``RecordingOptions/ifExists`` is `.fail`.
    case fileExists
    /// The file could not be created or opened (`errno`).
    case cannotOpen(errno: Int32)
    /// A write failed (`errno`: `ENOSPC`, `EIO`, …); the file was cut back to its last whole line.
    case writeFailed(errno: Int32)
    /// `fdatasync` failed; what the kernel held may be lost. Recording stops (a failed sync is
    /// never retried: the kernel may have dropped the dirty pages already).
    case syncFailed(errno: Int32)
    /// The action could not be encoded (its `Encodable` conformance threw); it was recorded as a
    /// `skipped` line.
    case actionEncodingFailed(seq: Int, description: String)
    /// The action's type is not in the recorder's ``ActionCatalog`` (or shares its name with
    /// another type there); it was recorded as a `skipped` line. Reported once per type.
    case actionTypeNotRecordable(seq: Int, type: String, catalog: String, sharesName: Bool)
    /// The state could not be encoded for a header or checkpoint.
    case stateEncodingFailed(description: String)
    /// Rotating to a new file failed (`errno`).
    case rotationFailed(errno: Int32)
    /// The reducer gave two different states for action `seq` (of `type`) from the same state
    /// (``DeterminismCheck``): at `path`, `first` the first time and `second` the second. Replay
    /// cannot reproduce such a state. Reported once per action type; recording goes on.
    case nondeterministicReducer(
      seq: Int, type: String, path: String, first: String, second: String)
    /// The state the store gave the reducer for the first action differs from the
    /// `initialState` written in the log's header, at `path` (`header` there, `store` in the
    /// store): replay would start from the header's. Recording goes on.
    case initialStateDiffers(path: String, header: String, store: String)
  }

  /// What went wrong.
  public var reason: Reason
  /// The log file concerned.
  public var path: String
  /// The last `seq` safely in the file when the error happened (0 when none).
  public var lastRecordedSeq: Int

  /// Creates an error.
  public init(_ reason: Reason, path: String, lastRecordedSeq: Int) {
    self.reason = reason
    self.path = path
    self.lastRecordedSeq = lastRecordedSeq
  }

  /// Whether recording stopped because of this error (`false`: one action was skipped).
  public var stopsRecording: Bool {
    switch reason {
    case .actionEncodingFailed, .actionTypeNotRecordable, .nondeterministicReducer,
      .initialStateDiffers:
      return false
    default: return true
    }
  }

  /// A message that says what happened, where, and what to do.
  public var description: String {
    let kept = "the log is intact up to seq \(lastRecordedSeq)"
    switch reason {
    case .fileExists:
      return "Rewind recorder: \(path) exists already. To fix, record each session to a new "
        + "file name (for example with a date in it), or pass ifExists: .replace."
    case .cannotOpen(let code):
      return "Rewind recorder: cannot create \(path): \(Platform.describe(errno: code)). "
        + "Recording is off. To fix, check that the folder exists and is writable."
    case .writeFailed(let code):
      return "Rewind recorder: writing \(path) failed: \(Platform.describe(errno: code)). "
        + "Recording stopped; \(kept). To fix, free disk space or fix the device, then start a "
        + "new recording."
    case .syncFailed(let code):
      return "Rewind recorder: fdatasync of \(path) failed: \(Platform.describe(errno: code)). "
        + "Recording stopped; data written since the last successful sync may not be on disk."
    case .actionEncodingFailed(let seq, let text):
      return "Rewind recorder: action \(seq) could not be encoded (\(text)); it is recorded as "
        + "a 'skipped' line in \(path), so states after it may differ on replay. To fix, make "
        + "the action's Encodable conformance total."
    case .actionTypeNotRecordable(let seq, let type, let catalog, false):
      return
        "Rewind recorder: action \(seq) has type \(type), which is not in \(catalog).types; it "
        + "is recorded as a 'skipped' line in \(path), so states after it may differ on replay. "
        + (catalog.hasSuffix("RecordedActions")
          ? "To fix, declare \(type) Codable and Sendable (both) in the target whose "
            + "RewindDirectCoding plugin writes \(catalog): the build warns about an Action type it "
            + "leaves out, and why (an action type of another module needs a catalog written by "
            + "hand)."
          : "To fix, add \(type).self to \(catalog).types (the type must be Codable & Sendable).")
    case .actionTypeNotRecordable(let seq, let type, let catalog, true):
      return "Rewind recorder: action \(seq) has type \(type), and two types named \(type) are in "
        + "\(catalog).types, so the log could not tell them apart; it is recorded as a "
        + "'skipped' line in \(path). To fix, rename one of the types."
    case .stateEncodingFailed(let text):
      return "Rewind recorder: the state could not be encoded (\(text)) for \(path). "
        + "Recording stopped; \(kept)."
    case .rotationFailed(let code):
      return "Rewind recorder: rotating \(path) failed: \(Platform.describe(errno: code)). "
        + "Recording stopped; \(kept)."
    case .nondeterministicReducer(let seq, let type, let path, let first, let second):
      return "Rewind recorder: the reducer is not deterministic: run twice on the same state, "
        + "action \(seq) (\(type)) gave \(path): \(first) → \(second). Replay cannot reproduce "
        + "such a state. To fix, carry the value in the action (a date, a random pick, an id) or "
        + "give the reducer an injected clock or random source; see docs/determinism.md."
    case .initialStateDiffers(let statePath, let header, let store):
      return "Rewind recorder: the store's state before the first action differs from the "
        + "initialState written in \(path) at \(statePath): \(header) in the header, \(store) in "
        + "the store. Replay starts from the header's state, so every state would differ. To "
        + "fix, create the recorder with the store's own state (after the store is made)."
    }
  }
}

/// The state of a recording.
public enum RecordingStatus: Sendable {
  /// Recording.
  case recording
  /// Stopped by an error; the file is intact up to ``RecorderError/lastRecordedSeq``.
  case stopped(RecorderError)
  /// Closed cleanly with an `end` record.
  case closed
}

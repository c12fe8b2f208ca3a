/// How much of a recording survives which failure, and what that costs per action.
public enum Durability: Sendable, Equatable {
  /// The default. Every action's line is handed to the kernel with one `write(2)` before the
  /// action reaches the reducer, and no bytes are held in user space when `dispatch` returns.
  ///
  /// Survives: a crash of the app (a trap in a reducer, `kill -9`): every action whose dispatch
  /// returned, and the action being reduced when it died, are in the file.
  /// Does not survive: a power loss or kernel panic, which can lose what the kernel had not yet
  /// written to disk (typically the last few seconds).
  /// Costs: one `write(2)` per action (about a microsecond).
  case processCrash
  /// Like ``processCrash``, plus an `fdatasync` of the file every `interval`, on a background
  /// thread (dispatch never waits for the disk).
  ///
  /// Survives: a crash of the app, as ``processCrash``; a power loss loses at most the actions of
  /// the last `interval`.
  /// Costs: one `write(2)` per action, and one `fdatasync` per interval in the background.
  case interval(Duration)
  /// `fdatasync` after every action's line, before the action reaches the reducer.
  ///
  /// Survives: a crash and a power loss: every action whose dispatch started is on disk.
  /// Costs: a disk flush per action — milliseconds on many disks. Use for low-rate, high-value
  /// sessions only.
  case everyAction
  /// Lines are collected in a user-space buffer of `capacity` bytes and written when it is full,
  /// on ``Recorder/flush()`` and on close.
  ///
  /// Survives: only a clean close. **A crash or `kill -9` loses the unflushed tail** (up to
  /// `capacity` bytes of lines); the file still holds only whole lines.
  /// Costs: the least per action; for high-rate recording (benchmarks, load tests).
  case buffered(capacity: Int)
}

/// Rotation of a log at a size limit, keeping the newest files.
public struct Rotation: Sendable, Equatable {
  /// The size after which the current file is closed and a new one started.
  public var maxBytes: Int
  /// How many files to keep, the current one included (at least 1).
  public var keepFiles: Int

  /// Creates a rotation policy.
  ///
  /// Files rotate like `logrotate`'s: `session.jsonl` is the current file, `session.1.jsonl` the
  /// one before it, `session.2.jsonl` the one before that; the oldest beyond `keepFiles` is
  /// deleted. Every file starts with a header holding the state at its first action — or, for a
  /// large state, saying that it follows in the file, written from the background so that the
  /// dispatching thread does not encode it (docs/log-format.md) — so the newest file alone
  /// replays.
  public init(maxBytes: Int, keepFiles: Int) {
    self.maxBytes = max(1, maxBytes)
    self.keepFiles = max(1, keepFiles)
  }
}

/// What to do when the log file exists already.
public enum ExistingFile: Sendable, Equatable {
  /// Fail with ``RecorderError/Reason/fileExists`` (the default: a previous crash log is
  /// evidence; name each session's file differently, for example with a date).
  case fail
  /// Replace it.
  case replace
}

/// The settings of a ``Recorder``.
public struct RecordingOptions: Sendable {
  /// What survives which failure; see ``Durability``.
  public var durability: Durability = .processCrash
  /// A checkpoint (the whole state) is written after every `checkpointInterval` actions;
  /// 0 turns checkpoints off.
  public var checkpointInterval: Int = LogFormat.defaultCheckpointInterval
  /// Rotation at a size limit; `nil` (the default) lets the log grow.
  public var rotation: Rotation?
  /// What to do when the file exists.
  public var ifExists: ExistingFile = .fail
  /// Action types (the log's `type`: the enum case name) that are never recorded. Each leaves a
  /// `skipped` line so `seq` stays continuous.
  public var deniedActionTypes: Set<String> = []
  /// The JSON coder for actions and states: Rewind's own (the default), or Foundation's, to
  /// compare against; see ``LogCoder``.
  public var coder: LogCoder = .rewind
  /// Whether a fatal signal (`SIGILL`, `SIGTRAP`, `SIGABRT`, `SIGSEGV`, `SIGBUS`, `SIGFPE`) appends
  /// one `signal` line naming it and the action being applied, before the signal goes on to the
  /// handler installed before (a crash reporter) or kills the process. Off by default: it installs
  /// process-wide signal handlers (see docs/recording.md for crash-reporting SDKs).
  public var recordsFatalSignals = false
  /// Which build of the app records (written in every header): by default the main bundle's
  /// version and build number; give the schema version of your actions and state, and the
  /// source revision if you have it, with ``BuildStamp/mainBundle(schema:revision:)``.
  public var build: BuildStamp = .mainBundle()
  /// Whether the recorder checks, as it records, that the reducer gives the same state twice
  /// for the same state and action (``DeterminismCheck``): on a sample of actions in debug
  /// builds, off in release unless asked for: on a ``Store`` recording, and where the recorder
  /// runs the reducer itself (``Recorder/recording(_:)``, ``Recorder/reduce(_:_:with:)``).
  public var determinismCheck: DeterminismCheck = .default
  /// Whether each action's line says where the action came from (``ActionOrigin``): the
  /// `#fileID:#line` of its dispatch (`"site"`) and the `seq` of the action whose handling
  /// dispatched it (`"cause"`). Off by default; about 30 bytes a line (docs/recording.md).
  public var recordsOrigins = false
  /// Whether the recorder times each action's reducer (from its line written to the state
  /// handed back, ``Recorder/didReduce(_:)``) and writes the times, 256 actions a line, as
  /// `costs` records; `replay profile` shows them beside its own. Off by default.
  public var recordsReducerTimes = false
  /// A viewer to stream the log to while the app runs (`replay listen`, docs/live.md), beside
  /// the file; `nil` (the default) streams nothing. ``LiveViewer/fromEnvironment()`` reads it
  /// from `REWIND_LIVE`.
  public var liveViewer: LiveViewer?

  /// Fixed clock, session and date for reproducible files (fixtures, golden tests).
  package var reproducible: Reproducible?

  /// Creates options; every setting has a default.
  public init(
    durability: Durability = .processCrash,
    checkpointInterval: Int = LogFormat.defaultCheckpointInterval,
    rotation: Rotation? = nil,
    ifExists: ExistingFile = .fail,
    deniedActionTypes: Set<String> = [],
    coder: LogCoder = .rewind,
    recordsFatalSignals: Bool = false,
    build: BuildStamp = .mainBundle(),
    determinismCheck: DeterminismCheck = .default,
    recordsOrigins: Bool = false,
    recordsReducerTimes: Bool = false,
    liveViewer: LiveViewer? = nil
  ) {
    self.durability = durability
    self.checkpointInterval = max(0, checkpointInterval)
    self.rotation = rotation
    self.ifExists = ifExists
    self.deniedActionTypes = deniedActionTypes
    self.coder = coder
    self.recordsFatalSignals = recordsFatalSignals
    self.build = build
    self.determinismCheck = determinismCheck
    self.recordsOrigins = recordsOrigins
    self.recordsReducerTimes = recordsReducerTimes
    self.liveViewer = liveViewer
  }

  /// Values that make a recording byte-for-byte reproducible.
  package struct Reproducible: Sendable {
    /// The session id written in the header.
    package var session: String
    /// The `recordedAt` written in the header.
    package var recordedAt: String
    /// The `time` of the action with `seq` n is `n * secondsPerAction`.
    package var secondsPerAction: Double

    package init(session: String, recordedAt: String, secondsPerAction: Double) {
      self.session = session
      self.recordedAt = recordedAt
      self.secondsPerAction = secondsPerAction
    }
  }
}

import Rewind
import RewindJSON

/// An opened Rewind log: its header, an index of its records by `seq`, and the faults the
/// recovery mode let past. Actions and checkpoints are decoded on demand.
///
/// Opening reads the file once, finds the line breaks, checks every line's checksum and `seq`
/// continuity, and parses the header; it does not decode actions or states.
/// - Complexity: Opening is O(n) in the file's size; ``action(at:)`` and
///   ``checkpointState(at:)`` are O(length of that line).
public final class ReplayLog: Sendable {
  /// The file's path, as given.
  public let path: String
  /// The header.
  public let header: LogHeader
  /// The recovery mode the log was opened with.
  public let recovery: RecoveryMode
  /// Faults that the recovery mode dropped or skipped, in file order (empty for a sound log).
  public let faults: [LogFault]
  /// The `reason` of the `end` record (`"closed"`, `"rotated"`), or `nil` when the log has none:
  /// it was cut off, because the app crashed or was killed.
  public let endReason: String?
  /// The fatal signal the app died of, when its recorder wrote a `signal` record
  /// (``Rewind/RecordingOptions/recordsFatalSignals``).
  public let signal: RecordedSignal?
  /// The seqs that have a recorded checkpoint, ascending.
  public let checkpointSeqs: [Int]
  /// The first position whose state may differ from the live app's, because an action before it
  /// was not recorded (deny list, encoding failure) or skipped by `--recovery salvage`.
  public let suspectFrom: Int?
  /// How many lines of an unknown `kind` were ignored (written by a newer recorder).
  public let ignoredLines: Int

  let bytes: LogBytes
  let entries: LogEntryTable
  /// The `costs` lines: the reducer times the recorder measured.
  let costEntries: [LogEntry]
  let checkpointEntries: [Int: LogEntry]
  /// States written in parts (complete ones), each seq's part lines in order.
  let partedCheckpointEntries: [Int: [LogEntry]]
  /// How many checkpoints the recorder left out because the previous one was still being written
  /// (`state-skipped` marks).
  public let skippedCheckpoints: Int
  /// How many rotated files of the session follow the first one in this file (a bundle made by
  /// `RecordedSession.bundle(to:)`); 0 for a single file.
  public let joinedFiles: Int
  let limits: ReaderLimits
  /// What indexing found, as it found it (the fields above are read from it once).
  private let index: LogIndexer.Result
  /// The schema migrations its actions and states go through before they are decoded
  /// (``migrated(by:)``); `nil` when it is read as recorded.
  public let migration: MigrationChain?

  /// Opens and indexes the log at `path`.
  ///
  /// - Parameters:
  ///   - recovery: What to do with faulty lines (see ``RecoveryMode``).
  ///   - limits: Bounds on the file, its lines and their JSON.
  ///   - identifiesActions: Whether the open also finds each action's identity, as ``LogDiff``
  ///     compares actions by (the bytes of its `action`, hashed), while each line is in cache:
  ///     a diff then need not read every line again. Off by default: other commands would pay
  ///     for it (16 bytes and a hash an action) and not use it.
  /// - Throws: `ReplayError.cannotOpen`, `.notARegularFile`, `.emptyLog`, `.fileTooLarge`,
  ///   `.notARewindLog`, `.unsupportedVersion`, or `.fault` for a faulty line the recovery mode
  ///   does not allow past.
  public convenience init(
    path: String, recovery: RecoveryMode = .tail, limits: ReaderLimits = .default,
    identifiesActions: Bool = false
  ) throws(ReplayError) {
    let limits = Self.limits(limits, for: recovery)
    let bytes = try LogBytes(path: path, limits: limits)
    try self.init(
      path: path, bytes: bytes, recovery: recovery, limits: limits,
      identifiesActions: identifiesActions)
  }

  /// Opens a log held in memory; `name` stands for its path in messages (`identifiesActions`
  /// as for ``init(path:recovery:limits:identifiesActions:)``).
  public convenience init(
    name: String, contents: [UInt8], recovery: RecoveryMode = .tail,
    limits: ReaderLimits = .default, identifiesActions: Bool = false
  ) throws(ReplayError) {
    guard !contents.isEmpty else { throw .emptyLog(path: name) }
    let limits = Self.limits(limits, for: recovery)
    try self.init(
      path: name, bytes: LogBytes(copying: contents, limits: limits), recovery: recovery,
      limits: limits, identifiesActions: identifiesActions)
  }

  /// `limits`, checking every line's JSON at open for the recovery modes that cut or skip bad
  /// lines whatever `limits` says (``ReaderLimits/checksJSONAtOpen``).
  private static func limits(_ limits: ReaderLimits, for recovery: RecoveryMode) -> ReaderLimits {
    var limits = limits
    if recovery != .tail { limits.checksJSONAtOpen = true }
    return limits
  }

  private convenience init(
    path: String, bytes: LogBytes, recovery: RecoveryMode, limits: ReaderLimits,
    identifiesActions: Bool
  ) throws(ReplayError) {
    var indexer = LogIndexer(
      path: path, bytes: bytes, recovery: recovery, limits: limits,
      identifiesActions: identifiesActions)
    let result: LogIndexer.Result
    do {
      result = try indexer.run()
      try bytes.waitForAll()  // the indexer may have stopped early (`prefix`, `tail`)
    } catch {
      bytes.cancel()
      throw error
    }
    var index = result
    if index.header.stateFollows {
      index = try Self.resolvingHeaderState(
        index,
        of: ReplayLog(
          path: path, bytes: bytes, recovery: recovery, limits: limits, index: result,
          header: result.header, migration: nil))
    }
    self.init(
      path: path, bytes: bytes, recovery: recovery, limits: limits, index: index,
      header: index.header, migration: nil)
  }

  /// `index` with its header's state read from the `state` record for `firstSeq - 1`, which a
  /// header with ``LogHeader/stateFollows`` announces, and that record no longer a checkpoint
  /// (position `firstSeq - 1` is the header's); `index` as it is when the file has no complete
  /// such record (``isInitialStateMissing``).
  /// - Throws: `ReplayError.fault` when the record's lines do not read.
  private static func resolvingHeaderState(
    _ index: LogIndexer.Result, of log: ReplayLog
  ) throws(ReplayError) -> LogIndexer.Result {
    let seq = index.header.firstSeq - 1
    var index = index
    // Kept as text, checked as JSON; the full way gives the error.
    if let text = log.checkpointStateText(at: seq) {
      index.header.setState(text: text, limits: log.limits.json)
    } else if let state = try log.checkpointState(at: seq) {
      index.header.state = state
    } else {
      return index
    }
    index.headerStateLine = log.checkpointLine(at: seq) ?? 1
    index.header.stateFollows = false
    index.checkpoints[seq] = nil
    index.partedCheckpoints[seq] = nil
    return index
  }

  /// A log from its index, with `header` (the recorded one, or migrated) and `migration`.
  private init(
    path: String, bytes: LogBytes, recovery: RecoveryMode, limits: ReaderLimits,
    index: LogIndexer.Result, header: LogHeader, migration: MigrationChain?
  ) {
    self.path = path
    self.bytes = bytes
    self.recovery = recovery
    self.limits = limits
    self.index = index
    self.header = header
    self.migration = migration
    faults = index.faults
    endReason = index.endReason
    signal = index.signal
    entries = index.entries
    costEntries = index.costs
    checkpointEntries = index.checkpoints
    partedCheckpointEntries = index.partedCheckpoints
    checkpointSeqs = Set(index.checkpoints.keys).union(index.partedCheckpoints.keys).sorted()
    skippedCheckpoints = index.skippedStates
    joinedFiles = index.joinedFiles
    suspectFrom = index.suspectFrom
    ignoredLines = index.ignoredLines
  }

  /// The same log, read through `migration`: its actions, checkpoints and header state are
  /// migrated as they are read, and its actions are marked ``RecordedAction/isMigrated``.
  /// - Throws: `ReplayError.migrationFailed` when a step throws on the header's state.
  public func migrated(by migration: MigrationChain) throws(ReplayError) -> ReplayLog {
    var header = header
    if !isInitialStateMissing {
      header.state = try migration.migratedState(
        header.state, in: path, line: headerStateLine, what: "header's initial state")
    }
    return ReplayLog(
      path: path, bytes: bytes, recovery: recovery, limits: limits, index: index, header: header,
      migration: migration)
  }

  /// How many bytes from the start of the file this log's actions cover: to the end of its last
  /// action line (0 when it has none).
  package var indexedLength: Int {
    entries.endOfLastLine
  }

  /// The CRC-32C of the file's first `length` bytes, or `nil` when fewer were read: a replay
  /// worker checks with it that the file is still the one its parent read.
  package func checksum(ofFirst length: Int) -> UInt32? {
    guard length >= 0, (try? bytes.waitForAll()).map({ $0 >= length }) == true else { return nil }
    return CRC32C.checksum(bytes.slice(0, length))
  }

  /// Whether the file's initial state is not in it: its header says the state follows in a
  /// `state` record (a file begun by a rotation), and the app stopped before that record was
  /// written whole. The actions and checkpoints read as usual, and the states from the first
  /// checkpoint on can be rebuilt; a state before it cannot (``initialStateError``), and the
  /// header's ``LogHeader/state`` is `null`. The file before this one holds that state: the
  /// session's files joined oldest first read whole.
  public var isInitialStateMissing: Bool { header.stateFollows }

  /// The error for a state that needs the initial state when ``isInitialStateMissing``.
  public var initialStateError: ReplayError {
    .headerStateMissing(path: path, seq: header.firstSeq - 1)
  }

  /// Whether the log ends with an `end` record (it was closed cleanly).
  public var hasEndRecord: Bool { endReason != nil }

  /// Whether the log was cut off: no `end` record, so the app crashed or was killed (or is still
  /// recording).
  public var isCutOff: Bool { endReason == nil }

  /// The seq of the first action (the header's `firstSeq`).
  public var firstSeq: Int { header.firstSeq }

  /// The seq of the last action (`firstSeq - 1` when there is none).
  public var lastSeq: Int { header.firstSeq - 1 + entries.count }

  /// The number of actions (recorded, skipped and missing seqs alike).
  public var actionCount: Int { entries.count }

  /// Every position: `firstSeq - 1` (the header's state) through `lastSeq`.
  public var positions: ClosedRange<Int> { (header.firstSeq - 1)...lastSeq }

  /// The line of the file the header's state comes from: 1, the header's own, unless the
  /// header announced that its state follows (``LogHeader/stateFollows``) — then the line of the
  /// `state` record (its first part) that brought it. Errors about that state name this line.
  public var headerStateLine: Int { index.headerStateLine }

  /// The app's name from the header.
  public var app: String { header.app }

  /// The identities of the actions the open found (opened with `identifiesActions`), else `nil`
  /// (``actionIdentities()`` finds them all).
  var identitiesFromOpen: ActionIdentities? { index.actionIdentities }

  /// Whether the log was opened with `identifiesActions`.
  var identifiesActionsAtOpen: Bool { index.actionIdentities != nil }

  /// The size of the log in bytes.
  var byteCount: Int { bytes.buffer.count }

  /// The raw text of the line holding the action `seq` (for `--json` output of actions).
  public func rawLine(seq: Int) -> String? {
    guard let entry = entry(seq: seq), entry.kind != .missing else { return nil }
    return String(decoding: bytes.slice(entry.start, entry.start + entry.length), as: UTF8.self)
  }

  func entry(seq: Int) -> LogEntry? {
    let index = seq - header.firstSeq
    guard index >= 0, index < entries.count else { return nil }
    return entries.entry(index, seq: seq)
  }

  /// The JSON of one indexed line, with only the members `names` when the line is long (over
  /// 1 MiB): each of them is parsed alone from the line's tape, so that a member nobody asked
  /// for — millions of them, in a hostile line — is never built as a tree.
  func parse(_ entry: LogEntry, members names: [StaticString]) throws(ReplayError) -> JSONValue {
    guard entry.length > 1 << 20 else { return try parse(entry) }
    let document = JSONTapeDocument(limits: limits.json)
    // A line that does not load is parsed whole, for its exact error.
    guard document.load(bytes.slice(entry.start, entry.start + entry.length)) else {
      return try parse(entry)
    }
    return .object(
      names.compactMap { name in
        document.member(name, of: document.root).map {
          JSONMember(name.description, document.value(at: $0))
        }
      })
  }

  /// Parses the JSON of one indexed line.
  func parse(_ entry: LogEntry) throws(ReplayError) -> JSONValue {
    let line = bytes.slice(entry.start, entry.start + entry.length)
    do {
      return try JSONParser.parse(line, limits: limits.json)
    } catch {
      let fault = LogFault(
        path: path, line: entry.line, byteOffset: entry.start + error.offset,
        reason: .invalidJSON(error.shifted(by: entry.start)))
      throw .fault(
        fault, recovery: recovery, intactActions: max(0, entry.seq - firstSeq), droppedLines: 0)
    }
  }
}

/// Where one record of the log is, and what it is.
struct LogEntry: Sendable {
  enum Kind: UInt8, Sendable {
    /// An action line.
    case action
    /// A `skipped` line (deny list or encoding failure).
    case skipped
    /// No line: a seq skipped over by `--recovery salvage`.
    case missing
    /// A checkpoint line.
    case checkpoint
  }

  var start: Int
  var line: Int
  var seq: Int
  /// The length in the high 56 bits, the kind in the low 8: 32 bytes an entry instead of 40,
  /// which a million-action log feels.
  private var lengthAndKind: UInt64

  /// - Parameter isRecorderLayout: The line is an action line whose checksum and start,
  ///   `{"c":"…","kind":"action","seq":N`, the indexer checked (see ``ActionLineLayout``).
  init(start: Int, length: Int, line: Int, seq: Int, kind: Kind, isRecorderLayout: Bool = false) {
    self.start = start
    self.line = line
    self.seq = seq
    lengthAndKind =
      UInt64(length) << 8 | UInt64(kind.rawValue) | (isRecorderLayout ? Self.layoutFlag : 0)
  }

  private static let layoutFlag: UInt64 = 0x80

  var length: Int { Int(lengthAndKind >> 8) }
  var kind: Kind { Kind(rawValue: UInt8(truncatingIfNeeded: lengthAndKind & 0x7F)) ?? .missing }
  var isRecorderLayout: Bool { lengthAndKind & Self.layoutFlag != 0 }
}

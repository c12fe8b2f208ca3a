import Rewind
import RewindJSON

/// The checksums of a large log, checked on the reading thread ahead of the indexer: checksums
/// are a third of the cost of opening a log, and each line's is a pure function of its bytes.
///
/// Between chunks of the read (``LogBytes``), and after it, the reading thread checks the lines
/// ahead of the indexer (``checkSome(_:in:isComplete:)``), starting again from the line the
/// indexer last reported (``indexerReached(_:)``) whenever the indexer has overtaken it. It
/// publishes the window of lines it has checked since it last started. The pass sees the same
/// lines as ``LogIndexer`` (split at `\n`, a trailing `\r` left out). For a line the pass has
/// checked (``checkedLines()``), the indexer takes its verdict (``status(at:)``: valid, unless
/// the pass recorded it among the few lines whose checksum is not valid); for any other, the
/// indexer checks the checksum itself — it never waits. The pass gives up when a log has many
/// lines without a valid checksum, and stops when the indexer is done (``cancel()``).
final class ChecksumPrepass: Sendable {
  /// The checking thread's place in the file.
  struct Cursor {
    /// The start of the next line to check.
    var line = 0
    /// How many lines without a valid checksum (or valid JSON) it has found.
    var found = 0
    /// Checks the JSON of lines whose checksum holds, when the pass does.
    var validator: JSONValidator?
  }

  /// The start of a line the indexer has reached (relaxed: a hint where to start again).
  private let indexerLine = AtomicWord(0)
  /// Where the pass last started: a line start, stored before ``progress`` moves past it.
  private let origin = AtomicWord(0)
  /// Every line starting in `origin..<progress` has been checked (release: its exceptions are
  /// recorded before the offset moves past it).
  private let progress = AtomicWord(0)
  /// How many exceptions there are, so that the indexer looks them up only when there are some.
  private let exceptionCount = AtomicWord(0)
  /// The lines (by start offset) whose checksum is not valid.
  private let exceptions = Locked<[Int: LogLine.ChecksumStatus]>([:])
  /// The lines (by start offset) whose checksum holds but whose JSON is not valid.
  private let invalidJSON = Locked<Set<Int>>([])
  /// The limits a line's JSON is checked against, when the pass checks it
  /// (``ReaderLimits/checksJSONAtOpen``).
  let jsonLimits: JSONLimits?
  private let isCancelled = AtomicWord(0)

  /// Past this many lines without a valid checksum, the pass gives up.
  private static let exceptionLimit = 4096
  /// Lines checked by one call of ``checkSome(_:in:isComplete:)``.
  private static let linesPerCall = 512

  /// A pass that has checked nothing yet; it also checks the JSON of each line whose checksum
  /// holds against `jsonLimits`, unless `nil`.
  init(checkingJSON jsonLimits: JSONLimits? = nil) {
    self.jsonLimits = jsonLimits
  }

  /// Tells the pass that the indexer has reached the line starting at `start`.
  func indexerReached(_ start: Int) {
    indexerLine.store(start)
  }

  /// The line the indexer last reported.
  var indexerPosition: Int { indexerLine.load() }

  /// Lines starting in this range have been checked: ask ``status(at:)`` for their verdict.
  /// The range stays true however the pass goes on, so the indexer may keep it until it has
  /// passed it — provided the indexer asks only about lines at or after the last one it
  /// reported.
  func checkedLines() -> Range<Int> {
    let end = progress.load()
    let start = origin.load()
    return start < end ? start..<end : 0..<0
  }

  /// The verdict on a line in ``checkedLines()``.
  func status(at start: Int) -> LogLine.ChecksumStatus {
    guard exceptionCount.load() > 0 else { return .valid }
    return exceptions.withLock { $0[start] } ?? .valid
  }

  /// Whether a line in ``checkedLines()`` whose checksum holds is valid JSON (always `true`
  /// when the pass does not check JSON).
  func isValidJSON(at start: Int) -> Bool {
    guard jsonLimits != nil, exceptionCount.load() > 0 else { return true }
    return !invalidJSON.withLock { $0.contains(start) }
  }

  /// Stops the pass (the indexer is done with it).
  func cancel() {
    isCancelled.store(1)
  }

  /// Checks a few lines of `buffer` (the bytes read so far; all of the file when `isComplete`)
  /// from `cursor`, or from the indexer's line when it is ahead. Returns `false` when there was
  /// nothing to check: the next line is not all read yet, the file is done, or the pass has
  /// stopped.
  func checkSome(_ cursor: inout Cursor, in buffer: UnsafeRawBufferPointer, isComplete: Bool)
    -> Bool
  {
    guard isCancelled.load() == 0, cursor.found <= Self.exceptionLimit else {
      return false
    }
    let indexer = indexerLine.load()
    if indexer > cursor.line {
      // Overtaken: what lies behind the indexer is of no use. Start again where it is — or,
      // when checking JSON makes this pass slower than the indexer, halfway between it and the
      // end of what is read, so that the two split the lines left instead of checking the same.
      var restart = indexer
      if jsonLimits != nil, buffer.count - indexer > 2 * Self.linesPerCall * 128,
        let newline = Platform.firstIndex(
          of: UInt8(ascii: "\n"), in: buffer, from: indexer + (buffer.count - indexer) / 2)
      {
        restart = newline + 1
      }
      cursor.line = restart
      origin.store(restart)
    }
    var checked = 0
    let first = cursor.line
    while checked < Self.linesPerCall, cursor.line < buffer.count {
      let start = cursor.line
      let newline = Platform.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: start)
      guard newline != nil || isComplete else { break }
      let end = newline ?? buffer.count
      let status = LogLine.checkChecksum(Self.content(of: buffer, start, end))
      if status != .valid {
        cursor.found += 1
        if cursor.found > Self.exceptionLimit { return false }
        exceptions.withLock { $0[start] = status }
        exceptionCount.store(cursor.found)
      }
      cursor.line = end + 1
      checked += 1
    }
    guard checked > 0 else { return false }
    if let jsonLimits,
      !checkJSON(&cursor, in: buffer, first..<min(cursor.line, buffer.count), jsonLimits)
    {
      return false
    }
    progress.store(cursor.line)
    return true
  }

  /// The bytes of the line `start..<end` (`end` its newline, or the end of the file) without a
  /// trailing `\r`: what ``LogIndexer`` calls the line.
  private static func content(of buffer: UnsafeRawBufferPointer, _ start: Int, _ end: Int)
    -> UnsafeRawBufferPointer
  {
    var contentEnd = end
    if contentEnd > start, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
    return UnsafeRawBufferPointer(rebasing: buffer[start..<contentEnd])
  }

  /// Checks the JSON of the lines in `range` (whole lines, just checked for checksums) in one
  /// pass; when some line is not valid JSON, checks each line whose checksum holds on its own and
  /// records those that are not. Returns `false` when the pass gives up.
  private func checkJSON(
    _ cursor: inout ChecksumPrepass.Cursor, in buffer: UnsafeRawBufferPointer, _ range: Range<Int>,
    _ jsonLimits: JSONLimits
  ) -> Bool {
    if cursor.validator == nil { cursor.validator = JSONValidator(limits: jsonLimits) }
    guard cursor.validator?.linesAreValid(UnsafeRawBufferPointer(rebasing: buffer[range])) == false
    else { return true }
    var start = range.lowerBound
    while start < range.upperBound {
      let end =
        Platform.firstIndex(of: UInt8(ascii: "\n"), in: buffer, from: start) ?? buffer.count
      defer { start = end + 1 }
      let line = Self.content(of: buffer, start, end)
      guard LogLine.checkChecksum(line) == .valid, cursor.validator?.isValid(line) == false
      else { continue }
      cursor.found += 1
      if cursor.found > Self.exceptionLimit { return false }
      invalidJSON.withLock { _ = $0.insert(start) }
      exceptionCount.store(cursor.found)
    }
    return true
  }
}

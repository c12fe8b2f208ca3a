import RewindJSON

/// The lines of a log opened without checking each line's JSON (``ReaderLimits/checksJSONAtOpen``)
/// that decoding its actions does not read — the header, checkpoints, reducer times, lines of
/// kinds `replay` does not know, an action that did not decode — checked with ``JSONValidator``,
/// many lines a call, so that `replay compat` checks every line once
/// (``CompatibilityChecker``).
///
/// A check of a chunk of actions reaches each action's line in turn (``reach(_:line:)``) and
/// checks the lines between it and the one before; the chunk that reaches the first action
/// checks from the start of the file, and each chunk checks up to the next chunk's first action
/// (``finish(after:)``).
struct UncheckedLines {
  private let log: ReplayLog
  private var validator: JSONValidator
  /// Where the lines the open read end: before a torn last line (which the open reported and
  /// did not read), or the file's end.
  private let end: Int
  /// Where the last action line reached ends: the lines from there on are not checked yet.
  /// `nil` in a chunk before its first action: the chunk before checks up to it.
  private var checkedTo: Int?
  /// Whether a line checked is not JSON.
  private(set) var foundInvalidLine = false

  /// - Parameter fromTheStart: Whether the lines before the first action reached are this
  ///   check's: the first chunk's (the header, the state that follows it).
  init(_ log: ReplayLog, fromTheStart: Bool = true) {
    self.log = log
    checkedTo = fromTheStart ? 0 : nil
    validator = JSONValidator(limits: log.limits.json)
    let size = (try? log.bytes.waitForAll()) ?? log.indexedLength
    var end = max(log.indexedLength, size)
    if let fault = log.faults.map(\.byteOffset).min(), fault < end {
      // The start of the faulty line.
      end = max(log.indexedLength, fault)
      while end > log.indexedLength, log.bytes.slice(end - 1, end)[0] != UInt8(ascii: "\n") {
        end -= 1
      }
    }
    self.end = end
  }

  /// Checks every line the open read: for a log with no action.
  mutating func checkAll() {
    checkLines(0, end)
  }

  /// Checks the lines between the line reached last and the action `seq`'s, `line` when
  /// ``ReplayLog/locateActionLine(_:)`` found it (else its entry is looked up).
  mutating func reach(_ seq: Int, line: ReplayLog.LocatedActionLine?) {
    let span: (start: Int, end: Int)
    if let line {
      span = (line.start, line.start + line.bytes.count)
    } else {
      guard let entry = log.entry(seq: seq), entry.kind != .missing else { return }
      span = (entry.start, entry.start + entry.length)
    }
    if let from = checkedTo { checkLines(from, span.start) }
    checkedTo = span.end
  }

  /// Checks the lines after the action `seq`'s (the last reached), up to the next action's or
  /// the last line the open read.
  mutating func finish(after seq: Int) {
    guard let from = checkedTo else { return }
    checkLines(from, log.entry(seq: seq + 1).map(\.start) ?? end)
  }

  /// Checks the line of the action `seq` itself: one decoding did not read.
  mutating func check(_ seq: Int) {
    guard let entry = log.entry(seq: seq), entry.kind != .missing else { return }
    checkLines(entry.start, entry.start + entry.length)
  }

  private mutating func checkLines(_ start: Int, _ end: Int) {
    // (Between two lines in a row, only their line feed.)
    guard end - start > 1, !foundInvalidLine else { return }
    if !validator.linesAreValid(log.bytes.slice(start, end)) { foundInvalidLine = true }
  }
}

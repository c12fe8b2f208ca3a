/// The index of a log's seqs: one ``LogEntry`` for each, packed in about 4 bytes instead of the
/// struct's 32, so that a million-action log's index takes 4 MiB, not 31 (it stays in memory
/// while the log is replayed: docs/performance.md, section 5).
///
/// An entry's seq is its place (the log's `firstSeq` plus its index). One 32-bit word holds its
/// kind, its layout flag, how its length is found, and its start as an offset from the start of
/// its block of 256 entries (kept once per block). Its length is most often implied: the next
/// entry's line starts one byte after it ends (its `\n`), or two (`\r\n`, or a blank line in
/// between); otherwise (a checkpoint line follows it, it is the last) the length is kept aside,
/// as is a start too far from its block's. Its line number is its index plus an offset that
/// changes only where a line that is not a seq's comes between two (a checkpoint, a blank line,
/// a skipped faulty line): those changes are kept as a list, with a hint every 256 entries to
/// the one in force, so that finding an entry's line is a search among the changes of its 256
/// entries.
struct LogEntryTable: Sendable {
  /// Where an entry's line number is its index plus `offset`, from the entry `from` on.
  private struct Shift: Sendable {
    var from: Int
    var offset: Int
  }

  /// How an entry's length is found.
  private enum LengthRule: UInt32 {
    /// The next entry's start, less the entry's start and 1.
    case beforeNext
    /// The next entry's start, less the entry's start and 2.
    case twoBeforeNext
    /// In ``lengths`` (or ``lastLength`` for the last entry).
    case keptAside
    /// 0 (a missing seq).
    case empty
  }

  private var words: [UInt32] = []
  /// The start of each block's first entry.
  private var bases: [Int] = []
  private var shifts: [Shift] = []
  /// For each block, the index in ``shifts`` of the shift in force at its first entry.
  private var hints: [Int] = []
  /// The lengths no rule gives (the last entry's is ``lastLength``), by entry index.
  private var lengths = Aside()
  private var lastLength = 0
  /// The starts too far from their block's (or before it), by entry index.
  private var farStarts = Aside()

  private static let kindMask: UInt32 = 0b11
  private static let layoutFlag: UInt32 = 0b100
  private static let ruleShift: UInt32 = 3
  private static let ruleMask: UInt32 = 0b11 << ruleShift
  private static let offsetShift: UInt32 = 5
  private static let offsetEscape = Int(UInt32.max >> offsetShift)
  private static let blockShift = 8

  init() {}

  /// How many entries the table holds.
  var count: Int { words.count }

  /// Makes room for `count` entries, so that the table does not grow by copying.
  mutating func reserveCapacity(_ count: Int) {
    words.reserveCapacity(count)
    bases.reserveCapacity(count >> Self.blockShift + 1)
    hints.reserveCapacity(count >> Self.blockShift + 1)
  }

  /// Adds `entry` as the next seq's (its `seq` is not kept: it is the entry's place).
  mutating func append(_ entry: LogEntry) {
    let index = words.count
    if index > 0 { settleLength(of: index - 1, nextStart: entry.start) }
    let offset = entry.line - index
    if shifts.last?.offset != offset { shifts.append(Shift(from: index, offset: offset)) }
    if index & ((1 << Self.blockShift) - 1) == 0 {
      hints.append(shifts.count - 1)
      bases.append(entry.start)
    }
    var start = entry.start - bases[index >> Self.blockShift]
    if start < 0 || start >= Self.offsetEscape {
      farStarts.append(index, entry.start)
      start = Self.offsetEscape
    }
    let rule: LengthRule = entry.length == 0 ? .empty : .keptAside
    lastLength = entry.length
    words.append(
      UInt32(entry.kind.rawValue) | (entry.isRecorderLayout ? Self.layoutFlag : 0)
        | rule.rawValue << Self.ruleShift | UInt32(start) << Self.offsetShift)
  }

  /// Once the entry after it starts at `nextStart`: the rule for the length of the entry at
  /// `index` (the last one so far, whose length is ``lastLength``).
  private mutating func settleLength(of index: Int, nextStart: Int) {
    guard lastLength > 0 else { return }  // `.empty`
    let start = self.start(index)
    let rule: LengthRule
    switch nextStart - start - lastLength {
    case 1: rule = .beforeNext
    case 2: rule = .twoBeforeNext
    default:
      lengths.append(index, lastLength)
      rule = .keptAside
    }
    words[index] = words[index] & ~Self.ruleMask | rule.rawValue << Self.ruleShift
  }

  /// The entry at `index` (which must be below ``count``), for the seq `seq`.
  func entry(_ index: Int, seq: Int) -> LogEntry {
    let word = words[index]
    let start = self.start(index)
    let length: Int
    switch LengthRule(rawValue: (word & Self.ruleMask) >> Self.ruleShift) ?? .keptAside {
    case .beforeNext: length = self.start(index + 1) - start - 1
    case .twoBeforeNext: length = self.start(index + 1) - start - 2
    case .keptAside: length = index == words.count - 1 ? lastLength : lengths.value(at: index)
    case .empty: length = 0
    }
    return LogEntry(
      start: start, length: length, line: line(index), seq: seq,
      kind: LogEntry.Kind(rawValue: UInt8(truncatingIfNeeded: word & Self.kindMask)) ?? .missing,
      isRecorderLayout: word & Self.layoutFlag != 0)
  }

  /// Where the last line with any bytes ends (0 when no entry has one).
  var endOfLastLine: Int {
    var index = words.count - 1
    while index >= 0 {
      let entry = entry(index, seq: 0)
      if entry.length > 0 { return entry.start + entry.length }
      index -= 1
    }
    return 0
  }

  /// The start of the entry at `index`.
  private func start(_ index: Int) -> Int {
    let offset = Int(words[index] >> Self.offsetShift)
    if offset == Self.offsetEscape { return farStarts.value(at: index) }
    return bases[index >> Self.blockShift] + offset
  }

  /// The line number of the entry at `index`: the last shift at or before it, searched for
  /// between the hints of its block and of the next.
  private func line(_ index: Int) -> Int {
    let block = index >> Self.blockShift
    var low = hints[block]
    var high = block + 1 < hints.count ? hints[block + 1] : shifts.count - 1
    // The last shift in low...high whose `from` is at most `index` (shifts[low] is one).
    while low < high {
      let middle = (low + high + 1) / 2
      if shifts[middle].from <= index { low = middle } else { high = middle - 1 }
    }
    return index + shifts[low].offset
  }

  /// Values for a few entries, added in the order of their indexes (a sorted list, searched).
  private struct Aside: Sendable {
    private var indexes: [Int] = []
    private var values: [Int] = []

    mutating func append(_ index: Int, _ value: Int) {
      indexes.append(index)
      values.append(value)
    }

    /// The value added for `index` (0 when there is none).
    func value(at index: Int) -> Int {
      var low = 0
      var high = indexes.count
      while low < high {
        let middle = (low + high) / 2
        if indexes[middle] < index { low = middle + 1 } else { high = middle }
      }
      return low < indexes.count && indexes[low] == index ? values[low] : 0
    }
  }
}

import Testing

@testable import RewindReplay

/// The packed index of a log's seqs gives back every entry exactly as it was added: starts,
/// lengths, kinds, layout flags and line numbers, including those too large for their bits and
/// lines that shift many times within 256 entries.
@Suite struct LogEntryTableTests {
  private static let kinds: [LogEntry.Kind] = [.action, .skipped]

  /// Entries whose lines follow one another after a `\n`, a `\r\n`, a blank line or a longer
  /// line that is not a seq's (a checkpoint), with lines numbered accordingly; some lines very
  /// long, some starts far apart (past 128 MiB in a block, past 1 TiB), some seqs missing (no
  /// line: length 0, the start of the line that follows).
  private func entries(_ count: Int, seed: UInt64) -> [LogEntry] {
    var generator = seed
    func next(_ bound: Int) -> Int {
      generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((generator >> 33) % UInt64(bound))
    }
    var line = 1
    var start = 0
    return (0..<count).map { index in
      if next(30) == 0 {
        return LogEntry(start: start, length: 0, line: line + 1, seq: 7 + index, kind: .missing)
      }
      let length = next(50) == 0 ? (1 << 21) - 1 + next(3) * (1 << 22) : 1 + next(300)
      let entry = LogEntry(
        start: start, length: length, line: line + 1, seq: 7 + index,
        kind: Self.kinds[next(2)], isRecorderLayout: next(2) == 0)
      line += 1
      start += length
      switch next(8) {
      case 0:  // a blank line, or `\r\n`
        start += 2
        line += next(2)
      case 1:  // a checkpoint line
        start += 2 + next(5_000)
        line += 1
      case 2: start += 1 + (next(4) == 0 ? 1 << 40 : 1 << 28)
      default: start += 1
      }
      return entry
    }
  }

  @Test(arguments: [0, 1, 255, 256, 257, 1_000, 5_000])
  func everyEntryComesBackAsAdded(count: Int) {
    let added = entries(count, seed: UInt64(count) + 3)
    var table = LogEntryTable()
    table.reserveCapacity(count / 2)
    for entry in added { table.append(entry) }
    #expect(table.count == count)
    for (index, entry) in added.enumerated() {
      let read = table.entry(index, seq: entry.seq)
      #expect(read.start == entry.start, "start of \(index)")
      #expect(read.length == entry.length, "length of \(index)")
      #expect(read.line == entry.line, "line of \(index)")
      #expect(read.seq == entry.seq, "seq of \(index)")
      #expect(read.kind == entry.kind, "kind of \(index)")
      #expect(read.isRecorderLayout == entry.isRecorderLayout, "layout of \(index)")
    }
    let lastLine = added.last { $0.length > 0 }
    #expect(table.endOfLastLine == lastLine.map { $0.start + $0.length } ?? 0)
  }

  @Test func aLineNumberShiftingAtEveryEntryIsFound() {
    // A checkpoint after every action: each entry's line is two past the one before.
    var table = LogEntryTable()
    for index in 0..<1_000 {
      table.append(
        LogEntry(start: index * 10, length: 9, line: 2 + 2 * index, seq: 1 + index, kind: .action))
    }
    for index in [0, 1, 254, 255, 256, 511, 512, 999] {
      #expect(table.entry(index, seq: 1 + index).line == 2 + 2 * index, "line of \(index)")
    }
  }
}

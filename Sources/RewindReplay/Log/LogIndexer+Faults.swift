// What the indexer does with a faulty line, as the recovery mode says.
extension LogIndexer {
  /// Marks the log suspect from `position` on (salvage: a line was skipped before it).
  mutating func markSuspect(from position: Int) {
    if suspectFrom == nil { suspectFrom = position }
  }

  /// Records `fault` or throws it, as the recovery mode says; whether to skip its line or stop.
  mutating func handle(_ fault: LogFault) throws(ReplayError) -> Continuation {
    // What follows the fault decides, or is counted in, the error: the whole file is needed.
    if recovery == .strict || recovery == .tail { try bytes.waitForAll() }
    switch recovery {
    case .strict:
      throw failure(fault)
    case .tail:
      guard isBlank(lineEnd(from: fault.byteOffset) + 1, bytes.buffer.count) else {
        throw failure(fault)
      }
      faults.append(fault)
      return .stop
    case .prefix:
      faults.append(fault)
      return .stop
    case .salvage:
      faults.append(fault)
      markSuspect(from: expectedSeq)
      return .skipLine
    }
  }

  /// The error that `fault` ends the open with.
  func failure(_ fault: LogFault) -> ReplayError {
    .fault(
      fault, recovery: recovery, intactActions: entries.count,
      droppedLines: countLines(from: fault.byteOffset))
  }
}

import RewindJSON

extension ReplayLog {
  /// The reducer time the recorder measured for each action, in nanoseconds, when it recorded
  /// them (``Rewind/RecordingOptions/recordsReducerTimes``): `seq` → time, from the log's
  /// `costs` lines. Empty for a log recorded without them. A line that does not parse, and
  /// times of seqs outside the log's actions, are left out.
  public func recordedReducerTimes() -> [Int: Int] {
    var times: [Int: Int] = [:]
    for entry in costEntries {
      guard let value = try? parse(entry, members: ["seq", "ns"]),
        let last = value["seq"]?.intValue, case .array(let list)? = value["ns"]
      else { continue }
      let first = last - list.count + 1
      for (offset, item) in list.enumerated() {
        let seq = first + offset
        guard seq >= firstSeq, seq <= lastSeq, let ns = item.intValue, ns >= 0 else { continue }
        times[seq] = ns
      }
    }
    return times
  }
}

/// Reducer times not written yet (``RecordingOptions/recordsReducerTimes``): those of
/// consecutive actions, up to ``capacity``, which go out as one `costs` line
/// (docs/log-format.md).
struct ReducerTimeBatch {
  /// How many times a `costs` line holds.
  static let capacity = 256
  /// The times, in nanoseconds, oldest first.
  private var times: [Int] = []
  /// The seq of the last time kept.
  private(set) var lastSeq = 0

  /// Whether the batch is full.
  var isFull: Bool { times.count >= Self.capacity }

  /// Whether a time for `seq` can join the batch: it is empty, or `seq` follows its last.
  func continues(at seq: Int) -> Bool { times.isEmpty || seq == lastSeq + 1 }

  /// Keeps the time of action `seq`.
  mutating func append(_ nanoseconds: Int, seq: Int) {
    times.append(nanoseconds)
    lastSeq = seq
  }

  /// The batch as a framed `costs` line, emptying it; `nil` when it is empty.
  mutating func takeLine() -> [UInt8]? {
    guard !times.isEmpty else { return nil }
    var line = LogLineBuilder(kind: .costs)
    line.integer("seq", lastSeq)
    var list: [UInt8] = [UInt8(ascii: "[")]
    for (index, time) in times.enumerated() {
      if index > 0 { list.append(UInt8(ascii: ",")) }
      list.append(contentsOf: String(time).utf8)
    }
    list.append(UInt8(ascii: "]"))
    line.json("ns", list)
    times.removeAll(keepingCapacity: true)
    return line.framed()
  }
}

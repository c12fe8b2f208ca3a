/// The lines of a `state` record (docs/log-format.md): the state after action `seq`, written by
/// the ``CheckpointWriter`` when it was ready. A state whose JSON is at most ``partBytes`` is one
/// line with its `state`; a larger one is `parts` lines, each with a piece of the JSON text as
/// the string `text`, so that no single write holds the file (and the actions waiting for it)
/// for long.
package enum StateRecord {
  /// The most bytes of JSON text in one line.
  package static let partBytes = 64 << 10

  /// The ranges of `json` that go into the parts: at most ``partBytes`` each, cut between UTF-8
  /// sequences.
  package static func pieces(of json: [UInt8]) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    while start < json.count {
      var end = min(start + partBytes, json.count)
      while end < json.count, end > start + 1, json[end] & 0xC0 == 0x80 { end -= 1 }
      ranges.append(start..<end)
      start = end
    }
    return ranges
  }

  /// The one line of a state that fits: `{"kind":"state","seq":S,"state":…}`.
  static func whole(seq: Int, json: [UInt8]) -> [UInt8] {
    var line = LogLineBuilder(kind: .state)
    line.integer("seq", seq)
    line.json("state", json)
    return line.framed()
  }

  /// Part `index` of `count`: `{"kind":"state","seq":S,"part":I,"parts":K,"text":"…"}`.
  static func part(seq: Int, index: Int, count: Int, text: ArraySlice<UInt8>) -> [UInt8] {
    var line = LogLineBuilder(kind: .state)
    line.integer("seq", seq)
    line.integer("part", index)
    line.integer("parts", count)
    line.string("text", String(decoding: text, as: UTF8.self))
    return line.framed()
  }

  /// Calls `write` with each line of the `state` record of `seq` holding `json` (one line, or its
  /// parts in order), made one at a time; stops at the first error `write` returns.
  static func forEachLine(
    seq: Int, json: [UInt8], _ write: ([UInt8]) -> RecorderError?
  ) -> RecorderError? {
    if json.count <= partBytes { return write(whole(seq: seq, json: json)) }
    let pieces = pieces(of: json)
    for (index, range) in pieces.enumerated() {
      if let report = write(part(seq: seq, index: index, count: pieces.count, text: json[range])) {
        return report
      }
    }
    return nil
  }

  /// Why a checkpoint was left out (the `reason` of its `state-skipped` mark).
  enum SkipReason: String {
    /// The previous checkpoint was still being encoded or written.
    case busy
    /// The app dispatched the next action before the state of this one reached the recorder.
    case nested
  }

  /// The mark of a checkpoint left out: `{"kind":"state-skipped","seq":S,"reason":R}`.
  static func skipped(seq: Int, reason: SkipReason) -> [UInt8] {
    var line = LogLineBuilder(kind: .stateSkipped)
    line.integer("seq", seq)
    line.string("reason", reason.rawValue)
    return line.framed()
  }
}

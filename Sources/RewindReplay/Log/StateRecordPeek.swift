import Rewind
import RewindJSON

/// What a `state` line is (docs/log-format.md): a whole state, or part `index` of `count`.
enum StateRecordPeek: Equatable {
  case whole
  case part(index: Int, count: Int)

  /// Reads the line's `part` and `parts` without parsing its state: from the recorder's layout
  /// (`"kind":"state","seq":S,"part":I,"parts":K,` or `…,"seq":S,"state":`) in its first bytes,
  /// else, for a line written another way, by parsing it.
  ///
  /// - Returns: `nil` for a line whose `part` and `parts` are not two integers with
  ///   0 ≤ part < parts, or that has neither `state` nor `text`.
  static func read(_ line: UnsafeRawBufferPointer, limits: JSONLimits) -> StateRecordPeek? {
    if let fast = fast(line) { return fast }
    guard let value = try? JSONParser.parse(line, limits: limits) else { return nil }
    if let index = value["part"]?.intValue, let count = value["parts"]?.intValue,
      value["text"]?.stringValue != nil
    {
      return 0 <= index && index < count ? .part(index: index, count: count) : nil
    }
    return value["state"] == nil ? nil : .whole
  }

  /// The recorder's layout, read from the bytes after the checksum.
  private static func fast(_ line: UnsafeRawBufferPointer) -> StateRecordPeek? {
    var cursor = LogLine.hasChecksumPrefix(line) ? LogLine.bodyOffset : 1
    guard expect(#""kind":"state","seq":"#, in: line, at: &cursor),
      number(in: line, at: &cursor) != nil
    else { return nil }
    if expect(#","state":"#, in: line, at: &cursor) { return .whole }
    guard expect(#","part":"#, in: line, at: &cursor), let index = number(in: line, at: &cursor),
      expect(#","parts":"#, in: line, at: &cursor), let count = number(in: line, at: &cursor),
      expect(#","text":""#, in: line, at: &cursor), 0 <= index, index < count
    else { return nil }
    return .part(index: index, count: count)
  }

  private static func expect(
    _ text: StaticString, in line: UnsafeRawBufferPointer, at cursor: inout Int
  ) -> Bool {
    let count = text.utf8CodeUnitCount
    guard cursor + count <= line.count else { return false }
    for offset in 0..<count where line[cursor + offset] != text.utf8Start[offset] { return false }
    cursor += count
    return true
  }

  /// A non-negative decimal integer of at most 18 digits.
  private static func number(in line: UnsafeRawBufferPointer, at cursor: inout Int) -> Int? {
    var value = 0
    var digits = 0
    while cursor < line.count, digits < 18, line[cursor] >= 0x30, line[cursor] <= 0x39 {
      value = value * 10 + Int(line[cursor] - 0x30)
      cursor += 1
      digits += 1
    }
    return digits > 0 ? value : nil
  }
}

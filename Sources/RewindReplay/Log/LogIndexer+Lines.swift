import Rewind

/// Finding lines and blank spans in the log's bytes.
extension LogIndexer {
  /// About how many lines `memory` holds, judged by its first `sample` bytes; 0 when they are
  /// all of it (a small file: the array of entries grows as it goes). Reserving room for a large
  /// log's entries spares copying them each time the array would grow.
  static func expectedLines(in memory: UnsafeRawBufferPointer, judgingBy sample: Int)
    -> Int
  {
    guard sample < memory.count else { return 0 }
    var lines = 0
    var end = 0
    while let newline = Self.newline(in: memory, from: end, before: sample) {
      lines += 1
      end = newline + 1
    }
    guard lines > 1 else { return 0 }
    let average = max(1, end / lines)
    return memory.count / average + memory.count / average / 8
  }

  /// The first `\n` in `memory[start..<end]`.
  static func newline(
    in memory: UnsafeRawBufferPointer, from start: Int, before end: Int
  ) -> Int? {
    guard start < end else { return nil }
    return Platform.firstIndex(
      of: UInt8(ascii: "\n"), in: UnsafeRawBufferPointer(rebasing: memory[..<end]), from: start)
  }

  // The rest reads past the current line: only once the whole file is read.

  func lineEnd(from start: Int) -> Int {
    Platform.firstIndex(of: UInt8(ascii: "\n"), in: bytes.buffer, from: start) ?? bytes.buffer.count
  }

  func countLines(from start: Int) -> Int {
    var count = 0
    var position = start
    while position < bytes.buffer.count {
      let end = lineEnd(from: position)
      if !isBlank(position, end) { count += 1 }
      position = end + 1
    }
    return count
  }

  func isBlank(_ start: Int, _ end: Int) -> Bool {
    guard start < end else { return true }
    for i in start..<end {
      switch bytes.memory[i] {
      case 0x20, 0x09, 0x0D, 0x0A: continue
      default: return false
      }
    }
    return true
  }
}

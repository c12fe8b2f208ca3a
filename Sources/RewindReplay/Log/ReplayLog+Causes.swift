#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Which recorded action caused which: the `cause` members of a log's action lines
/// (docs/log-format.md), both ways.
public struct CauseLinks: Sendable, Equatable {
  /// Each action's cause: `seq` → the `seq` of the action whose handling dispatched it.
  public var causes: [Int: Int] = [:]
  /// Each action's effects: `seq` → the `seq`s of the actions it caused, oldest first.
  public var effects: [Int: [Int]] = [:]

  /// No links.
  public init() {}
}

extension ReplayLog {
  /// Every `cause` of the log's action lines, read in one pass: a line is parsed only when its
  /// bytes hold `"cause"`, so a log recorded without origins costs one byte search per line. A
  /// line that does not parse, or a cause that is not an earlier action of the log, gives no
  /// link (the line's own fault is reported by the commands that read it).
  public func causeLinks() -> CauseLinks {
    var links = CauseLinks()
    let needle: StaticString = #""cause""#
    for index in 0..<entries.count {
      let seq = header.firstSeq + index
      let entry = entries.entry(index, seq: seq)
      guard entry.kind == .action else { continue }
      let line = bytes.slice(entry.start, entry.start + entry.length)
      guard Self.contains(line, needle) else { continue }
      guard let cause = (try? parse(entry, members: ["cause"]))?["cause"]?.intValue,
        cause >= firstSeq, cause < seq
      else { continue }
      links.causes[seq] = cause
      links.effects[cause, default: []].append(seq)
    }
    return links
  }

  /// Whether `line` holds the bytes of `needle` (found by its first byte with `memchr`).
  private static func contains(_ line: UnsafeRawBufferPointer, _ needle: StaticString) -> Bool {
    let count = needle.utf8CodeUnitCount
    guard let base = line.baseAddress, count > 0, line.count >= count else { return false }
    let first = Int32(needle.utf8Start.pointee)
    var offset = 0
    while offset <= line.count - count,
      let found = memchr(base + offset, first, line.count - count - offset + 1)
    {
      let at = base.distance(to: UnsafeRawPointer(found))
      if memcmp(base + at, needle.utf8Start, count) == 0 { return true }
      offset = at + 1
    }
    return false
  }
}

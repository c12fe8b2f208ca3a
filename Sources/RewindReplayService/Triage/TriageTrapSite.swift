import Foundation
import Rewind

/// Where in the binary a triage worker trapped: the trapping instruction as the file it was
/// loaded from (its inode) and the offset in it — the same in every worker of one binary, and
/// different for each check that traps (`INODE+0xOFFSET`).
///
/// Triage groups crashes by action type and message before it reads their frames (replaying the
/// first and last of a group with the backtracer, ``TriageWorkers``). A release build's checks
/// trap without a message, so two crashes of one action type at two places of the reducer would
/// share a group, and the frame of its first and last log: the site tells them apart, at no cost
/// (a line on stderr from the worker's fatal-signal handler). Known for a trap (`SIGILL`,
/// `SIGTRAP`, where the kernel gives the instruction's address) on Linux; `nil` otherwise.
package enum TriageTrapSite {
  /// The words before the site on stderr.
  package static var marker: String { markerWords.description }
  private static let markerWords: StaticString = "replay triage: trapped at "
  private static let separator: StaticString = "+0x"
  private static let digits: StaticString = "0123456789abcdef"

  /// An executable mapping of the process, from `/proc/self/maps`.
  private struct Mapping {
    var start: UInt
    var end: UInt
    var offset: UInt
    var inode: UInt
  }

  private static let capacity = 512
  // Written once by ``install()`` before the handler that reads them is added: no concurrent
  // access. Pointers in `let`s, so that the handler allocates nothing and takes no lock.
  nonisolated(unsafe) private static let mappings = UnsafeMutablePointer<Mapping>.allocate(
    capacity: capacity)
  nonisolated(unsafe) private static let count = UnsafeMutablePointer<Int>.allocate(capacity: 1)
  nonisolated(unsafe) private static let line = UnsafeMutablePointer<UInt8>.allocate(capacity: 128)

  /// Reads the process's executable mappings and adds the fatal-signal handler that writes the
  /// site of a trap on stderr. Call once, before replaying.
  package static func install() {
    #if os(Linux)
      // A file of the kernel's, whose size is 0 until read: read to its end.
      let fd = Foundation.open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let read = chunk.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
        guard read > 0 else { break }
        bytes += chunk[..<read]
      }
      Platform.close(fd)
      let maps = String(decoding: bytes, as: UTF8.self)
      var found = 0
      for row in maps.split(separator: "\n") where found < capacity {
        // start-end perms offset dev inode path
        let fields = row.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 5, fields[1].contains("x"),
          let inode = UInt(fields[4]), inode != 0, let offset = UInt(fields[2], radix: 16)
        else { continue }
        let bounds = fields[0].split(separator: "-")
        guard bounds.count == 2, let start = UInt(bounds[0], radix: 16),
          let end = UInt(bounds[1], radix: 16)
        else { continue }
        mappings[found] = Mapping(start: start, end: end, offset: offset, inode: inode)
        found += 1
      }
      count.pointee = found
      // Every global the handler reads, initialized now (a first use runs `swift_once`).
      _ = (markerWords, separator, digits, line)
      Platform.addFatalSignalHandler(writeSite)
    #endif
  }

  /// The site a dead worker wrote on `stderr`, if any.
  package static func site(in stderr: String) -> String? {
    guard let range = stderr.range(of: marker) else { return nil }
    let site = stderr[range.upperBound...].prefix { $0 != "\n" }
    return site.isEmpty ? nil : String(site)
  }

  /// The handler: for a trap, `replay triage: trapped at INODE+0xOFFSET` on stderr (formatted in
  /// a buffer made beforehand: no allocation in a signal handler).
  private static let writeSite: Platform.FatalSignalHandler = { signal, address in
    guard signal == Platform.SignalNumber.illegalInstruction || signal == Platform.SignalNumber.trap
    else { return }
    for index in 0..<count.pointee {
      let mapping = mappings[index]
      guard address >= mapping.start, address < mapping.end else { continue }
      var length = 0
      append(markerWords, at: &length)
      append(mapping.inode, radix: 10, at: &length)
      append(separator, at: &length)
      append(address - mapping.start + mapping.offset, radix: 16, at: &length)
      line[length] = UInt8(ascii: "\n")
      Platform.writeRaw(2, line, length + 1)
      return
    }
  }

  /// Writes `text` at `length` in ``line``.
  private static func append(_ text: StaticString, at length: inout Int) {
    for index in 0..<text.utf8CodeUnitCount {
      line[length] = text.utf8Start[index]
      length += 1
    }
  }

  /// Writes `value`'s digits at `length` in ``line``.
  private static func append(_ value: UInt, radix: UInt, at length: inout Int) {
    var divisor: UInt = 1
    while value / divisor >= radix { divisor *= radix }
    while divisor > 0 {
      line[length] = digits.utf8Start[Int(value / divisor % radix)]
      length += 1
      divisor /= radix
    }
  }
}

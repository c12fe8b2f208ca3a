// The many-logs half of Platform.swift: the C library calls `replay triage` needs (a glob, the
// resident memory of a worker, its immediate exit).
import Foundation  // and through it the C library (Glibc, Musl or Darwin)
import Rewind

extension Platform {
  /// The paths that match the shell pattern `pattern` (`*`, `?`, `[…]`), sorted; none when
  /// nothing matches or the pattern is invalid.
  package static func glob(_ pattern: String) -> [String] {
    var matches = glob_t()
    defer { globfree(&matches) }
    guard Foundation.glob(pattern, 0, nil, &matches) == 0 else { return [] }
    var paths: [String] = []
    for index in 0..<Int(matches.gl_pathc) {
      if let path = matches.gl_pathv[index] { paths.append(String(cString: path)) }
    }
    return paths.sorted()
  }

  /// The process's resident set size in bytes now (`/proc/self/statm` on Linux; the peak,
  /// ``peakResidentBytes()``, where there is no such file).
  package static func residentBytes() -> Int {
    #if os(Linux)
      let fd = Foundation.open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
      if fd >= 0 {
        defer { Platform.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { Platform.readSome(fd, into: $0) }
        if count > 0 {
          let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
          if fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) {
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
          }
        }
      }
    #endif
    return peakResidentBytes()
  }

  /// Ends the process at once with `status`, running no exit handler (a watchdog's way out of a
  /// process whose main thread is stuck).
  package static func exitNow(_ status: Int32) -> Never {
    _exit(status)
  }
}

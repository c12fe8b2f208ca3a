import Foundation
import Rewind

/// `rewind-testbed peak REPORT ARGS…`: `replay ARGS…` that writes its own peak resident memory,
/// in bytes, to the file REPORT when it exits (not when a signal kills it).
///
/// The hostile-input tests measure `replay`'s peak memory in a child process. On Linux a parent
/// cannot read it reliably: `wait4`'s `ru_maxrss` of a child started with `posix_spawn` includes
/// the test runner's own high-water mark (glibc's `posix_spawn` shares the parent's address space
/// until `exec`, and `exec` folds that address space's mark into the child's), and sampling
/// `/proc/<pid>/status` misses a peak reached after the last sample. The process itself knows:
/// `VmHWM` of its own address space, read as it exits.
enum PeakMemoryReport {
  /// Where to write the figure; set once, before `atexit` can call ``write()``.
  nonisolated(unsafe) private static var path = ""

  /// Writes the peak to `path` when the process exits.
  static func start(path: String) {
    Self.path = path
    atexit { PeakMemoryReport.write() }
  }

  private static func write() {
    let text = "\(Platform.peakResidentBytes())\n"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
  }
}

import Foundation
import Rewind

/// Files a command made for its own use (a recordings folder's session joined into one file),
/// removed when it ends.
final class TemporaryFiles: Sendable {
  private let paths = Locked<[String]>([])

  /// Removes `path` in ``removeAll()``.
  func add(_ path: String) { paths.withLock { $0.append(path) } }

  /// Removes every file added.
  func removeAll() {
    for path in paths.withLock({ paths in
      defer { paths = [] }
      return paths
    }) {
      try? FileManager.default.removeItem(atPath: path)
    }
  }
}

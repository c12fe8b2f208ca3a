import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it when
/// the value is released. Each test makes its own, so tests running in parallel never share files.
final class TemporaryDirectory {
  /// The directory's absolute path.
  let path: String

  /// Creates the directory.
  /// - Throws: The error of `FileManager.createDirectory`.
  init() throws {
    let name = "rewind-tests-\(UUID().uuidString.lowercased())"
    path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
  }

  /// The path of `name` inside the directory (the file is not created).
  func file(_ name: String) -> String { "\(path)/\(name)" }

  /// The names of the files in the directory, sorted.
  func fileNames() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

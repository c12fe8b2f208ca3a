import Foundation
import RewindTestSupport

/// The package's bundled logs in `Fixtures/`, found from this file's path.
enum LogFixture {
  /// The package root.
  static var packageRoot: URL { Repository.root }

  /// The absolute path of `Fixtures/<name>`.
  static func path(_ name: String) -> String {
    packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }

  /// The bytes of `Fixtures/<name>`.
  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
  }
}

/// Runs `body` with a new empty directory that is removed afterwards.
func withScratchDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("RewindReplayTests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

import Foundation

/// The package's bundled logs in `Fixtures/`, found from this file's path.
enum LogFixture {
  /// The package root: the nearest directory above this file holding `Package.swift`.
  static let packageRoot: URL = {
    var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while directory.path != "/" {
      if FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("Package.swift").path)
      {
        return directory
      }
      directory.deleteLastPathComponent()
    }
    preconditionFailure("no Package.swift above \(#filePath)")
  }()

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

import Foundation

/// The repository the tests run from, found from this source file's path.
public enum Repository {
  /// The repository's root folder (the one holding `Package.swift`).
  public static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // RewindTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// The absolute path of `Fixtures/<name>`.
  public static func fixture(_ name: String) -> String {
    root.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }
}
